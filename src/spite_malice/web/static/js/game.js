// The game screen: connects to a room's WebSocket, draws the table, plays back the
// opponent's moves one by one, keeps the move log, the score and the game-over screens.

import { finishFlights, flyCard, speedOf } from "./animate.js";
import { button, confirmDialog, gameOverDialog } from "./dialogs.js";
import { delay, h, replaceChildren } from "./dom.js";
import { keyList, MoveInput } from "./input.js";
import { MoveLog } from "./log.js";
import { splitMove } from "./moves.js";
import { GameConnection } from "./net.js";
import { placeNode, renderTable } from "./table.js";

const STATUS_TEXT = {
  connecting: "Connecting…",
  open: "Connected",
  reconnecting: "Reconnecting…",
  closed: "Disconnected",
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
    this.queue = [];
    this.draining = false;
    this.skipping = false;
    this.animating = false;
    this.shownOverFor = null;
    this.pendingMove = false;
    this.ownFlight = null;
    this.ownFlightDone = Promise.resolve();
    this.build();
    this.input = new MoveInput(this.tableNode, {
      onMove: (move, flight) => this.sendMove(move, flight),
      onMessage: (text) => this.say(text),
      canAct: () => this.canAct(),
      onEscape: () => this.skip(),
      keys: { h: () => this.askHint(), u: () => this.undo(), n: () => this.nextFromKeys() },
    });
    this.connection = new GameConnection(ticket.ws_url, {
      onMessage: (msg) => this.onMessage(msg),
      onStatus: (status, detail) => this.onStatus(status, detail),
    });
    this.connection.connect();
  }

  destroy() {
    this.connection.close();
    this.input.destroy();
    this.dialog?.remove();
    finishFlights();
  }

  // Layout.

  build() {
    const live = { role: "status", "aria-live": "polite" };
    this.tableNode = h("div", { class: "table", id: "table", role: "group", "aria-label": "The table" },
      h("p", { class: "table-loading" }, "Connecting to the game…"));
    this.bannerNode = h("div", { class: "turn-banner", id: "turn-banner", ...live }, "Connecting…");
    this.messageNode = h("div", { class: "message-line", id: "message", ...live });
    this.connNode = h("span", { class: "conn-pill", id: "connection", dataset: { status: "connecting" } },
      "Connecting…");
    this.scoreNode = h("div", { class: "scoreboard", id: "scoreboard" });
    this.inviteNode = h("div", { class: "invite", id: "invite", hidden: true });
    this.logNode = h("ol", { class: "move-log", id: "move-log", "aria-label": "Move log" });
    this.log = new MoveLog(this.logNode, () => this.seat, (seat) => this.who(seat));

    this.hintButton = button("hint-button", "Hint", () => this.askHint(),
      { title: "Hint (H): marks the game assisted" });
    this.undoButton = button("undo-button", "Undo", () => this.undo(),
      { title: "Undo (U): marks the game assisted" });
    this.skipButton = button("skip-button", "Skip animation", () => this.skip(),
      { title: "Skip (Escape)", hidden: true });
    this.nextButton = button("next-game-button", "Next game", () => this.newGame(),
      { primary: true, hidden: true });
    this.matchButton = button("new-match-button", "New match", () => this.newMatch());
    this.speedSelect = h("select", {
      id: "speed-select", "aria-label": "Animation speed",
      onchange: (e) => this.ctx.setSpeed(e.target.value),
    }, this.ctx.speeds.map((s) => h("option", { value: s, selected: s === this.ctx.speed() }, speedLabel(s))));

    const panel = h("aside", { class: "panel", "aria-label": "Game panel" },
      h("div", { class: "panel-head" }, this.bannerNode, this.connNode),
      this.messageNode,
      this.scoreNode,
      h("div", { class: "actions" },
        this.nextButton, this.hintButton, this.undoButton, this.skipButton, this.matchButton),
      h("label", { class: "speed" }, "Animation ", this.speedSelect),
      h("details", { class: "log-box", open: true }, h("summary", {}, "Move log"), this.logNode),
      h("details", { class: "keys-box" }, h("summary", {}, "Keyboard"), keyList()),
      h("button", { class: "btn btn-link", type: "button", onclick: () => this.ctx.leave() },
        "← Back to the lobby"),
    );
    const tableWrap = h("div", { class: "table-wrap" }, this.tableNode, this.inviteNode);
    replaceChildren(this.mount, h("div", { class: "game" }, tableWrap, panel));
  }

  // Connection.

  onStatus(status, detail) {
    this.connNode.dataset.status = status;
    this.connNode.textContent = STATUS_TEXT[status] ?? status;
    if (status === "closed" && detail) {
      this.ctx.onSeatRefused(detail);
      replaceChildren(this.tableNode, h("div", { class: "table-refused" },
        h("p", {}, detail.message ?? "This seat was refused."),
        h("a", { class: "btn btn-primary", href: "#/play" }, "Back to the lobby")));
    }
    if (status === "reconnecting") {
      this.dropped = true;
      this.say("The connection dropped; reconnecting to your seat…");
    }
    if (status === "open" && this.dropped) {
      this.dropped = false;
      this.say("Reconnected to your seat.");
    }
    this.updateControls();
  }

  onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        break;
      case "state":
        this.enqueue({ kind: "state", msg });
        break;
      case "update":
        this.enqueue({ kind: "update", msg });
        break;
      case "thinking":
        if (this.state) this.setBanner(`${this.names().opponent} is thinking…`);
        break;
      case "presence":
        if (this.state) {
          this.state = { ...this.state, connected: msg.connected };
          this.updateBanner();
          this.updatePresence();
        }
        break;
      case "hint":
        this.showHint(msg);
        break;
      case "error":
        if (msg.reply_to === null || msg.reply_to === undefined) this.error(msg.message);
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
    if (msg.cause === "new_game" || msg.cause === "new_match") this.closeDialog();
    this.draw(msg.state);
    if (fresh || !this.logNode.childElementCount) {
      this.log.clear();
      this.log.addGame(msg.log ?? [], msg.state.observation.history);
    }
    if (msg.cause === "undo") this.say("Move taken back.");
    if (msg.cause === "new_game") this.say("A new game is dealt.");
    if (msg.cause === "new_match") this.say("A new match begins.");
    if (msg.cause === "joined") this.say(`${this.names().opponent} joined the game.`);
  }

  async applyUpdate(msg) {
    const mine = msg.seat === this.seat;
    const speed = speedOf(this.ctx.speed());
    if (!mine && this.state && !this.skipping && speed.fly > 0) {
      await this.ownFlightDone;
      this.animating = true;
      this.skipButton.hidden = false;
      this.setBanner(`${this.names().opponent} plays ${msg.move}`);
      await this.animateMove(msg, speed.fly);
    }
    if (mine) this.pendingMove = false;
    this.draw(msg.state);
    if (mine) this.flyOwnMove(msg.move, speed.fly);
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
      : this.tableNode.querySelector(`.seat-me [data-target="${target}"] .fan-top`);
    if (!pile) return;
    pile.style.visibility = "hidden";
    this.ownFlightDone = flyCard(pile.dataset.card ?? flight.card, flight.from, pile, Math.round(ms * 0.6))
      .then(() => (pile.style.visibility = ""));
  }

  /** Skip the opponent's animation: finish flights and draw the rest of the queue at once. */
  skip() {
    if (!this.animating && !this.draining) return false;
    this.skipping = true;
    finishFlights();
    return true;
  }

  draw(state) {
    this.state = state;
    this.seat = state.seat;
    this.tableNode.classList.toggle("my-turn", this.isMyTurn());
    renderTable(this.tableNode, state, this.names());
    this.input.setLegal(this.isMyTurn() && !this.queueHasMore() ? state.observation.legal_moves : []);
    this.updateScore();
    this.updateBanner();
    this.updateInvite();
    this.updateControls();
    this.updatePhase();
    this.updatePresence();
  }

  /** Whether the opponent is connected (a friend's page can be closed or lose its network). */
  updatePresence() {
    const node = this.tableNode.querySelector("#opponent-presence");
    const connected = this.state?.connected;
    if (!node || !connected || this.waitingForFriend()) return;
    const online = connected[1 - this.seat];
    node.textContent = online ? "" : " · offline";
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
    else if (obs.outcome) phase = this.draining ? "busy" : "over";
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
      this.say(canBuild
        ? "Your turn. Pick a card, then the place it goes (or drag it there)."
        : "Your turn. No build is possible: discard a hand card onto a side stack.");
    }
    this.wasMyTurn = mine;
    const obs = this.state.observation;
    const number = this.state.match.game_number;
    if (obs.outcome && this.shownOverFor !== `${this.ticket.room}:${number}:${this.state.match.over}`) {
      this.shownOverFor = `${this.ticket.room}:${number}:${this.state.match.over}`;
      this.showGameOver();
    }
  }

  // What the player sees around the table.

  names() {
    const players = this.state?.players ?? [null, null];
    const seat = this.state?.seat ?? this.ticket.seat;
    const other = players[1 - seat];
    return {
      me: "You",
      opponent: other ?? (this.state?.mode === "friend" ? "Your friend" : "Computer"),
      waiting: this.waitingForFriend(),
    };
  }

  who = (seat) => (seat === this.seat ? "You" : this.names().opponent);

  isMyTurn() {
    const obs = this.state?.observation;
    return Boolean(obs && !obs.outcome && obs.to_move === obs.seat);
  }

  waitingForFriend() {
    return this.state?.mode === "friend" && this.state.players[1 - this.seat] === null;
  }

  canAct() {
    if (!this.state) return "The game is still loading.";
    if (this.state.observation.outcome) return "This game is over.";
    if (this.waitingForFriend()) return "Wait for your friend to join first.";
    if (this.draining || this.animating) return `Wait: ${this.names().opponent} is still playing.`;
    if (!this.isMyTurn()) return `It is ${this.names().opponent}'s turn.`;
    if (this.pendingMove) return "Wait a moment: your last move is on its way.";
    return true;
  }

  setBanner(text, mood = "") {
    this.bannerNode.textContent = text;
    this.bannerNode.dataset.mood = mood;
  }

  updateBanner() {
    const state = this.state;
    if (!state) return;
    const obs = state.observation;
    const names = this.names();
    if (obs.outcome) {
      const o = obs.outcome;
      if (o.winner === null) this.setBanner("Game over: a draw", "over");
      else if (o.winner === this.seat) this.setBanner(`You won the game: +${o.points}`, "win");
      else this.setBanner(`${names.opponent} won the game: +${o.points}`, "loss");
    } else if (this.waitingForFriend()) {
      this.setBanner("Waiting for your friend to join…", "wait");
    } else if (this.isMyTurn()) {
      this.setBanner("Your turn: build, then discard", "mine");
    } else if (state.thinking) {
      this.setBanner(`${names.opponent} is thinking…`, "theirs");
    } else {
      const offline = state.connected && !state.connected[1 - this.seat];
      this.setBanner(offline ? `${names.opponent}'s turn (offline)` : `${names.opponent}'s turn`, "theirs");
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
          max: target, value: Math.min(points, target), "aria-label": `${name}: ${points} of ${target} points`,
        }),
        h("span", { class: "score-points" }, `${points}`));
    const obs = this.state.observation;
    replaceChildren(this.scoreNode,
      h("div", { class: "score-title" },
        h("span", {}, `Game ${match.game_number}`),
        h("span", { class: "muted" }, ` · first to ${target} · turn ${obs.turn}`),
        this.state.assisted
          ? h("span", { class: "assisted", title: "You used a hint or undo in this game" }, " · assisted")
          : null),
      row("You", match.score[seat], "score-me"),
      row(names.opponent, match.score[1 - seat], "score-opp"));
  }

  updateInvite() {
    const show = this.state?.mode === "friend" && this.waitingForFriend();
    this.inviteNode.hidden = !show;
    if (!show) return;
    const link = `${location.origin}/#/join/${this.state.room}`;
    const field = h("input", {
      class: "invite-link", id: "invite-link", readonly: true, value: link, "aria-label": "Invite link",
      onfocus: (e) => e.target.select(),
    });
    replaceChildren(this.inviteNode,
      h("h2", {}, "Invite a friend"),
      h("p", {}, "Send this link to your friend. The game starts when they open it."),
      h("div", { class: "invite-row" }, field,
        h("button", { class: "btn", type: "button", onclick: () => this.copyInvite(link) }, "Copy")),
      h("p", { class: "muted" }, "Room code ", h("b", { class: "room-code" }, this.state.room)));
  }

  async copyInvite(link) {
    try {
      await navigator.clipboard.writeText(link);
      this.say("Invite link copied.");
    } catch {
      this.inviteNode.querySelector("input")?.select();
      this.say("Select the link and copy it (Ctrl+C).");
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
    const over = Boolean(state?.observation.outcome);
    const matchOver = Boolean(state?.match.over);
    this.nextButton.hidden = !(over && !matchOver);
    this.nextButton.disabled = !open;
    this.matchButton.hidden = !(computer || matchOver);
    this.matchButton.disabled = !open;
    this.matchButton.classList.toggle("btn-primary", matchOver);
  }

  // Talking to the server.

  say(text) {
    this.messageNode.textContent = text;
    this.messageNode.dataset.kind = "info";
  }

  error(text) {
    this.ctx.toast(text);
    this.messageNode.textContent = text;
    this.messageNode.dataset.kind = "error";
    this.messageNode.classList.remove("shake");
    void this.messageNode.offsetWidth;
    this.messageNode.classList.add("shake");
  }

  async request(type, fields = {}) {
    try {
      return await this.connection.send(type, fields);
    } catch (error) {
      this.error(error.message ?? String(error));
      return null;
    }
  }

  async sendMove(move, flight = {}) {
    this.ownFlight = flight.from ? { move, ...flight } : null;
    this.pendingMove = true;
    this.updatePhase();
    this.input.setHint(null);
    const reply = await this.request("move", { move });
    if (!reply) {
      this.pendingMove = false;
      this.input.refresh();
      this.updatePhase();
    } else {
      this.say(`You played ${move}.`);
    }
  }

  async askHint() {
    if (this.state?.mode !== "computer") return;
    if (this.canAct() !== true) return this.say(this.canAct());
    await this.request("hint");
  }

  showHint(msg) {
    const move = msg.moves?.[0];
    if (!move) return this.say(msg.reason || "No hint now.");
    this.input.setHint(move);
    const rest = msg.moves.length > 1 ? ` (then ${msg.moves.slice(1).join(", ")})` : "";
    this.say(`Hint: ${move}${rest}. ${msg.reason ?? ""}`.trim());
  }

  async undo() {
    if (this.state?.mode !== "computer") return;
    await this.request("undo");
  }

  async newGame() {
    this.dialog?.close();
    await this.request("new_game");
  }

  async newMatch() {
    const state = this.state;
    if (state?.mode === "computer" && !state.observation.outcome && state.observation.history.length > 0) {
      const ok = await confirmDialog("Start a new match?", "The game in progress counts as a loss with 0 points.");
      if (!ok) return;
    }
    this.dialog?.close();
    await this.request("new_match");
  }

  nextFromKeys() {
    if (!this.state?.observation.outcome) return;
    if (this.state.match.over) this.newMatch();
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
    this.dialog = gameOverDialog({
      state: this.state,
      opponent: this.names().opponent,
      who: this.who,
      next: () => this.request(this.state.match.over ? "new_match" : "new_game"),
      onClose: (dialog) => {
        if (this.dialog === dialog) this.dialog = null;
      },
    });
  }
}

function speedLabel(name) {
  return { off: "Off", fast: "Fast", normal: "Normal", slow: "Slow" }[name] ?? name;
}
