// A rated game between strangers at the table (web-protocol 4.1 `strangers`, 3.9): the move
// clock counting down, aborting before both players moved, blocking the opponent.

import { api } from "./api.js";
import { button, confirmDialog } from "./dialogs.js";
import { h } from "./dom.js";
import { _ } from "./i18n.js";

const LOW_SECONDS = 10;

/** "1:05": seconds as minutes and seconds. */
function minutesAndSeconds(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** The banner of a match aborted before both players moved. */
export function abortedText() {
  return _("The game was aborted: it does not count");
}

export class StrangerPanel {
  constructor(game) {
    this.game = game;
    this.clockNode = h("p", { class: "move-clock", id: "move-clock", role: "timer", hidden: true });
    this.abortButton = button("abort-button", _("Abort the game"), () => this.abort(),
      { title: _("Before both of you have moved, the game can be called off: it does not count"), hidden: true });
    this.blockButton = button("block-button", _("Block"), () => this.block(), { hidden: true });
    this.received = null;
    this.timer = null;
    this.blocked = false;
  }

  get state() {
    return this.game.state?.strangers ?? null;
  }

  /** Called at every change of the game's controls. */
  update() {
    const strangers = this.state;
    const open = this.game.connection?.isOpen ?? false;
    if (strangers) this.game.claimButton.title = _("Your opponent has been offline too long: win the game");
    this.abortButton.hidden = !strangers?.can_abort;
    this.abortButton.disabled = !open;
    const opponent = this.game.names().opponent;
    const over = Boolean(strangers) && (this.game.isOver() || Boolean(this.game.state?.match.over));
    this.blockButton.hidden = !over || this.blocked;
    this.blockButton.textContent = _("Block {name}", { name: opponent });
    const clock = strangers?.clock ?? null;
    if (!clock) {
      this.clockNode.hidden = true;
      this.stopTimer();
      return;
    }
    const key = JSON.stringify(clock);
    if (key !== this.clockKey) {
      this.clockKey = key;
      this.received = { clock, at: performance.now() };
    }
    this.clockNode.hidden = false;
    this.tick();
    if (!this.timer) this.timer = setInterval(() => this.tick(), 250);
  }

  tick() {
    if (!this.received) return;
    const { clock, at } = this.received;
    const left = clock.left - (performance.now() - at) / 1000;
    const time = minutesAndSeconds(left);
    let text;
    if (clock.between_games) text = _("Next game in {time}", { time });
    else if (clock.seat === this.game.seat) text = _("Your time: {time}", { time });
    else text = _("{name}'s time: {time}", { name: this.game.names().opponent, time });
    if (this.clockNode.textContent !== text) this.clockNode.textContent = text;
    this.clockNode.dataset.low = String(left <= LOW_SECONDS && !clock.between_games);
    this.clockNode.dataset.mine = String(clock.seat === this.game.seat);
  }

  stopTimer() {
    clearInterval(this.timer);
    this.timer = null;
  }

  destroy() {
    this.stopTimer();
  }

  async abort() {
    const ok = await confirmDialog(_("Abort the game?"),
      _("The game ends without a result and is not rated. Aborting often can keep you from playing strangers for a while."),
      { yes: _("Abort the game"), no: _("Keep playing") });
    if (!ok) return;
    try {
      await api.abortMatch(this.game.ticket.room, this.game.ticket.token);
    } catch (error) {
      this.game.say(error.message);
    }
  }

  async block() {
    const name = this.game.names().opponent;
    const ok = await confirmDialog(_("Block {name}?", { name }),
      _("You will not be paired with {name} again.", { name }),
      { yes: _("Block"), no: _("Cancel") });
    if (!ok) return;
    try {
      await api.blockOpponent(this.game.ticket.room, this.game.ticket.token);
      this.blocked = true;
      this.update();
      this.game.say(_("You blocked {name}. You will not be paired again.", { name }));
    } catch (error) {
      this.game.say(error.message);
    }
  }
}
