// The daily deal page (#/daily, issue 14 item 4): today's deal, the same for everyone, against
// a level of your choice; one a day; its own statistics (days played and won, the streak of
// days won, the best score). The server deals it from the date (docs/web-protocol.md 2.7).

import { request } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { _, currentLanguage, formatNumber, N_, ngettext } from "./i18n.js";
import { roomTicket, saveRoomTicket } from "./store.js";

const OUTCOME = { win: N_("You won"), loss: N_("You lost"), draw: N_("A draw") };

/** "3 h 20 min", "5 min": the time until the next deal, the language's way (Intl). */
function untilNext(seconds) {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const unit = (value, name) => formatNumber(value, { style: "unit", unit: name, unitDisplay: "short" });
  if (hours) return `${unit(hours, "hour")} ${unit(minutes, "minute")}`;
  return unit(Math.max(minutes, 1), "minute");
}

function dayName(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString(currentLanguage(),
    { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" });
}

function resultLine(result) {
  if (result.outcome === "win") {
    return ngettext("You won, {n} point", "You won, {n} points", result.points);
  }
  return OUTCOME[result.outcome] ? _(OUTCOME[result.outcome]) : result.outcome;
}

function statsBox(stats) {
  const figure = (id, label, value) => h("div", { class: "daily-figure", dataset: { figure: id } },
    h("span", { class: "daily-value" }, formatNumber(value)), h("span", { class: "daily-label" }, label));
  return h("section", { class: "card-box", id: "daily-stats" },
    h("h2", {}, _("Your daily deals")),
    h("div", { class: "daily-figures" },
      figure("days_played", _("days played"), stats.days_played),
      figure("days_won", _("days won"), stats.days_won),
      figure("current_streak", _("days won in a row"), stats.current_streak),
      figure("best_streak", _("best run"), stats.best_streak),
      figure("best_score", _("best score"), stats.best_score)),
    stats.recent.length
      ? h("ul", { class: "daily-recent" }, stats.recent.map((r) =>
        h("li", {}, _("{day}: {result}", { day: dayName(r.date), result: resultLine(r) }))))
      : h("p", { class: "muted" }, _("Play today's deal to start your streak.")),
    h("p", { class: "muted" }, _("The daily deal is known to everyone, so it is counted here, apart from your other statistics.")));
}

export async function renderDaily(mount, app) {
  replaceChildren(mount, h("div", { class: "page daily" }, h("p", { class: "muted" }, _("Loading…"))));
  let info;
  try {
    info = await request("GET", "/api/daily");
  } catch (error) {
    replaceChildren(mount, h("div", { class: "page card-box" }, h("p", {}, error.message)));
    return;
  }
  const status = h("p", { class: "form-status", id: "daily-status", role: "status", "aria-live": "polite" });
  let level = app.settings?.level && info.levels.some((l) => l.id === app.settings.level)
    ? app.settings.level : info.default_level;
  const picker = h("div", { class: "level-picker", role: "radiogroup", "aria-label": _("Computer level") },
    info.levels.map((l) => h("label", { class: "level-option", for: `daily-level-${l.id}` },
      h("input", { type: "radio", name: "daily-level", value: l.id, id: `daily-level-${l.id}`, checked: l.id === level,
        onchange: () => (level = l.id) }),
      h("span", {}, l.name))));
  const play = h("button", { class: "btn btn-primary btn-big", id: "daily-play", type: "button" }, _("Play today's deal"));
  play.addEventListener("click", async () => {
    play.disabled = true;
    status.textContent = _("Dealing…");
    try {
      const ticket = await request("POST", "/api/daily", { level });
      saveRoomTicket(ticket);
      location.hash = `#/game/${ticket.room}`;
    } catch (error) {
      status.textContent = error.message;
      play.disabled = false;
    }
  });
  const today = info.stats.today;
  const match = info.match;
  let action;
  if (today) {
    action = h("div", { id: "daily-done" },
      h("p", {}, h("b", {}, _("Today: {result}.", { result: resultLine(today) })), " ",
        _("The next deal comes in {time}.", { time: untilNext(info.next_in) })),
      h("p", {}, h("a", { class: "btn", href: "#/replays" }, _("Replay it"))));
  } else if (match && match.status === "playing" && match.moved === false && match.room && roomTicket(match.room)) {
    // Opened, not played: the try is spent by the first move, so it is still to play.
    action = h("div", { id: "daily-opened" },
      h("p", {}, _("You opened today's deal but have not moved yet: your try is not spent.")),
      h("a", { class: "btn btn-primary btn-big", id: "daily-play", href: `#/game/${match.room}` }, _("Play today's deal")));
  } else if (match && match.status === "playing") {
    const held = match.room && roomTicket(match.room);
    action = h("div", { id: "daily-started" },
      h("p", {}, _("You have started today's deal."), " ", _("Today's try is spent: it began with your first move.")),
      held ? h("a", { class: "btn btn-primary", href: `#/game/${match.room}` }, _("Go on with it")) :
        h("p", { class: "muted" }, match.source === "web"
          ? _("It is in your unfinished games in the lobby of the browser you started it in.")
          : _("Go on with it in the terminal (spite-malice play).")));
  } else {
    action = h("div", { id: "daily-new" },
      h("p", {}, _("Choose your opponent:")), picker, play, status);
  }
  replaceChildren(mount, h("div", { class: "page daily" },
    h("section", { class: "card-box hero" },
      h("h1", {}, _("The daily deal")),
      h("p", { class: "muted", id: "daily-date" },
        _("{day}: the same cards for every player today, one game, one try. A new deal every day at midnight UTC.",
          { day: dayName(info.date) })),
      action),
    statsBox(info.stats)));
}
