// The Play page: start a match against the computer, create or join a room for a friend,
// resume an unfinished game.

import { api } from "../api.js";
import { confirmDialog } from "../dialogs.js";
import { h, replaceChildren, withNodes } from "../dom.js";
import { _, formatNumber } from "../i18n.js";
import { roomTicket, saveRoomTicket } from "../store.js";
import { rulesSummary } from "./settings.js";
import { createRoom, listOfflineMatches } from "../../offline/lobby.js";
import { quickMatchBox } from "../quick_match.js";
import { turnGamesBox } from "../turn_games.js";

/** The room code inside what the player typed: a code, or an invite link. */
export function roomFromInput(text) {
  const trimmed = text.trim();
  const match = trimmed.match(/join\/([A-Za-z0-9]+)\/?$/) ?? trimmed.match(/^([A-Za-z0-9]{4,12})$/);
  return match ? match[1].toUpperCase() : null;
}

/** The rules part of a request that starts a match: a preset name, or the options. */
export function rulesRequest(settings) {
  if (!settings) return {};
  return settings.preset ? { preset: settings.preset } : { rules: settings.rules };
}

export async function renderLobby(mount, app) {
  const { config, settings } = app;
  const levels = config?.levels ?? [];
  // The level the player picked stays picked if the lobby is drawn again (a late answer, a
  // change of language), until the settings are saved; else the settings' level.
  const known = (id) => Boolean(id) && levels.some((l) => l.id === id);
  let level = known(app.pickedLevel) ? app.pickedLevel
    : known(settings?.level) ? settings.level
      : config?.default_level ?? levels[0]?.id;

  const levelButtons = h("div", { class: "level-picker", role: "radiogroup", "aria-label": _("Computer level") },
    levels.map((l) => {
      const input = h("input", {
        type: "radio", name: "level", value: l.id, id: `level-${l.id}`, checked: l.id === level,
        onchange: () => { level = l.id; app.pickedLevel = l.id; },
      });
      return h("label", { class: "level-option", for: `level-${l.id}` }, input, h("span", {}, l.name));
    }));
  const status = h("p", { class: "form-status", role: "status", "aria-live": "polite" });
  // a match against the computer says how it goes under its button (offline: that offline
  // play is not installed), in sight on a phone
  const startStatus = h("p", { class: "start-status", id: "start-status", role: "status", "aria-live": "polite" });

  const start = async (mode, button) => {
    const say = mode === "computer" ? startStatus : status;
    button.disabled = true;
    status.textContent = "";
    startStatus.textContent = "";
    say.textContent = mode === "computer" ? _("Dealing…") : _("Creating a room…");
    try {
      const body = { mode, ...rulesRequest(settings) };
      if (mode === "computer") body.level = level;
      const ticket = await createRoom(body, app.player()); // offline: the offline engine
      saveRoomTicket(ticket);
      location.hash = `#/game/${ticket.room}`;
    } catch (error) {
      say.textContent = error.message;
      button.disabled = false;
    }
  };

  const startButton = h("button", { class: "btn btn-primary btn-big", id: "start-computer", type: "button" },
    _("Start a match"));
  startButton.addEventListener("click", () => start("computer", startButton));
  const roomButton = h("button", { class: "btn btn-primary", id: "create-room", type: "button" }, _("Create a room"));
  roomButton.addEventListener("click", () => start("friend", roomButton));

  const joinInput = h("input", {
    id: "join-code", type: "text", placeholder: _("Room code or invite link"), autocomplete: "off",
    "aria-label": _("Room code or invite link"),
  });
  const joinForm = h("form", { class: "join-form", onsubmit: (e) => {
    e.preventDefault();
    const room = roomFromInput(joinInput.value);
    if (!room) status.textContent = _("That is not a room code or an invite link.");
    else location.hash = `#/join/${room}`;
  } }, joinInput, h("button", { class: "btn", type: "submit", id: "join-button" }, _("Join")));

  const resumeList = h("ul", { class: "resume-list", id: "resume-list" });
  const resumeBox = h("section", { class: "card-box", hidden: true }, h("h2", {}, _("Your unfinished games")), resumeList);

  replaceChildren(mount, h("div", { class: "page lobby" },
    h("section", { class: "card-box hero" },
      h("h1", {}, _("Play the computer")),
      h("p", { class: "muted" }, _("Empty your pay-off pile first. Kings are wild.")),
      levelButtons,
      h("p", { class: "rules-line" }, withNodes(_("Rules: {rules} · {change}"), {
        rules: h("b", {}, rulesSummary(settings, config)),
        // TRANSLATORS: a link to Settings, after the rules of new matches
        change: h("a", { href: "#/settings" }, _("change")),
      })),
      startButton,
      startStatus),
    quickMatchBox(status),
    h("section", { class: "card-box" },
      h("h2", {}, _("Play a friend")),
      h("p", { class: "muted" }, _("Create a room and send the invite link; or join with a friend's link or code.")),
      roomButton,
      joinForm),
    status,
    resumeBox));
  mount.querySelector(".page")?.append(turnGamesBox()); // games over days (turn_games.js)

  /** Give up an unfinished match, after saying that it counts as a loss (web-protocol 3.6):
   * `action` gives it up (the server's room, or an offline match in this browser). */
  const giveUp = async (opponent, item, action) => {
    const ok = await confirmDialog(_("Give up this game?"),
      _("It counts as a loss: the game in progress is lost, with no points, and the match ends. {name} wins it.",
        { name: opponent }),
      { yes: _("Give up"), no: _("Keep it") });
    if (!ok) return;
    try {
      await action();
      item.remove();
      status.textContent = _("You gave up the game against {name}. It counts as a loss.", { name: opponent });
      resumeBox.hidden = resumeList.childElementCount === 0;
    } catch (error) {
      status.textContent = error.message;
    }
  };

  listOfflineMatches(resumeList, resumeBox, levels, giveUp);
  try {
    const { rooms } = await api.rooms();
    const mine = rooms.filter((r) => roomTicket(r.room));
    for (const r of mine) {
      const level = r.mode === "computer" ? levels.find((l) => l.id === r.level)?.name : null;
      const opponent = level ?? r.players[1 - r.seat] ?? _("waiting for a friend");
      const name = { name: opponent };
      const item = h("li", { class: "resume-item", dataset: { room: r.room } },
        h("a", { href: `#/game/${r.room}`, class: "resume-link" },
          h("b", {}, r.mode === "computer" ? _("vs {name}", name)
            : r.pool ? _("Rated game vs {name}", name) : _("Friend game vs {name}", name)),
          h("span", { class: "muted" }, " · " + _("game {n} · score {mine}–{theirs} · room {room}", {
            n: r.game_number, mine: formatNumber(r.score[r.seat]), theirs: formatNumber(r.score[1 - r.seat]), room: r.room,
          }))),
        h("span", { class: "resume-actions" },
          h("a", { class: "btn", href: `#/game/${r.room}`, "aria-label": _("Resume the game against {name}", name) },
            _("Resume")),
          h("button", {
            class: "btn give-up", type: "button", "aria-label": _("Give up the game against {name}", name),
            onclick: () => giveUp(opponent, item, () => api.giveUp(r.room, roomTicket(r.room).token)),
          }, _("Give up"))));
      resumeList.append(item);
    }
    resumeBox.hidden = mine.length === 0;
  } catch {
    // The resume list is a convenience; the lobby works without it.
  }
}
