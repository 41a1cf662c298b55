// The game screen: connects to a room's WebSocket, draws the table, plays back the
// opponent's moves one by one, keeps the move log, the score and the game-over screens.

import { finishFlights, flyCard, speedOf } from "./animate.js";
import { button, confirmDialog, gameFigures, gameOverDialog, resignedDialog } from "./dialogs.js";
import { commitmentNote } from "./verify.js";
import { delay, h, replaceChildren, withNodes } from "./dom.js";
import { keyList, MoveInput } from "./input.js";
import { MoveLog } from "./log.js";
import { splitMove } from "./moves.js";
import { fitTable, keepFitted } from "./fit.js";
import { openConnection } from "../offline/client.js"; // the socket, or the offline engine
import { applyPrefs, onPrefChange, pref } from "./prefs.js";
import { playSound, preloadSounds } from "./sound.js";
import { menuButton } from "./menu.js";
import { placeNode, renderTable } from "./table.js";
import { abortedText, StrangerPanel } from "./strangers.js";
import { TurnClock } from "./turn_clock.js";
import { _, currentLanguage, formatNumber, N_, NP_, ngettext, pgettext } from "./i18n.js";
import {
  capitalise, errorText, eventSentence, explainIllegal, hintSentence, moveSentence, YOU,
} from "./words.js";

const STATUS_TEXT = {
  connecting: N_("Connecting…"),
  open: N_("Connected"),
  reconnecting: N_("Reconnecting…"),
  closed: N_("Disconnected"),
};

export class GameScreen {
  /**
   * @param {HTMLElement} mount where the screen goes
   * @param {object} ticket {room, seat, token, mode, ws_url}
   * @param {object} ctx {speed(): string, setSpeed(name), speeds: string[], toast(text, kind),
   *   leave(), onSeatRefused(error)}
   */
  constructor(mount, ticket, ctx) {
    this.mount = mount;
    this.ticket = ticket;
    this.ctx = ctx;
    this.state = null;
    /** The seats' presence as of the last message received: {connected, away, since}. */
    this.presence = null;
    this.queue = [];
    this.draining = false;
    this.skipping = false;
    this.animating = false;
    this.shownOverFor = null;
    this.pendingMove = false;
    this.ownFlight = null;
    this.ownFlightDone = Promise.resolve();
    this.build();
    applyPrefs();
    preloadSounds();
    this.visibilityHandler = () => this.updateAttention();
    document.addEventListener("visibilitychange", this.visibilityHandler);
    this.input = new MoveInput(this.tableNode, {
      onMove: (move, flight) => this.sendMove(move, flight),
      onMessage: (text) => this.say(text),
      onRefuse: (text, node) => this.refuse(text, node),
      onAct: () => this.clearChanges(),
      explain: (move) => (this.state ? explainIllegal(move, this.state.observation) : null),
      confirmDiscard: (move, what) => this.confirmDiscard(move, what),
      canAct: () => this.canAct(),
      onEscape: () => this.closeMore() || this.skip(),
      keys: { h: () => this.askHint(), u: () => this.undo(), n: () => this.nextFromKeys() },
    });
    this.connection = openConnection(ticket.ws_url, {
      token: ticket.token,
      onMessage: (msg) => this.onMessage(msg),
      onStatus: (status, detail) => this.onStatus(status, detail),
    });
    this.connection.connect();
    this.stopPrefs = onPrefChange((name) => {
      if (name === "log_notation" && this.state) this.redoLog();
      if (name === "large_cards" || name === "four_colour") this.fitKey = null;
    });
  }

  destroy() {
    this.connection.close();
    this.input.destroy();
    this.stopFitting?.();
    this.stopPrefs?.();
    document.removeEventListener("visibilitychange", this.visibilityHandler);
    this.setAttention(false);
    clearInterval(this.claimTimer);
    this.strangers?.destroy();
    this.turnClock?.destroy();
    this.hideBubble();
    this.dialog?.remove();
    finishFlights();
  }

  // Layout.

