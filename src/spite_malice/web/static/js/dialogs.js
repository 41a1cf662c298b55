// The modal boxes of the game screen: a yes/no question, and the game-over and match-over
// screens with the points.

import { h, replaceChildren } from "./dom.js";

export function button(id, label, onclick, { primary = false, title = null, hidden = false } = {}) {
  const cls = primary ? "btn btn-primary" : "btn";
  return h("button", { class: cls, id, type: "button", onclick, title, hidden }, label);
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** Ask a yes/no question; resolves true for yes. */
export function confirmDialog(title, text, { yes = "Yes", no = "Cancel" } = {}) {
  return new Promise((resolve) => {
    const dialog = h("dialog", { class: "dialog", "aria-label": title });
    const done = (value) => {
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    dialog.append(
      h("h2", {}, title), h("p", {}, text),
      h("div", { class: "dialog-actions" },
        h("button", { class: "btn", type: "button", id: "confirm-no", onclick: () => done(false) }, no),
        h("button", { class: "btn btn-primary", type: "button", id: "confirm-yes", onclick: () => done(true) }, yes)));
    dialog.addEventListener("cancel", () => done(false));
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** What a finished game means for me: a title and a sentence with the points. */
function gameResult(outcome, seat, opponent) {
  if (outcome.winner === null) return { title: "A draw", text: `Nobody scores: ${outcome.reason}.` };
  const points = plural(outcome.points, "point");
  if (outcome.winner === seat) {
    return {
      title: "You win the game!",
      text: `You score ${points}: the cards left in ${opponent}'s pay-off pile.`,
    };
  }
  return {
    title: `${opponent} wins the game`,
    text: `${opponent} scores ${points}: the cards left in your pay-off pile.`,
  };
}

/** "Last game: Easy won 3 points." for the match-over screen. */
function lastGameLine(outcome, seat, opponent) {
  if (outcome.winner === null) return `Last game: a draw (${outcome.reason}).`;
  const points = plural(outcome.points, "point");
  return outcome.winner === seat ? `Last game: you won ${points}.` : `Last game: ${opponent} won ${points}.`;
}

/**
 * The game-over screen (or match-over, once a player reached the target), with the games of
 * the match and the score. `next()` deals the next game or starts a new match; N does too.
 * Returns the open <dialog>.
 */
export function gameOverDialog({ state, opponent, who, next, onClose }) {
  const seat = state.seat;
  const outcome = state.observation.outcome;
  const match = state.match;
  const { title, text } = gameResult(outcome, seat, opponent);
  const dialog = h("dialog", { class: "dialog over-dialog", id: "game-over", "aria-labelledby": "game-over-title" });
  const close = () => {
    dialog.close();
    dialog.remove();
    onClose(dialog);
  };
  const primary = match.over
    ? button("dialog-new-match", "New match", () => { close(); next(); }, { primary: true })
    : button("dialog-next-game", "Next game", () => { close(); next(); }, { primary: true });
  const mine = match.score[seat];
  const theirs = match.score[1 - seat];
  const matchText = match.winner === seat
    ? `You win the match, ${mine} to ${theirs}!`
    : `${opponent} wins the match, ${theirs} to ${mine}.`;
  replaceChildren(dialog,
    h("h2", { id: "game-over-title", class: match.over ? "match-over" : "" }, match.over ? "Match over" : title),
    match.over ? h("p", { class: "dialog-lead" }, matchText) : null,
    h("p", {}, match.over ? lastGameLine(outcome, seat, opponent) : text),
    h("table", { class: "match-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Winner"), h("th", {}, "Points"))),
      h("tbody", {}, match.games.map((g) => h("tr", {},
        h("td", {}, String(g.number)),
        h("td", {}, g.winner === null ? "draw" : who(g.winner) + (g.assisted ? " (assisted)" : "")),
        h("td", {}, String(g.points))))),
      h("tfoot", {}, h("tr", {}, h("th", {}, "Score"), h("td", { colspan: 2 },
        `You ${mine} · ${opponent} ${theirs} · first to ${match.target}`)))),
    h("div", { class: "dialog-actions" },
      h("button", { class: "btn", type: "button", onclick: close }, "Look at the table"),
      primary));
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    close();
  });
  dialog.addEventListener("keydown", (event) => {
    if (event.key.toLowerCase() === "n" && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      primary.click();
    }
  });
  document.body.append(dialog);
  dialog.showModal();
  primary.focus();
  return dialog;
}
