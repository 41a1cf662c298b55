// The modal boxes of the game screen: a yes/no question, and the game-over and match-over
// screens with the points.

import { cardFace } from "./cards.js";
import { h, replaceChildren } from "./dom.js";
import { _, formatNumber, ngettext } from "./i18n.js";
import { verifyBox } from "./verify.js";
import { displayName, lastGameDrawn, nobodyScores } from "./words.js";

export function button(id, label, onclick, { primary = false, title = null, hidden = false } = {}) {
  const cls = primary ? "btn btn-primary" : "btn";
  return h("button", { class: cls, id, type: "button", onclick, title, hidden }, label);
}

/** Ask a yes/no question; resolves true for yes. */
export function confirmDialog(title, text, { yes = null, no = null } = {}) {
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
        h("button", { class: "btn", type: "button", id: "confirm-no", onclick: () => done(false) }, no ?? _("Cancel")),
        h("button", { class: "btn btn-primary", type: "button", id: "confirm-yes", onclick: () => done(true) }, yes ?? _("Yes"))));
    dialog.addEventListener("cancel", () => done(false));
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** What a finished game means for me: a title and a sentence with the points. */
function gameResult(outcome, seat, opponent) {
  if (outcome.winner === null) return { title: _("A draw"), text: nobodyScores(outcome.reason) };
  if (outcome.winner === seat) {
    return {
      title: _("You win the game!"),
      text: ngettext("You emptied your pay-off pile first, and score {n} point: the cards left in {name}'s pay-off pile.",
        "You emptied your pay-off pile first, and score {n} points: the cards left in {name}'s pay-off pile.",
        outcome.points, { name: opponent }),
    };
  }
  return {
    title: _("{name} wins the game", { name: opponent }),
    text: ngettext("{name} emptied their pay-off pile first, and scores {n} point: the cards left in yours.",
      "{name} emptied their pay-off pile first, and scores {n} points: the cards left in yours.",
      outcome.points, { name: opponent }),
  };
}

/** "Last game: Easy won 3 points." for the match-over screen. */
function lastGameLine(outcome, seat, opponent) {
  if (outcome.winner === null) return lastGameDrawn(outcome.reason);
  return outcome.winner === seat
    ? ngettext("Last game: you won {n} point.", "Last game: you won {n} points.", outcome.points)
    : ngettext("Last game: {name} won {n} point.", "Last game: {name} won {n} points.", outcome.points, { name: opponent });
}

/**
 * The game-over screen (or match-over, once a player reached the target), with the games of
 * the match and the score. `next()` deals the next game or starts a new match; N does too.
 * Returns the open <dialog>.
 */
/** The figures of a finished game, from its public events: turns, cards built, stacks completed. */
export function gameFigures(events, seat) {
  const figures = { turns: [0, 0], built: [0, 0], discarded: [0, 0], completed: 0 };
  for (const event of events ?? []) {
    if (event.kind === "turn_ended") figures.turns[event.player] += 1;
    else if (event.kind === "built") figures.built[event.player] += 1;
    else if (event.kind === "discarded") figures.discarded[event.player] += 1;
    else if (event.kind === "stack_completed") figures.completed += 1;
  }
  const mine = (list) => list[seat];
  const theirs = (list) => list[1 - seat];
  return { ...figures, mine, theirs };
}

function figuresTable(figures, opponent) {
  if (!figures) return null;
  const row = (label, list) => h("tr", {}, h("th", { scope: "row" }, label),
    h("td", {}, formatNumber(figures.mine(list))), h("td", {}, formatNumber(figures.theirs(list))));
  return h("table", { class: "match-table game-figures", id: "game-figures" },
    h("caption", {}, _("This game")),
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, _("You")), h("th", {}, opponent))),
    h("tbody", {},
      row(_("Turns"), figures.turns),
      row(_("Cards built on the center"), figures.built),
      row(_("Discards"), figures.discarded)),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, _("Center stacks completed")),
      h("td", { colspan: 2 }, formatNumber(figures.completed)))));
}

/** Paper confetti over the dialog, for a match won (none with reduced motion). */
function celebration() {
  const box = h("div", { class: "celebration", "aria-hidden": "true" });
  const colours = ["#ffd35a", "#c0262d", "#1d6b3c", "#2f7de1", "#ffffff"];
  for (let i = 0; i < 36; i++) {
    box.append(h("span", {
      style: {
        left: `${(i * 37) % 100}%`, background: colours[i % colours.length],
        "animation-delay": `${(i % 9) * 0.12}s`, "animation-duration": `${1.6 + (i % 5) * 0.25}s`,
      },
    }));
  }
  return box;
}

/**
 * Every card that was hidden during the game (web-protocol 4.1 `reveal`, sent only once the
 * game is over), so that players can see that nobody cheated: both pay-off piles, both hands
 * and the stock in the order it would have been drawn. Each card is named for screen readers.
 */