  build() {
    const live = { role: "status", "aria-live": "polite" };
    this.tableNode = h("div", { class: "table", id: "table", role: "group", "aria-label": _("The table") },
      h("p", { class: "table-loading" }, _("Connecting to the game…")));
    this.bannerNode = h("div", { class: "turn-banner", id: "turn-banner", ...live }, _("Connecting…"));
    this.messageNode = h("div", { class: "message-line", id: "message", ...live });
    this.connNode = h("span", { class: "conn-pill", id: "connection", dataset: { status: "connecting" } },
      _("Connecting…"));
    this.scoreNode = h("div", { class: "scoreboard", id: "scoreboard" });
    this.inviteNode = h("div", { class: "invite", id: "invite", hidden: true });
    this.logNode = h("ol", { class: "move-log", id: "move-log", "aria-label": _("Move log") });
    this.log = new MoveLog(this.logNode, () => this.seat, (seat) => this.who(seat));

    this.hintButton = button("hint-button", _("Hint"), () => this.askHint(),
      { title: _("Hint (H): marks the game assisted") });
    this.undoButton = button("undo-button", _("Undo"), () => this.undo(),
      { title: _("Undo (U): marks the game assisted") });
    this.skipButton = button("skip-button", _("Skip animation"), () => this.skip(),
      { title: _("Skip (Escape)"), hidden: true });
    this.nextButton = button("next-game-button", _("Next game"), () => this.newGame(),
      { primary: true, hidden: true });
    this.matchButton = button("new-match-button", _("New match"), () => this.newMatch());
    this.resignButton = button("resign-button", _("Resign the match"), () => this.resign(),
      { title: _("Give up the match: the game in progress counts as lost") });
    this.resignButton.classList.add("resign");
    this.claimButton = button("claim-button", _("Claim the game"), () => this.claim(),
      { title: _("Your friend has been offline too long: win the game"), hidden: true });
    this.declineButton = button("decline-rematch-button", _("Decline"), () => this.declineRematch(), { hidden: true });
    this.claimNote = h("p", { class: "claim-note", id: "claim-note", role: "status", hidden: true });
    this.strangers = new StrangerPanel(this); // the clock, abort and block of a rated game
    this.turnClock = new TurnClock(this); // a game over days: the time left for the move
    this.speedSelect = h("select", {
      id: "speed-select", "aria-label": _("Animation speed"),
      onchange: (e) => this.ctx.setSpeed(e.target.value),
    }, this.ctx.speeds.map((s) => h("option", { value: s, selected: s === this.ctx.speed() }, speedLabel(s))));

    this.moreButton = button("more-button", _("More"), () => this.toggleMore(),
      { title: _("The move log, the keys and the animation speed") });
    this.moreButton.classList.add("more-button");
    this.moreButton.setAttribute("aria-expanded", "false");
    this.moreNode = h("div", { class: "panel-more", id: "panel-more" },
      h("button", { class: "btn more-close", id: "more-close", type: "button", onclick: () => this.toggleMore(false) },
        _("Close")),
      h("label", { class: "speed" }, _("Animation"), " ", this.speedSelect),
      this.dealNode = h("p", { class: "deal-line" }),
      this.resignButton,
      h("details", { class: "log-box", open: true }, h("summary", {}, _("Move log")), this.logNode),
      h("details", { class: "keys-box" }, h("summary", {}, _("Keyboard")), keyList()),
      h("button", { class: "btn btn-link", type: "button", onclick: () => this.ctx.leave() },
        _("← Back to the lobby")),
    );
    const panel = h("aside", { class: "panel", "aria-label": _("Game panel") },
      h("div", { class: "panel-status" },
        h("div", { class: "panel-head" }, this.bannerNode, this.connNode),
        this.messageNode,
        this.strangers.clockNode,
        this.turnClock.node,
        this.claimNote,
        this.scoreNode),
      h("div", { class: "actions" },
        this.nextButton, this.claimButton, this.strangers.abortButton, this.strangers.blockButton, this.hintButton, this.undoButton, this.skipButton, this.matchButton,
        this.declineButton, this.moreButton, menuButton()),
      this.moreNode,
    );
    this.bubbleNode = h("div", { class: "refusal", id: "refusal", role: "alert", hidden: true });
    const tableWrap = h("div", { class: "table-wrap" }, this.tableNode, this.inviteNode, this.bubbleNode);
    replaceChildren(this.mount, h("div", { class: "game" }, tableWrap, panel));
    this.stopFitting = keepFitted(this.tableNode);
  }

  /** Close the sheet if it is open (Escape); true when it was. */
  closeMore() {
    if (!this.moreNode.classList.contains("is-open")) return false;
    this.toggleMore(false);
    this.moreButton.focus();
    return true;
  }

  /** On a phone held upright, the log, the keys and the speed open as a sheet. */
  toggleMore(open = !this.moreNode.classList.contains("is-open")) {
    this.moreNode.classList.toggle("is-open", open);
    this.moreButton.setAttribute("aria-expanded", String(open));
    if (open) this.moreNode.querySelector("#more-close")?.focus();
  }

  // Connection.

  onStatus(status, detail) {
    this.connNode.dataset.status = status;
    this.connNode.textContent = STATUS_TEXT[status] ? _(STATUS_TEXT[status]) : status;
    if (status === "closed" && detail) {
      this.ctx.onSeatRefused(detail);
      replaceChildren(this.tableNode, h("div", { class: "table-refused" },
        h("p", {}, detail.message ?? _("This seat was refused.")),
        h("a", { class: "btn btn-primary", href: "#/play" }, _("Back to the lobby"))));
    }
    if (status === "reconnecting") {
      this.dropped = true;
      this.say(_("The connection dropped; reconnecting to your seat…"));
    }
    if (status === "open" && this.dropped) {
      this.dropped = false;
      this.say(_("Reconnected to your seat."));
    }
    this.updateControls();
  }

  onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        break;
      case "state":
        this.notePresence(msg.state);
        this.enqueue({ kind: "state", msg });
        break;
      case "update":
        this.notePresence(msg.state);
        this.enqueue({ kind: "update", msg });
        break;
      case "gap":
        // An update missed (net.js asked for the whole state): my move's wait ends there.
        if (msg.seat === this.seat) this.pendingMove = false;
        break;
      case "thinking":
        // The banner keeps saying whose turn it is; only its "thinking" dots change.
        this.bannerNode.dataset.thinking = "true";
        break;
      case "presence":
        this.notePresence(msg);
        if (this.state) {
          this.state = this.withPresence(this.state);
          this.updateBanner();
          this.updatePresence();
          this.updateClaim(); // a friend gone starts the claim countdown, one back ends it
        }
        break;
      case "hint":
        this.showHint(msg);
        break;
      case "error":
        if (msg.reply_to === null || msg.reply_to === undefined) this.error(errorText(msg));
        break;
      default:
        break;
    }
  }

  // The queue: states and moves are drawn in order; the opponent's moves are animated.

  enqueue(item) {
    this.queue.push(item);
    if (!this.draining) this.drain();
  }

  async drain() {
    this.draining = true;
    while (this.queue.length) {
      const item = this.queue.shift();
      try {
        if (item.kind === "state") this.applyState(item.msg);
        else await this.applyUpdate(item.msg);
      } catch (error) {
        console.error(error);
      }
    }
    this.draining = false;
    this.skipping = false;
    this.animating = false;
    this.skipButton.hidden = true;
    this.afterDraw();
  }

  applyState(msg) {
    const fresh = msg.cause !== "sync";
    const first = !this.state;
    if (msg.cause === "new_game" || msg.cause === "new_match") {
      this.closeDialog();
      this.clearChanges();
    }
    this.draw(msg.state);
    // A shuffle at a deal: a new game, or opening a game that has just begun (the computer
    // may have played its first turn already).
    const turnsDone = (msg.log ?? []).filter((e) => e.kind === "turn_ended").length;
    const dealt = msg.cause === "new_game" || msg.cause === "new_match"
      || (msg.cause === "connect" && first && turnsDone <= 1);
    if (dealt) playSound("shuffle");
    if (fresh || !this.logNode.childElementCount) {
      this.logEvents = msg.log ?? [];
      this.redoLog();
    }
    if (msg.cause === "undo") this.say(_("Move taken back."));
    if (msg.cause === "resign" && msg.state.strangers?.aborted) {
      this.say(abortedText() + ".");
    } else if (msg.cause === "resign") {
      this.say(this.resignation()?.winner === this.seat
        ? _("{name} resigned the match. You win it.", { name: this.names().opponent })
        : _("You resigned the match. Start a new match to play again."));
    }
    if (msg.cause === "rematch") this.say(this.rematchSentence());
    if (msg.cause === "claim") {
      this.say(msg.state.resigned === msg.state.seat
        ? _("{name} claimed the game: you were offline for too long.", { name: this.names().opponent })
        : _("You claimed the game. You win the match."));
    }
    if (msg.cause === "new_game") this.say(_("A new game is dealt."));
    if (msg.cause === "new_match") this.say(_("A new match begins."));
    if (msg.cause === "joined") this.say(_("{name} joined the game.", { name: this.names().opponent }));
  }

  /** Draw the move log again (after a connect, or when the notation option changes). */
  redoLog() {
    this.log.showNotation = pref("log_notation");
    this.log.clear();
    this.log.addGame(this.logEvents ?? [], this.state?.observation.history ?? []);
  }

  async applyUpdate(msg) {
    const mine = msg.seat === this.seat;
    const speed = speedOf(this.ctx.speed());
    if (!mine && this.state) {
      this.say(moveSentence(msg.events, this.who, msg.seat));
      if (!this.changesOpen) this.changed = new Set();
      this.changesOpen = true;
      for (const place of changedPlaces(msg.events ?? [])) this.changed.add(place);
      const drawn = (msg.events ?? []).find((e) => e.kind === "cards_drawn" && e.player === this.seat);
      if (drawn) this.lastDrawn = eventSentence(drawn, this.who);
    } else if (mine) {
      this.changesOpen = false;
    }
    if (!mine && this.state && !this.skipping && speed.fly > 0) {
      await this.ownFlightDone;
      this.animating = true;
      this.skipButton.hidden = false;
      await this.animateMove(msg, speed.fly);
    }
    if (mine) this.pendingMove = false;
    this.draw(msg.state);
    this.playEvents(msg.events ?? []);
    if (mine) this.flyOwnMove(msg.move, speed.fly);
    const motion = this.skipping ? 0 : speed.fly;
    const effects = this.afterEffects(msg.events ?? [], motion);
    // The opponent's turn is told step by step: the next move waits for this one's effects.
    if (!mine) await effects;
    this.logEvents = [...(this.logEvents ?? []), ...(msg.events ?? [])];
    this.log.addMove(msg.events ?? [], msg.move, msg.seat);
    if (!mine && !this.skipping && speed.pause > 0 && this.queue.length) await delay(speed.pause);
  }

  async animateMove(msg, ms) {
    const { source, target } = splitMove(msg.move);
    const moved = (msg.events ?? []).find((e) => e.kind === "built" || e.kind === "discarded");
    const from = placeNode(this.tableNode, source, { opponent: true });
    const to = target.startsWith("C")
      ? placeNode(this.tableNode, target, { opponent: false })
      : placeNode(this.tableNode, target, { opponent: true });
    await flyCard(moved?.card ?? null, from, to, ms);
  }

  /**
   * My own move, already drawn: its card flies from where I picked it to its new place,
   * quicker than the opponent's (nothing waits for it).
   */
  flyOwnMove(move, ms) {
    const flight = this.ownFlight;
    this.ownFlight = null;
    if (!flight || flight.move.toUpperCase() !== move.toUpperCase() || ms <= 0) return;
    const { target } = splitMove(move);
    const pile = target.startsWith("C")
      ? this.tableNode.querySelector(`[data-target="${target}"] .card`)
      : this.tableNode.querySelector(`.seat-me [data-stack="${target}"] .fan-top`);
    if (!pile) return;
    pile.style.visibility = "hidden";
    this.ownFlightDone = flyCard(pile.dataset.card ?? flight.card, flight.from, pile, Math.round(ms * 0.6))
      .then(() => (pile.style.visibility = ""));
  }

  /**
   * What a move does after its card lands, drawn on the new table: the pay-off card turns
   * over, a completed stack sweeps into the stock, drawn cards fly from the stock.
   */
  async afterEffects(events, ms) {
    if (ms <= 0) return;
    const table = this.tableNode;
    const stock = table.querySelector("[data-stock]");
    const flights = [];
    for (const event of events) {
      if (event.kind === "payoff_turned") {
        const mine = event.player === this.seat;
        const card = table.querySelector(mine ? '[data-source="P"] > .card' : '[data-opp="P"] > .card');
        card?.classList.add("is-turning");
        card?.style.setProperty("--turn-ms", `${Math.round(ms * 0.9)}ms`);
      } else if (event.kind === "stack_completed") {
        const center = table.querySelector(`.center-stack[data-target="C${event.center + 1}"]`);
        flights.push(flyCard(event.cards.at(-1) ?? null, center, stock, ms));
      } else if (event.kind === "cards_drawn") {
        flights.push(this.flyDraws(event, stock, ms));
      }
    }
    await Promise.all(flights);
  }

  /** Drawn cards fly from the stock: face down to the opponent, face up into my hand. */
  async flyDraws(event, stock, ms) {
    const count = Math.min(event.count ?? 0, 5);
    if (!stock || count === 0) return;
    const step = Math.min(90, ms / 4);
    const flights = [];
    if (event.player === this.seat) {
      const used = new Set();
      for (const card of event.cards ?? []) {
        const node = [...this.tableNode.querySelectorAll(`.hand-card[data-card="${card}"]`)].find((n) => !used.has(n));
        if (!node) continue;
        used.add(node);
        node.style.visibility = "hidden";
        const delayMs = step * flights.length;
        flights.push(delay(delayMs).then(() => (this.skipping ? null : flyCard(card, stock, node, ms)))
          .then(() => (node.style.visibility = "")));
      }
    } else {
      const hand = this.tableNode.querySelector('[data-opp="H"]');
      for (let i = 0; i < count; i++) {
        flights.push(delay(step * i)
          .then(() => (this.skipping ? null : flyCard(null, stock, hand?.lastElementChild ?? hand, ms))));
      }
    }
    await Promise.all(flights);
  }

  /** Skip the opponent's animation: finish flights and draw the rest of the queue at once. */
  skip() {
    if (!this.animating && !this.draining) return false;
    this.skipping = true;
    finishFlights();
    return true;
  }

  /** Keep the presence a message carries. States and moves wait in the queue to be drawn,
   * but presence is news as soon as it arrives: a state drawn later must not bring back an
   * older presence (a friend shown offline when they are back, or the other way round). */
  notePresence(carrier) {
    if (!carrier?.connected) return;
    this.presence = {
      connected: carrier.connected,
      away: carrier.away ?? this.presence?.away ?? [null, null],
      since: performance.now(),
    };
  }

  /** ``state`` with the presence last received. */
  withPresence(state) {
    const presence = this.presence;
    return presence ? { ...state, connected: presence.connected, away: presence.away } : state;
  }

  draw(state) {
    this.state = this.withPresence(state);
    this.seat = state.seat;
    this.tableNode.classList.toggle("my-turn", this.isMyTurn());
    renderTable(this.tableNode, state, this.names());
    const fitKey = `${state.observation.center.length}|${document.body.className}`;
    if (fitKey !== this.fitKey) {
      this.fitKey = fitKey;
      fitTable(this.tableNode);
    }
    this.input.setLegal(this.isMyTurn() && !this.queueHasMore() ? state.observation.legal_moves : []);
    this.updateScore();
    this.updateBanner();
    this.updateInvite();
    this.updateControls();
    this.updatePhase();
    this.updatePresence();
    this.markChanges();
  }

  // Friend games: claiming the game when the friend is gone, and the rematch (web-protocol 4.2).

  /** Seconds the friend has been offline now (null while connected), counted on from the
   * server's last word. */
  friendAway() {
    const away = this.state?.away?.[1 - this.seat];
    if (away === null || away === undefined) return null;
    return away + (performance.now() - (this.presence?.since ?? performance.now())) / 1000;
  }

  /** The claim line and button: shown while a friend game is played and the friend is offline. */
  updateClaim() {
    const state = this.state;
    // a game over days is never claimed: its time for a move runs out instead (web-protocol 2.12)
    const claimable = state?.mode === "friend" && !state.turn_game && !this.isOver() && !this.waitingForFriend();
    const away = claimable ? this.friendAway() : null;
    const after = state?.claim_after ?? 180;
    const ready = away !== null && away >= after;
    this.claimButton.hidden = !ready;
    this.claimButton.disabled = !(this.connection?.isOpen ?? false);
    this.claimNote.hidden = away === null;
    if (away === null) {
      clearInterval(this.claimTimer);
      this.claimTimer = null;
      return;
    }
    const friend = this.names().opponent;
    this.claimNote.textContent = ready
      ? offlineForOver(friend, after) + " " + _("You may claim the game, as a win.")
      : _("{name} is offline. If they do not come back, you may claim the game in {time}.",
        { name: friend, time: clock(after - away) });
    if (!this.claimTimer) this.claimTimer = setInterval(() => this.updateClaim(), 1000);
  }

  async claim() {
    const friend = this.names().opponent;
    const ok = await confirmDialog(_("Claim the game?"),
      offlineForOver(friend, this.state?.claim_after ?? 180) + " "
        + _("The game counts as a win for you, with no points, and the match ends."),
      { yes: _("Claim the game"), no: _("Keep waiting") });
    if (ok) await this.request("claim");
  }

  /** The rematch offer of a finished friend match: "none", "mine", "theirs". */
  rematchState() {
    const offer = this.state?.rematch?.offered_by;
    if (offer === null || offer === undefined) return "none";
    return offer === this.seat ? "mine" : "theirs";
  }

  /** The end screen's buttons of a finished friend match: offer, accept, decline, withdraw. */
  rematchActions() {
    const friend = this.names().opponent;
    switch (this.rematchState()) {
      case "mine":
        return [
          { id: "dialog-withdraw", label: _("Withdraw the offer"), onclick: () => this.declineRematch() },
          { id: "dialog-rematch", label: _("Waiting for {name}…", { name: friend }), disabled: true, primary: true },
        ];
      case "theirs":
        return [
          { id: "dialog-decline", label: _("Decline"), onclick: () => this.declineRematch() },
          { id: "dialog-rematch", label: _("Accept the rematch"), primary: true, onclick: () => this.rematch() },
        ];
      default:
        return [{ id: "dialog-rematch", label: _("Offer a rematch"), primary: true, onclick: () => this.rematch() }];
    }
  }

  async rematch() {
    await this.request("rematch");
  }

  async declineRematch() {
    await this.request("decline_rematch");
  }

  /** What a "rematch" state means for me, in a sentence. */
  rematchSentence() {
    const friend = this.names().opponent;
    const rematch = this.state?.rematch ?? {};
    if (rematch.offered_by === this.seat) return _("You offered a rematch. Waiting for {name} to answer.", { name: friend });
    if (rematch.offered_by === 1 - this.seat) return _("{name} offers a rematch: accept it to play a new match.", { name: friend });
    if (rematch.declined_by === 1 - this.seat) return _("{name} declined the rematch.", { name: friend });
    if (rematch.declined_by === this.seat) return _("You declined the rematch.");
    return _("The rematch offer was withdrawn.");
  }

  /** The sounds of a move's events: the card placed, then draws, a shuffle, the end. */
  playEvents(events) {
    let at = 0;
    const later = (name) => {
      if (at === 0) playSound(name);
      else setTimeout(() => playSound(name), at);
      at += 140;
    };
    for (const event of events) {
      if (event.kind === "built" || event.kind === "discarded") later("place");
      else if (event.kind === "cards_drawn") later("draw");
      else if (event.kind === "stack_completed") later("shuffle");
      else if (event.kind === "game_won") later(event.player === this.seat ? "win" : "lose");
    }
  }

  /**
   * My turn while the tab is in the background: the tab's title and icon say so, and a
   * notification too when the player turned that on (Settings).
   */
  updateAttention() {
    const waiting = this.isMyTurn() && !this.waitingForFriend() && !this.draining;
    const away = document.visibilityState === "hidden";
    this.setAttention(waiting && away);
    if (waiting && away && !this.notified) {
      this.notified = true;
      this.notify();
    }
    if (!waiting) this.notified = false;
  }

  setAttention(on) {
    const base = _("Game {room} · Spite & Malice", { room: this.ticket.room });
    const title = on ? "● " + _("Your turn · {title}", { title: base }) : base;
    if (document.title !== title && (on || document.title.startsWith("● "))) document.title = title;
    const icon = document.querySelector('link[rel="icon"]');
    const href = on ? "/static/favicon-turn.svg" : "/static/favicon.svg";
    if (icon && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
  }

  notify() {
    if (!pref("notify") || !("Notification" in window) || Notification.permission !== "granted") return;
    try {
      const note = new Notification(_("Your turn"), {
        body: _("{name} has played. It is your turn.", { name: this.names().opponent }),
        tag: `spite-malice-${this.ticket.room}`,
        icon: "/static/favicon-turn.svg",
      });
      note.onclick = () => {
        window.focus();
        note.close();
      };
    } catch {
      // Some browsers allow notifications only from a service worker; the title still shows it.
    }
  }

  /** What the opponent changed in their turn stays marked until I act. */
  markChanges() {
    for (const place of this.changed ?? []) {
      const [kind, name] = place.split(":");
      const node = kind === "C"
        ? this.tableNode.querySelector(`.center-stack[data-target="${name}"]`)
        : this.tableNode.querySelector(`[data-opp="${name}"]`);
      node?.classList.add("is-changed");
    }
  }

  clearChanges() {
    this.changed = new Set();
    this.changesOpen = false;
    for (const node of this.tableNode.querySelectorAll(".is-changed")) node.classList.remove("is-changed");
  }

  /** A refused move: said beside the place that refused it, and in the message line. */
  refuse(text, node) {
    this.error(text);
    const bubble = this.bubbleNode;
    const wrap = bubble.parentElement;
    if (!node || !wrap) return;
    bubble.textContent = text;
    bubble.hidden = false;
    const box = wrap.getBoundingClientRect();
    const at = node.getBoundingClientRect();
    const width = Math.min(260, box.width - 16);
    const left = Math.max(8, Math.min(at.left - box.left + at.width / 2 - width / 2, box.width - width - 8));
    bubble.style.width = `${width}px`;
    bubble.style.left = `${left}px`;
    // Above the pile, so that it never covers the hand below; below it when there is no room.
    bubble.style.top = "";
    bubble.style.bottom = `${box.bottom - at.top + 6}px`;
    if (at.top - box.top < 70) {
      bubble.style.bottom = "";
      bubble.style.top = `${at.bottom - box.top + 6}px`;
    }
    clearTimeout(this.bubbleTimer);
    this.bubbleTimer = setTimeout(() => this.hideBubble(), 4000);
  }

  hideBubble() {
    clearTimeout(this.bubbleTimer);
    if (this.bubbleNode) this.bubbleNode.hidden = true;
  }

  /** With "confirm discards" on, a discard (it ends the turn) is asked about first. */
  async confirmDiscard(move, what) {
    if (!pref("confirm_discards")) return true;
    const stack = move.split("-")[1].slice(1);
    // TRANSLATORS: {card} is a card as the page describes it ("the Seven of hearts")
    return confirmDialog(_("End your turn?"), _("Discard {card} onto side stack {n}? This ends your turn.", { card: what, n: stack }),
      { yes: _("Discard"), no: _("Keep playing") });
  }

  /** Whether the opponent is connected (a friend's page can be closed or lose its network). */
  updatePresence() {
    const node = this.tableNode.querySelector("#opponent-presence");
    const connected = this.state?.connected;
    if (!node || !connected || this.waitingForFriend()) return;
    const online = connected[1 - this.seat];
    node.textContent = online ? "" : " · " + _("offline");
    node.closest(".seat-name").dataset.presence = online ? "online" : "offline";
  }

  /**
   * What the table is waiting for, as data attributes (for styles and for the end-to-end
   * tests): data-phase is "mine" (your move), "theirs", "busy" (drawing or sending), "over".
   */
  updatePhase() {
    const obs = this.state?.observation;
    let phase = "busy";
    if (!obs) phase = "busy";
    else if (this.isOver()) phase = this.draining ? "busy" : "over";
    else if (this.draining || this.pendingMove) phase = "busy";
    else if (this.waitingForFriend()) phase = "waiting";
    else phase = this.isMyTurn() ? "mine" : "theirs";
    const table = this.tableNode;
    table.dataset.phase = phase;
    table.dataset.moves = String(obs?.history.length ?? 0);
    table.dataset.game = String(this.state?.match.game_number ?? 0);
    table.dataset.legal = phase === "mine" ? obs.legal_moves.join(" ") : "";
  }

  queueHasMore() {
    return this.queue.length > 0;
  }

  afterDraw() {
    if (!this.state) return;
    this.input.setLegal(this.isMyTurn() ? this.state.observation.legal_moves : []);
    this.updateControls();
    this.updatePhase();
    const mine = this.isMyTurn() && !this.waitingForFriend();
    if (mine && !this.wasMyTurn) {
      const canBuild = this.state.observation.legal_moves.some((m) => m.includes("-C"));
      const drawn = this.lastDrawn ? `${this.lastDrawn} ` : "";
      this.lastDrawn = null;
      this.say(drawn + (canBuild
        ? _("Your turn: pick a card, then where it goes.")
        : _("Your turn: nothing can be built, so discard a hand card.")));
    }
    if (mine && !this.wasMyTurn && this.wasMyTurn !== undefined) playSound("turn");
    this.wasMyTurn = mine;
    this.updateAttention();
    const obs = this.state.observation;
    const number = this.state.match.game_number;
    const ended = obs.outcome ? "over" : this.resignation() ? "resigned" : null;
    const rematch = this.state.mode === "friend" ? JSON.stringify(this.state.rematch) : "";
    const key = `${this.ticket.room}:${number}:${this.state.match.over}:${ended}:${rematch}`;
    if (ended && this.shownOverFor !== key) {
      this.shownOverFor = key;
      this.showGameOver();
    }
  }

  // What the player sees around the table.

  names() {
    const players = this.state?.players ?? [null, null];
    const seat = this.state?.seat ?? this.ticket.seat;
    // the computer is named by its level, in the page's language (the server's config)
    const level = this.state?.mode === "computer" ? this.ctx.levelName?.(this.state.level) : null;
    const other = level ?? players[1 - seat];
    return {
      me: YOU,
      opponent: other ?? (this.state?.mode === "friend" ? _("Your friend") : _("Computer")),
      waiting: this.waitingForFriend(),
    };
  }

  who = (seat) => (seat === this.seat ? YOU : this.names().opponent);

  isMyTurn() {
    const obs = this.state?.observation;
    return Boolean(obs && !this.isOver() && obs.to_move === obs.seat);
  }

  /** {winner} when a player resigned this match (or it was claimed), from the state
   * (web-protocol 4.1 `resigned`), else null. */
  resignation() {
    const resigned = this.state?.resigned;
    if (resigned === null || resigned === undefined) return null;
    return { winner: 1 - resigned, game: this.state.match.game_number };
  }

  /** The game is over: won, drawn, or resigned. */
  isOver() {
    return Boolean(this.state?.observation.outcome || this.resignation());
  }

  waitingForFriend() {
    return this.state?.mode === "friend" && this.state.players[1 - this.seat] === null;
  }

  canAct() {
    if (!this.state) return _("The game is still loading.");
    if (this.resignation()) return _("This match was resigned. Start a new match.");
    if (this.state.observation.outcome) return _("This game is over.");
    if (this.waitingForFriend()) return _("Wait for your friend to join first.");
    if (this.draining || this.animating) return _("Wait: {name} is still playing.", { name: this.names().opponent });
    if (!this.isMyTurn()) return _("It is {name}'s turn.", { name: this.names().opponent });
    if (this.pendingMove) return _("Wait a moment: your last move is on its way.");
    return true;
  }

  /** The banner says whose turn it is; it changes only when that changes (no flicker). */
  setBanner(text, mood = "") {
    if (this.bannerNode.textContent !== text) this.bannerNode.textContent = text;
    this.bannerNode.dataset.mood = mood;
    // The dots while the computer plays: its state says so (a quick turn has no `thinking`).
    if (this.state?.thinking) this.bannerNode.dataset.thinking = "true";
    else delete this.bannerNode.dataset.thinking;
  }

  updateBanner() {
    const state = this.state;
    if (!state) return;
    const obs = state.observation;
    const names = this.names();
    const resigned = this.resignation();
    if (state.strangers?.aborted) {
      this.setBanner(abortedText(), "over");
    } else if (resigned && state.claimed) {
      if (resigned.winner === this.seat) this.setBanner(_("You claimed the game: you win the match"), "win");
      else this.setBanner(_("{name} claimed the game: you were offline", { name: names.opponent }), "loss");
    } else if (resigned) {
      if (resigned.winner === this.seat) this.setBanner(_("{name} resigned: you win the match", { name: names.opponent }), "win");
      else this.setBanner(_("You resigned the match"), "loss");
    } else if (obs.outcome) {
      const o = obs.outcome;
      if (o.winner === null) this.setBanner(_("The game is a draw"), "over");
      else if (o.winner === this.seat) {
        this.setBanner(ngettext("You won the game ({n} point)", "You won the game ({n} points)", o.points), "win");
      } else {
        this.setBanner(ngettext("{name} won the game ({n} point)", "{name} won the game ({n} points)", o.points,
          { name: names.opponent }), "loss");
      }
    } else if (this.waitingForFriend()) {
      this.setBanner(_("Waiting for your friend to join…"), "wait");
    } else if (this.isMyTurn()) {
      this.setBanner(_("Your turn"), "mine");
    } else {
      const offline = state.connected && !state.connected[1 - this.seat];
      this.setBanner(offline ? _("{name}'s turn (offline)", { name: names.opponent })
        : _("{name}'s turn", { name: names.opponent }), "theirs");
    }
  }

  updateScore() {
    const { match } = this.state;
    const seat = this.seat;
    const names = this.names();
    const target = match.target;
    const row = (name, points, cls) =>
      h("div", { class: `score-row ${cls}` },
        h("span", { class: "score-name" }, name),
        h("progress", {
          max: target, value: Math.min(points, target),
          "aria-label": ngettext("{name}: {points} of {n} point", "{name}: {points} of {n} points", target, { name, points }),
        }),
        h("span", { class: "score-points" }, formatNumber(points)));
    const obs = this.state.observation;
    const round = Math.ceil(obs.turn / 2);
    // The daily deal says so, with its date, in place of the match's game and target.
    const heading = this.state.daily
      ? [h("span", { id: "daily-label" }, _("Daily deal · {date}", { date: dayLabel(this.state.daily) })),
        h("span", { class: "muted" }, " · " + _("round {round}", { round }))]
      : [h("span", {}, _("Game {n}", { n: match.game_number })),
        h("span", { class: "muted" }, " · " + _("first to {target} · round {round}", { target, round }))];
    replaceChildren(this.scoreNode,
      h("div", { class: "score-title" },
        ...heading,
        this.state.assisted
          ? h("span", { class: "assisted", title: _("You used a hint or undo in this game") }, " · " + _("assisted"))
          : null),
      row(_("You"), match.score[seat], "score-me"),
      row(names.opponent, match.score[1 - seat], "score-opp"));
    replaceChildren(this.dealNode, commitmentNote(this.state)); // docs/verifying.md
  }

  updateInvite() {
    const show = this.state?.mode === "friend" && this.waitingForFriend();
    this.inviteNode.hidden = !show;
    // Waiting for a friend, the invitation speaks: no empty message box beside it.
    this.messageNode.hidden = show && !this.messageNode.textContent;
    if (!show) return;
    const link = `${location.origin}/#/join/${this.state.room}`;
    const field = h("input", {
      class: "invite-link", id: "invite-link", readonly: true, value: link, "aria-label": _("Invite link"),
      onfocus: (e) => e.target.select(),
    });
    replaceChildren(this.inviteNode,
      h("h2", {}, _("Invite a friend")),
      h("p", {}, _("Send this link to your friend. The game starts when they open it.")),
      h("div", { class: "invite-row" }, field,
        h("button", { class: "btn", type: "button", onclick: () => this.copyInvite(link) }, _("Copy"))),
      h("p", { class: "muted" }, withNodes(_("Room code {code}"), { code: h("b", { class: "room-code" }, this.state.room) })),
      h("p", { class: "muted", id: "claim-rule" }, claimRule(this.state.claim_after ?? 180)));
  }

  async copyInvite(link) {
    try {
      await navigator.clipboard.writeText(link);
      this.say(_("Invite link copied."));
    } catch {
      this.inviteNode.querySelector("input")?.select();
      this.say(_("Select the link and copy it (Ctrl+C)."));
    }
  }

  updateControls() {
    const state = this.state;
    const open = this.connection?.isOpen ?? false;
    const computer = state?.mode === "computer";
    this.hintButton.hidden = !computer;
    this.undoButton.hidden = !computer;
    this.hintButton.disabled = !(open && state?.can_hint && this.isMyTurn() && !this.draining);
    this.undoButton.disabled = !(open && state?.can_undo && !this.draining);
    // Why undo cannot go further (web-protocol 4.1): a card was turned up or drawn.
    this.undoButton.title = state?.undo_barrier ?? _("Undo (U): marks the game assisted");
    const over = this.isOver();
    const matchOver = Boolean(state?.match.over) || Boolean(this.resignation());
    this.nextButton.hidden = !(over && !matchOver);
    this.nextButton.disabled = !open;
    this.resignButton.hidden = !state || over || this.waitingForFriend();
    this.resignButton.disabled = !open || this.draining;
    // The daily deal is one game, one try a day: no new match at its table.
    this.matchButton.hidden = !(computer || matchOver) || Boolean(state?.daily);
    this.matchButton.disabled = !open;
    this.matchButton.classList.toggle("btn-primary", matchOver);
    // Between friends a new match takes both: offer a rematch, or answer the friend's.
    const friendOver = state?.mode === "friend" && matchOver;
    const offer = this.rematchState();
    if (state) {
      this.matchButton.textContent = !friendOver ? _("New match")
        : offer === "mine" ? _("Rematch offered") : offer === "theirs" ? _("Accept the rematch") : _("Offer a rematch");
      if (friendOver && offer === "mine") this.matchButton.disabled = true;
    }
    this.declineButton.hidden = !(friendOver && offer !== "none");
    this.declineButton.textContent = offer === "mine" ? _("Withdraw the offer") : _("Decline");
    this.declineButton.disabled = !open;
    if (this.claimButton) this.updateClaim();
    this.strangers?.update();
    this.turnClock?.update();
  }

  // Talking to the server.

  say(text) {
    this.messageNode.hidden = false;
    this.messageNode.textContent = capitalise(text);
    this.messageNode.dataset.kind = "info";
  }

  /** A refusal in the message line (never in a pop-up over the hand). */
  error(text) {
    this.messageNode.hidden = false;
    this.messageNode.textContent = capitalise(text);
    this.messageNode.dataset.kind = "error";
    this.messageNode.classList.remove("shake");
    void this.messageNode.offsetWidth;
    this.messageNode.classList.add("shake");
  }

  async request(type, fields = {}) {
    try {
      return await this.connection.send(type, fields);
    } catch (error) {
      this.error(errorText(error));
      return null;
    }
  }

  async sendMove(move, flight = {}) {
    this.ownFlight = flight.from ? { move, ...flight } : null;
    this.pendingMove = true;
    this.updatePhase();
    this.input.setHint(null);
    delete this.tableNode.dataset.hint;
    this.hideBubble();
    this.clearChanges();
    const reply = await this.request("move", { move });
    if (!reply) {
      this.pendingMove = false;
      this.input.refresh();
      this.updatePhase();
    } else {
      const sentence = moveSentence(reply.events, this.who, this.seat);
      const drawn = (reply.events ?? []).find((e) => e.kind === "cards_drawn" && e.player === this.seat);
      const ended = move.split("-")[1].toUpperCase().startsWith("S");
      this.say(sentence + (drawn ? ` ${eventSentence(drawn, this.who)}` : "") +
        (ended && !reply.state?.observation.outcome ? " " + _("Your turn is over.") : ""));
    }
  }

  async askHint() {
    if (this.state?.mode !== "computer") return;
    if (this.canAct() !== true) return this.say(this.canAct());
    await this.request("hint");
  }

  showHint(msg) {
    const move = msg.moves?.[0];
    if (!move) return this.say(_("There is no hint for now."));
    this.input.setHint(move);
    this.tableNode.dataset.hint = move;
    this.say(hintSentence(msg.moves, msg.reason, this.state.observation));
  }

  async undo() {
    if (this.state?.mode !== "computer") return;
    if (!this.state.can_undo && this.state.undo_barrier) return this.say(this.state.undo_barrier);
    await this.request("undo");
  }

  async newGame() {
    this.dialog?.close();
    await this.request("new_game");
  }

  async newMatch() {
    const state = this.state;
    if (state?.daily) return this.ctx.leave("#/daily"); // one try a day: back to its page
    if (state?.mode === "friend") return this.rematch();
    if (state?.mode === "computer" && !this.isOver() && state.observation.history.length > 0) {
      const ok = await confirmDialog(_("Start a new match?"), _("The game in progress counts as a loss with 0 points."));
      if (!ok) return;
    }
    this.dialog?.close();
    await this.request("new_match");
  }

  /** Whether I have made a move in this game (the first move spends the daily deal's try). */
  haveMoved() {
    return (this.logEvents ?? []).some((e) => (e.kind === "built" || e.kind === "discarded") && e.player === this.seat);
  }

  /**
   * The question to ask before leaving this table, or null: the daily deal, once its try is
   * spent (my first move) and while its game goes on.
   */
  leaveQuestion() {
    if (!this.state?.daily || this.isOver() || !this.haveMoved()) return null;
    return {
      title: _("Leave the daily deal?"),
      text: _("Today's try is spent: it began with your first move. This game waits for you on the daily deal page, but today's deal cannot be dealt again."),
      yes: _("Leave"),
      no: _("Keep playing"),
    };
  }

  /** Give up the match, after asking (web-protocol 4.2: the game counts as lost, for 0 points). */
  async resign() {
    if (!this.state || this.isOver()) return;
    const ok = await confirmDialog(_("Resign the match?"),
      _("The game in progress counts as lost, with no points, and the match ends. {name} wins it.", { name: this.names().opponent }),
      { yes: _("Resign"), no: _("Keep playing") });
    if (ok) await this.request("resign");
  }

  nextFromKeys() {
    if (!this.isOver()) return;
    if (this.state.match.over || this.resignation()) this.newMatch();
    else this.newGame();
  }

  // Dialogs.

  closeDialog() {
    if (!this.dialog) return;
    this.dialog.close();
    this.dialog.remove();
    this.dialog = null;
  }

  showGameOver() {
    this.closeDialog();
    const onClose = (dialog) => {
      if (this.dialog === dialog) this.dialog = null;
    };
    const friendOver = this.state.mode === "friend" && (this.state.match.over || this.resignation());
    const actions = friendOver ? this.rematchActions() : null;
    const offer = this.state.rematch;
    const note = friendOver && offer && (offer.offered_by !== null || offer.declined_by !== null)
      ? this.rematchSentence() : null;
    if (this.state.strangers?.aborted) return; // the banner says it: no result to show
    if (!this.state.observation.outcome && this.resignation()) {
      this.dialog = resignedDialog({
        state: this.state, opponent: this.names().opponent, onClose,
        next: () => this.newMatch(), actions, note,
        nextLabel: this.state.daily ? _("Back to the daily deal") : null,
      });
      return;
    }
    this.dialog = gameOverDialog({
      state: this.state,
      opponent: this.names().opponent,
      who: this.who,
      figures: gameFigures(this.logEvents, this.seat),
      actions: this.state.match.over ? actions : null,
      note,
      next: () => (this.state.daily ? this.newMatch() : this.request(this.state.match.over ? "new_match" : "new_game")),
      nextLabel: this.state.daily ? _("Back to the daily deal") : null,
      onClose: (dialog) => {
        if (this.dialog === dialog) this.dialog = null;
      },
    });
  }
}

