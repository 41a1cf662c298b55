// The clock of a game over days (docs/browser.md, "Games over days"; web-protocol 4.1
// `turn_game`): the time left for the move being played, in days and hours, counted down
// from the time the server gives (`turn_game.deadline`, seconds since 1970).

import { h } from "./dom.js";
import { _, ngettext } from "./i18n.js";

/** "2 days and 5 hours", "5 hours", "1 day": as the server words it (web/turn_based.py). */
export function leftWords(seconds) {
  let hours = Math.max(0, Math.floor(seconds / 3600));
  if (seconds > 0 && hours === 0) hours = 1;
  const days = Math.floor(hours / 24);
  hours %= 24;
  const dayWords = ngettext("{n} day", "{n} days", days);
  const hourWords = ngettext("{n} hour", "{n} hours", hours);
  if (days && hours) return _("{days} and {hours}", { days: dayWords, hours: hourWords });
  return days ? dayWords : hourWords;
}

/** The line "Your move: 2 days and 5 hours left." of the game panel. */
export class TurnClock {
  constructor(game) {
    this.game = game;
    this.node = h("p", { class: "turn-clock", id: "turn-clock", role: "status", hidden: true });
    this.timer = null;
  }

  update() {
    const deadline = this.game.state?.turn_game?.deadline;
    this.node.hidden = deadline === null || deadline === undefined;
    if (this.node.hidden) {
      this.destroy();
      return;
    }
    const left = leftWords(deadline - Date.now() / 1000);
    this.node.textContent = this.game.isMyTurn()
      ? _("Your move: {left} left.", { left })
      : _("Their move: {left} left.", { left });
    if (!this.timer) this.timer = setInterval(() => this.update(), 60_000);
  }

  destroy() {
    clearInterval(this.timer);
    this.timer = null;
  }
}
