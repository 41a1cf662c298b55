// The move log: every public event of the game as a sentence, coloured by who acted; each
// move's notation in front of its first event when the player asks for it (Settings).

import { h } from "./dom.js";
import { eventSentence } from "./words.js";

export class MoveLog {
  /**
   * @param {HTMLOListElement} node the list
   * @param {() => number} seat my seat
   * @param {(seat: number) => string} who "You" or the opponent's name
   */
  constructor(node, seat, who) {
    this.node = node;
    this.seat = seat;
    this.who = who;
    this.showNotation = false;
  }

  clear() {
    this.node.replaceChildren();
  }

  /** Whose entry: mine, the opponent's, or the table's (a completed stack, a draw). */
  entryClass(seat) {
    if (seat === null || seat === undefined) return "log-table";
    return seat === this.seat() ? "log-me" : "log-opp";
  }

  /**
   * A whole game so far (after a connect): a build or a discard is the first event of its
   * move, so the n-th of them gets the n-th move of `history`; the events before the first
   * move are the deal.
   */
  addGame(events, history) {
    let group = [];
    let move = null;
    let index = 0;
    const flush = () => {
      if (group.length || move) this.addMove(group, move, group[0]?.player ?? null);
      group = [];
    };
    for (const event of events) {
      if (event.kind === "built" || event.kind === "discarded") {
        flush();
        move = history[index++] ?? null;
      }
      group.push(event);
    }
    flush();
  }

  /** The events of one move (or of the deal, with `move` null) by `seat`. */
  addMove(events, move, seat = null) {
    let first = true;
    for (const event of events) {
      const text = eventSentence(event, this.who);
      if (!text) continue;
      this.node.append(h("li", { class: this.entryClass(event.player ?? seat) },
        first && move && this.showNotation ? h("code", { class: "log-move" }, move) : null,
        text));
      first = false;
    }
    if (move && first && this.showNotation) {
      this.node.append(h("li", { class: this.entryClass(seat) }, h("code", { class: "log-move" }, move)));
    }
    this.node.scrollTop = this.node.scrollHeight;
  }
}