const SPEED_LABELS = {
  off: NP_("speed", "Off"), fast: NP_("speed", "Fast"), normal: NP_("speed", "Normal"), slow: NP_("speed", "Slow"),
};

/** An animation speed's name ("Off", "Fast", ...) in the page's language. */
export function speedLabel(name) {
  return SPEED_LABELS[name] ? pgettext("speed", SPEED_LABELS[name]) : name;
}

/** The places an opponent's move changed: "C:C2" (a center stack), "O:S3" (their piles). */
function changedPlaces(events) {
  const places = [];
  for (const event of events) {
    if (event.kind === "built") {
      places.push(`C:C${event.center + 1}`);
      places.push(`O:${event.source === "H" ? "H" : event.source}`);
    } else if (event.kind === "discarded") {
      places.push(`O:S${event.side + 1}`, "O:H");
    } else if (event.kind === "payoff_turned") {
      places.push("O:P");
    }
  }
  return places;
}

/** "{name} has been offline for over 3 minutes." */
function offlineForOver(name, seconds) {
  if (seconds >= 60) {
    const n = Math.max(1, Math.round(seconds / 60));
    return ngettext("{name} has been offline for over {n} minute.", "{name} has been offline for over {n} minutes.", n, { name });
  }
  const n = Math.max(1, Math.round(seconds));
  return ngettext("{name} has been offline for over {n} second.", "{name} has been offline for over {n} seconds.", n, { name });
}

/** The claim rule of a friend game, for the invitation. */
function claimRule(seconds) {
  if (seconds >= 60) {
    const n = Math.max(1, Math.round(seconds / 60));
    return ngettext("If one of you is offline for {n} minute during a game, the other may claim it as a win.",
      "If one of you is offline for {n} minutes during a game, the other may claim it as a win.", n);
  }
  const n = Math.max(1, Math.round(seconds));
  return ngettext("If one of you is offline for {n} second during a game, the other may claim it as a win.",
    "If one of you is offline for {n} seconds during a game, the other may claim it as a win.", n);
}

/** "2:05": minutes and seconds left. */
function clock(seconds) {
  const left = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** A daily deal's date ("2026-12-06") the language's way: "6 December 2026". */
function dayLabel(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  if (!y || !m || !d) return iso;
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString(currentLanguage(),
    { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}
