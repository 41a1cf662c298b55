// Games over days (docs/browser.md, "Games over days"): start a friend game with a time per
// move of 1, 3 or 7 days (POST /api/turn-games), and the list of your games where it is your
// turn first, with the time left in days and hours (GET /api/turn-games, web-protocol 2.12).

import { request } from "./api.js";
import { h } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { saveRoomTicket } from "./store.js";

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
  request("GET", "/api/turn-games").then(({ games }) => {
    for (const game of games) list.append(gameItem(game));
  }).catch(() => {
    // the list is a convenience: the page works without it
  });
  return h("section", { class: "card-box", id: "turn-games-box" },
    h("h2", {}, _("Games over days")),
    h("p", { class: "muted" },
      _("Play a friend one turn at a time, over days. When your time for a move runs out, the game is lost.")),
    h("div", { class: "field turn-start" }, days, button),
    status,
    list);
}