export function revealSection(reveal, seat, opponent) {
  if (!reveal) return null;
  const name = { name: opponent };
  const row = (label, cards, part, of = null) => h("div", {
    class: "reveal-row", dataset: of === null ? { part } : { part, seat: String(of) },
  },
  h("h4", {}, ngettext("{label} ({n} card)", "{label} ({n} cards)", cards.length, { label })),
  cards.length
    ? h("div", { class: "reveal-cards", role: "list" }, cards.map((code) => {
      const item = h("span", { class: "reveal-card", role: "listitem" });
      item.append(cardFace(code));
      return item;
    }))
    : h("p", { class: "muted" }, _("None.")));
  return h("details", { class: "reveal", id: "reveal" },
    h("summary", {}, _("See every card that was hidden")),
    h("p", { class: "muted" }, _("What was face down or in a hand when the game ended: nobody could see these.")),
    row(_("Your pay-off pile, its top card last"), reveal.payoffs[seat], "payoff", seat),
    row(_("{name}'s pay-off pile, its top card last", name), reveal.payoffs[1 - seat], "payoff", 1 - seat),
    row(_("{name}'s hand", name), reveal.hands[1 - seat], "hand", 1 - seat),
    row(_("Your hand"), reveal.hands[seat], "hand", seat),
    row(_("The stock, the next card to be drawn first"), reveal.stock, "stock"));
}

/** The end of a resigned match: who resigned, who wins it, and the hidden cards. */
/** Buttons of an end screen from {id, label, onclick, primary, disabled} (the rematch of a
 * friend match); each closes the screen first. The primary one last. */
function actionButtons(actions, close) {
  return actions.map((a) => {
    const node = button(a.id, a.label, () => { close(); a.onclick?.(); }, { primary: Boolean(a.primary) });
    node.disabled = Boolean(a.disabled);
    return node;
  });
}

export function resignedDialog({ state, opponent, onClose, next = null, nextLabel = null, actions = null, note = null }) {
  const seat = state.seat;
  const mine = state.resigned === seat;
  const dialog = h("dialog", { class: "dialog over-dialog", id: "game-over", "aria-labelledby": "game-over-title" });
  const close = () => {
    dialog.close();
    dialog.remove();
    onClose(dialog);
  };
  const extra = actions ? actionButtons(actions, close) : [];
  const primary = actions ? extra.at(-1) ?? null : next
    ? button("dialog-new-match", nextLabel ?? _("New match"), () => { close(); next(); }, { primary: true })
    : null;
  const name = { name: opponent };
  const text = state.claimed
    ? (mine
      ? _("{name} claimed the game because you were offline for too long. {name} wins the match.", name)
      : _("You claimed the game: {name} was offline for too long. You win the match.", name))
    : (mine
      ? _("You resigned the match. The game counts as lost, with no points. {name} wins the match.", name)
      : _("{name} resigned the match. You win it.", name));
  replaceChildren(dialog,
    h("h2", { id: "game-over-title", class: "match-over" }, _("Match over")),
    h("p", { class: "dialog-lead" }, text),
    note ? h("p", { class: "rematch-note", id: "rematch-note" }, note) : null,
    revealSection(state.reveal, seat, opponent),
    verifyBox(state),
    h("div", { class: "dialog-actions" },
      h("button", { class: "btn", type: "button", onclick: close }, _("Look at the table")),
      actions ? extra : primary));
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    close();
  });
  document.body.append(dialog);
  dialog.showModal();
  (primary && !primary.disabled ? primary : dialog.querySelector("button"))?.focus();
  return dialog;
}

export function gameOverDialog({ state, opponent, who, next, onClose, figures = null, nextLabel = null, actions = null, note = null }) {
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
  const extra = actions ? actionButtons(actions, close) : [];
  const primary = actions ? extra.at(-1) : match.over
    ? button("dialog-new-match", nextLabel ?? _("New match"), () => { close(); next(); }, { primary: true })
    : button("dialog-next-game", _("Next game"), () => { close(); next(); }, { primary: true });
  const mine = match.score[seat];
  const theirs = match.score[1 - seat];
  const matchText = match.winner === seat
    ? _("You win the match, {mine} to {theirs}!", { mine, theirs })
    : _("{name} wins the match, {theirs} to {mine}.", { name: opponent, mine, theirs });
  const won = match.over && match.winner === seat;
  replaceChildren(dialog,
    won ? celebration() : null,
    h("h2", { id: "game-over-title", class: match.over ? "match-over" : "" }, match.over ? _("Match over") : title),
    match.over ? h("p", { class: "dialog-lead" }, matchText) : null,
    h("p", {}, match.over ? lastGameLine(outcome, seat, opponent) : text),
    figuresTable(figures, opponent),
    h("table", { class: "match-table" },
      h("thead", {}, h("tr", {}, h("th", {}, _("Game")), h("th", {}, _("Winner")), h("th", {}, _("Points")))),
      h("tbody", {}, match.games.map((g) => h("tr", {},
        h("td", {}, formatNumber(g.number)),
        h("td", {}, g.winner === null ? _("Draw")
          : g.assisted ? _("{name} (assisted)", { name: displayName(who(g.winner)) }) : displayName(who(g.winner))),
        h("td", {}, formatNumber(g.points))))),
      h("tfoot", {}, h("tr", {}, h("th", {}, _("Score")), h("td", { colspan: 2 },
        _("You {mine} · {name} {theirs} · first to {target}", { mine, name: opponent, theirs, target: match.target }))))),
    note ? h("p", { class: "rematch-note", id: "rematch-note" }, note) : null,
    revealSection(state.reveal, seat, opponent),
    verifyBox(state),
    h("div", { class: "dialog-actions" },
      h("button", { class: "btn", type: "button", onclick: close }, _("Look at the table")),
      actions ? extra : primary),
    // replay.js: the game just finished heads the list of replays, with "Where did I lose?"
    h("p", { class: "dialog-replay" }, h("a", { href: "#/replays", id: "dialog-replays", onclick: close },
      _("Replay this game, or see where it was won and lost"))));
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
  (primary && !primary.disabled ? primary : dialog.querySelector("button"))?.focus();
  return dialog;
}
