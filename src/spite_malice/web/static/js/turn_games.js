// Games over days (docs/browser.md, "Games over days"): start a friend game with a time per
// move of 1, 3 or 7 days (POST /api/turn-games), and the list of your games where it is your
// turn first, with the time left in days and hours (GET /api/turn-games, web-protocol 2.12);
// and the turn-based pools (web-protocol 3.8.1): wait for a stranger to play over days, with
// no page kept open. The seats of the games the waves made come with GET /api/turn-pool: the
// page keeps them as any room's ticket, so the games open from the list.

import { request } from "./api.js";
import { h } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { roomTicket, saveRoomTicket } from "./store.js";

/** How often the lobby looks whether a turn-based wait has become a game (the wait itself
 * needs no page: this only shows the game sooner). */
const POLL_MS = 30000;

function gameItem(game) {
  const name = game.opponent ?? _("waiting for a friend");
  const state = game.status !== "playing" ? _("over")
    : game.your_turn ? _("your turn, {left} left", { left: game.left ?? "" })
      : _("their turn, {left} left", { left: game.left ?? "" });
  return h("li", { class: "resume-item", dataset: { room: game.room } },
    h("a", { href: `#/game/${game.room}`, class: "resume-link" },
      h("b", {}, _("vs {name}", { name })),
      h("span", { class: "muted" }, " · " + state)));
}

/** Keep the seats of the turn-based games between strangers the server made (any browser of
 * the player collects them); whether a new one came. */
function keepTickets(games) {
  let fresh = false;
  for (const game of games) {
    if (roomTicket(game.room)) continue;
    saveRoomTicket(game, { last: false });
    fresh = true;
  }
  return fresh;
}

/** The turn-based pools: choose 1, 3 or 7 days a move, wait (shown with its cancel) until a
 * wave pairs you; the game then comes into the list below. */
function strangerPool(status, refresh) {
  const days = h("select", { id: "turn-pool-days", "aria-label": _("Time per move") },
    [1, 3, 7].map((n) => h("option", { value: String(n) }, ngettext("{n} day a move", "{n} days a move", n, { n }))));
  const find = h("button", { class: "btn", id: "join-turn-pool", type: "button" }, _("Find an opponent"));
  const cancel = h("button", { class: "btn", id: "leave-turn-pool", type: "button" }, _("Cancel"));
  const line = h("p", { class: "pool-wait", id: "turn-pool-wait", role: "status", "aria-live": "polite" });
  const chooser = h("div", { class: "field turn-start", id: "turn-pool-choose" }, days, find);
  const waitView = h("div", { class: "pool-waiting", id: "turn-pool-waiting", hidden: true }, line, cancel);
  let timer = null;
  // Only the newest answer is shown: the lobby's first look, sent before a click on "Find
  // an opponent", may come back after the click's own answer and would undo it.
  let asked = 0;
  const ask = (method, body) => {
    const mine = ++asked;
    return request(method, "/api/turn-pool", body).then((news) => {
      if (mine === asked) show(news);
      return news;
    });
  };

  const show = (news) => {
    if (keepTickets(news.games ?? [])) {
      status.textContent = _("Your game over days with a stranger has started: it is in the list below.");
      refresh();
    }
    const waiting = news.waiting;
    chooser.hidden = Boolean(waiting);
    waitView.hidden = !waiting;
    clearTimeout(timer);
    timer = null;
    if (waiting) {
      line.textContent = ngettext(
        "Looking for an opponent over days, {n} day a move. You may close the page: the game will be in your list when it starts.",
        "Looking for an opponent over days, {n} days a move. You may close the page: the game will be in your list when it starts.",
        waiting.days, { n: waiting.days });
      timer = setTimeout(poll, POLL_MS);
    }
  };
  const poll = () => {
    if (!document.body.contains(waitView)) return; // the lobby was left: no more looking
    ask("GET").catch(() => { timer = setTimeout(poll, POLL_MS); });
  };
  find.addEventListener("click", async () => {
    find.disabled = true;
    status.textContent = "";
    try {
      await ask("POST", { pool: `days-${days.value}` });
    } catch (error) {
      status.textContent = error.message;
    } finally {
      find.disabled = false;
    }
  });
  cancel.addEventListener("click", async () => {
    try {
      const news = await ask("DELETE");
      if (!news.waiting) status.textContent = _("You are no longer looking for an opponent over days.");
    } catch (error) {
      status.textContent = error.message;
    }
  });
  ask("GET").catch(() => {
    // the pool is a convenience of the lobby: the page works without it
  });
  return h("div", { class: "turn-pool", id: "turn-pool" },
    h("h3", {}, _("Play a stranger over days")),
    h("p", { class: "muted" },
      _("A rated game against a stranger of about your rating, one turn at a time. You can play other games while you wait.")),
    chooser, waitView);
}

/** The "Games over days" box of the Play page. */
export function turnGamesBox() {
  const status = h("p", { class: "muted", id: "turn-games-status", role: "status", "aria-live": "polite" });
  const days = h("select", { id: "turn-days", "aria-label": _("Time per move") },
    [1, 3, 7].map((n) => h("option", { value: String(n) }, ngettext("{n} day a move", "{n} days a move", n, { n }))));
  const button = h("button", { class: "btn", id: "create-turn-game", type: "button" }, _("Start a game over days"));
  const list = h("ul", { class: "resume-list", id: "turn-games" });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const ticket = await request("POST", "/api/turn-games", { days: Number(days.value) });
      saveRoomTicket(ticket);
      location.hash = `#/game/${ticket.room}`;
    } catch (error) {
      status.textContent = error.message;
      button.disabled = false;
    }
  });
  const refresh = () => request("GET", "/api/turn-games").then(({ games }) => {
    list.replaceChildren(...games.map(gameItem));
  }).catch(() => {
    // the list is a convenience: the page works without it
  });
  refresh();
  return h("section", { class: "card-box", id: "turn-games-box" },
    h("h2", {}, _("Games over days")),
    h("p", { class: "muted" },
      _("Play a friend one turn at a time, over days. When your time for a move runs out, the game is lost.")),
    h("div", { class: "field turn-start" }, days, button),
    strangerPool(status, refresh),
    status,
    list);
}
