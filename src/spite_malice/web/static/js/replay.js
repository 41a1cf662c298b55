// Replays (issue 14 item 2): the list of your finished games (#/replays), a record file
// opened from disk, and the replay screen (#/replay/<game> or #/replay/FILE). The page holds
// no rules: the server sends the table after every move (docs/web-protocol.md 2.6); this
// screen only draws a frame, steps through them, plays them at a chosen speed, and flips
// the table to either seat. Every card is face up: the game is over.

import { cardFace, cardName } from "./cards.js";
import { AnalysisView } from "./analysis.js";
import { ApiError } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { keepFitted } from "./fit.js";
import { _, currentLanguage, ngettext, NP_, pgettext } from "./i18n.js";
import { menuButton } from "./menu.js";
import { placeNode, renderTable } from "./table.js";
import { eventSentence, YOU } from "./words.js";

const FILE_KEY = "spite-malice.replay-file";
const ANALYSE_KEY = "spite-malice.analyse-on-open";
const MAX_FILE_BYTES = 64 * 1024;
const SPEEDS = [["slow", NP_("speed", "Slow"), 2000], ["normal", NP_("speed", "Normal"), 1000], ["fast", NP_("speed", "Fast"), 400]];

async function send(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body,
    });
  } catch {
    throw new ApiError("offline", _("The server cannot be reached. Is it running?"), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.status === 413) {
    throw new ApiError("too_large", _("This file is too large to be a game record."), 413);
  }
  if (!response.ok) {
    throw new ApiError(data?.error?.code ?? "http", data?.error?.message ?? _("The server answered {status}.", { status: String(response.status) }),
      response.status);
  }
  return data;
}

export const replayApi = {
  games: () => send("GET", "/api/games"),
  replay: (id) => send("GET", `/api/games/${encodeURIComponent(id)}/replay`),
  open: (text) => send("POST", "/api/replays", text),
};

/** Save `text` as a file the browser downloads. */
function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Download a stored game's record as the server wrote it (never through JSON.parse: a
 * seed is a 63-bit number, which JavaScript's numbers would round). */
export async function downloadRecord(id) {
  let response;
  try {
    response = await fetch(`/api/games/${encodeURIComponent(id)}/record`);
  } catch {
    throw new ApiError("offline", _("The server cannot be reached. Is it running?"), 0);
  }
  if (!response.ok) throw new ApiError("unknown_game", _("This game's record cannot be found."), response.status);
  download(`spite-malice-game-${id}.json`, await response.text());
}

function gameLine(game) {
  const when = new Date(game.finished);
  const points = game.points_for || game.points_against;
  const fields = { name: game.players[1 - game.seat] };
  let line;
  if (game.outcome === "win") line = ngettext("Won against {name}, {n} point", "Won against {name}, {n} points", points, fields);
  else if (game.outcome === "loss") line = ngettext("Lost against {name}, {n} point", "Lost against {name}, {n} points", points, fields);
  else if (game.outcome === "draw") line = _("Drawn against {name}", fields);
  else line = _("Played against {name}", fields);
  const language = currentLanguage();
  return `${line} · ${when.toLocaleDateString(language)} ` +
    when.toLocaleTimeString(language, { hour: "2-digit", minute: "2-digit" });
}

/** The replays page: open a record file, or pick one of your finished games. */
export async function renderReplays(mount) {
  const error = h("p", { class: "message-line", id: "replay-file-error", dataset: { kind: "error" }, hidden: true });
  const input = h("input", {
    type: "file", id: "replay-file", accept: ".json,application/json",
    "aria-label": _("A game record file to replay"),
    onchange: () => openFile(input, error),
  });
  const list = h("div", { id: "replay-list" }, h("p", { class: "muted" }, _("Loading…")));
  replaceChildren(mount, h("div", { class: "page replays" },
    h("h1", {}, _("Replays")),
    h("section", { class: "card-box" },
      h("h2", {}, _("Open a record")),
      h("p", {}, _("A game record is the file you download from a replay. Open one to watch it move by move.")),
      input, error),
    h("section", { class: "card-box" }, h("h2", {}, _("Your finished games")), list)));
  try {
    const { games } = await replayApi.games();
    if (!games.length) {
      replaceChildren(list, h("p", { class: "muted" }, _("No finished games yet. Play one, then watch it here.")));
      return;
    }
    replaceChildren(list, h("ul", { class: "resume-list" }, games.map((game) => h("li", { class: "replay-entry" },
      h("a", { class: "resume-link", href: `#/replay/${game.id}`, dataset: { game: String(game.id) } }, gameLine(game)),
      h("a", { class: "btn btn-link analyse-link", href: `#/replay/${game.id}`, dataset: { analyse: String(game.id) },
        onclick: () => sessionStorage.setItem(ANALYSE_KEY, String(game.id)) }, _("Where did I lose?"))))));
  } catch (failure) {
    replaceChildren(list, h("p", { class: "message-line", dataset: { kind: "error" } }, failure.message));
  }
}

async function openFile(input, error) {
  const file = input.files?.[0];
  if (!file) return;
  error.hidden = true;
  if (file.size > MAX_FILE_BYTES) {
    error.textContent = _("This file is too large to be a game record.");
    error.hidden = false;
    return;
  }
  const text = await file.text();
  try {
    await replayApi.open(text); // checked by the server before the screen opens
  } catch (failure) {
    error.textContent = failure.message;
    error.hidden = false;
    return;
  }
  sessionStorage.setItem(FILE_KEY, text);
  location.hash = "#/replay/FILE";
}

/** Open the replay of `arg`: a game number, or FILE (the record opened last). */
export async function openReplay(mount, arg) {
  replaceChildren(mount, h("div", { class: "page card-box" }, h("p", {}, _("Loading the replay…"))));
  let data;
  let text = null;
  try {
    if (arg === "FILE") {
      text = sessionStorage.getItem(FILE_KEY);
      if (!text) throw new ApiError("no_file", _("No record is open: choose a record file on the Replays page."), 0);
      data = await replayApi.open(text);
    } else {
      data = await replayApi.replay(arg);
    }
  } catch (failure) {
    replaceChildren(mount, h("div", { class: "page card-box", id: "replay-error" },
      h("h1", {}, _("Cannot replay")), h("p", {}, failure.message),
      h("p", {}, h("a", { class: "btn", href: "#/replays" }, _("Back to the replays")))));
    return null;
  }
  return new ReplayScreen(mount, data, { game: arg === "FILE" ? null : arg, text });
}

export class ReplayScreen {
  constructor(mount, data, { game, text }) {
    this.mount = mount;
    this.data = data;
    this.frames = data.frames;
    this.game = game;
    this.text = text;
    this.index = 0;
    this.view = data.seat ?? 0;
    this.timer = null;
    this.speed = "normal";
    this.build();
    this.show(0);
    this.keyHandler = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keyHandler);
  }

  destroy() {
    this.pause();
    this.analysis?.destroy();
    this.stopFitting?.();
    document.removeEventListener("keydown", this.keyHandler);
  }

  who(seat) {
    return this.data.seat !== null && seat === this.data.seat ? YOU : this.data.players[seat];
  }

  build() {
    const players = this.data.players;
    this.tableNode = h("div", { class: "table replay-table", id: "table", role: "group", "aria-label": _("The table") });
    this.statusNode = h("div", { class: "turn-banner", id: "replay-status", role: "status", "aria-live": "polite" });
    this.messageNode = h("div", { class: "message-line", id: "replay-move" });
    this.slider = h("input", {
      type: "range", id: "replay-slider", min: "0", max: String(this.frames.length - 1), value: "0",
      "aria-label": _("Move"), oninput: () => this.show(Number(this.slider.value)),
    });
    this.turnInput = h("input", { type: "number", id: "replay-turn", min: "1", max: String(this.lastTurn(this.view)),
      value: "1", "aria-label": _("Turn to jump to, of the seat you watch") });
    this.playButton = this.stepButton("replay-play", "▶", pgettext("replay", "Play"),
      () => (this.timer ? this.pause() : this.play()));
    const seatSelect = this.seatSelect = h("select", { id: "replay-seat", "aria-label": _("Watch from the seat of"),
      onchange: (e) => {
        this.view = Number(e.target.value);
        this.turnInput.max = String(this.lastTurn(this.view));
        this.show(this.index);
      } },
    [0, 1].map((s) => h("option", { value: String(s), selected: s === this.view }, players[s])));
    const speedSelect = h("select", { id: "replay-speed", "aria-label": _("Replay speed"),
      onchange: (e) => { this.speed = e.target.value; if (this.timer) { this.pause(); this.play(); } } },
    SPEEDS.map(([id, label]) => h("option", { value: id, selected: id === this.speed }, pgettext("speed", label))));
    // "Where did I lose?": only for a stored game of yours (the server analyses your seat)
    this.analysisBox = this.game && this.data.seat !== null ? h("div", { id: "analysis-box" }) : null;
    // On a phone (upright, or held sideways) the rest opens as a sheet, as on the game screen,
    // so that the panel fits the window: the frame's words, the steps, the slider, "More".
    this.moreButton = this.button("more-button", _("More"), () => this.toggleMore());
    this.moreButton.classList.add("more-button");
    this.moreButton.setAttribute("aria-expanded", "false");
    this.moreNode = h("div", { class: "panel-more", id: "panel-more" },
      h("button", { class: "btn more-close", id: "more-close", type: "button", onclick: () => this.toggleMore(false) },
        _("Close")),
      h("form", { class: "join-form", onsubmit: (e) => { e.preventDefault(); this.jumpToTurn(Number(this.turnInput.value)); } },
        h("label", { for: "replay-turn" }, _("Turn")), this.turnInput,
        h("button", { class: "btn", type: "submit", id: "replay-jump" }, _("Go"))),
      h("label", { class: "speed" }, _("Watch from"), " ", seatSelect),
      h("label", { class: "speed" }, _("Speed"), " ", speedSelect),
      h("div", { class: "actions" },
        this.button("replay-download", _("Download the record"), () => this.download()),
        h("a", { class: "btn btn-link", href: "#/replays" }, _("← All replays")), menuButton()),
      this.analysisBox,
      h("p", { class: "muted" }, _("Keys: ← and → step, Space plays or pauses, Home and End.")));
    const panel = h("aside", { class: "panel replay-panel", "aria-label": _("Replay controls") },
      h("div", { class: "panel-status" },
        h("h1", { class: "replay-title" }, _("{first} against {second}", { first: players[0], second: players[1] })),
        this.statusNode, this.messageNode),
      h("div", { class: "actions replay-steps" },
        this.stepButton("replay-start", "«", pgettext("replay", "Start"), () => this.show(0)),
        this.stepButton("replay-back", "‹", _("Back"), () => this.step(-1)),
        this.playButton,
        this.stepButton("replay-forward", "›", _("Forward"), () => this.step(1), true),
        this.stepButton("replay-end", "»", _("End"), () => this.show(this.frames.length - 1), true),
        this.moreButton),
      this.slider,
      this.moreNode);
    const wrap = h("div", { class: "table-wrap" }, this.tableNode);
    replaceChildren(this.mount, h("div", { class: "game replay" }, wrap, panel));
    this.stopFitting = keepFitted(this.tableNode);
    if (this.analysisBox) {
      this.analysis = new AnalysisView(this.analysisBox, {
        game: this.game,
        show: (decision) => { this.toggleMore(false); this.showDecision(decision); },
        jump: (movesBefore) => { this.toggleMore(false); this.pause(); this.show(movesBefore); },
      });
      if (sessionStorage.getItem(ANALYSE_KEY) === String(this.game)) {
        sessionStorage.removeItem(ANALYSE_KEY);
        this.analysis.start();
      }
    }
  }

  /** The table as the player saw it at an analysed decision, the better turn marked. */
  showDecision(decision) {
    this.pause();
    const obs = { ...decision.position, legal_moves: [], outcome: null };
    this.view = obs.seat;
    this.seatSelect.value = String(obs.seat);
    renderTable(this.tableNode, { observation: obs },
      { me: YOU, opponent: this.data.players[1 - obs.seat], waiting: true });
    watchOnly(this.tableNode);
    for (const move of decision.better) {
      const [source, target] = move.split("-");
      for (const place of [source, target]) {
        placeNode(this.tableNode, place, { opponent: false })?.classList.add("is-hint");
      }
    }
    this.tableNode.dataset.frame = "analysis";
    this.statusNode.textContent = _("Your turn {n}, as you saw it", { n: decision.player_turn });
    // TRANSLATORS: {better} and {reason} come from the server's analysis, in the player's language
    this.messageNode.textContent = _("Better: {better}. Why: {reason}", { better: decision.better_words, reason: decision.reason });
  }

  button(id, label, onclick) {
    return h("button", { class: "btn", id, type: "button", onclick }, label);
  }

  /** A step button: its sign and its word (only the sign on a phone; the word stays its
   * name), the sign after the word for the steps forward. */
  stepButton(id, sign, label, onclick, after = false) {
    const parts = [h("span", { class: "step-sign", "aria-hidden": "true" }, sign),
      h("span", { class: "step-word" }, label)];
    return h("button", { class: "btn step-button", id, type: "button", onclick, "aria-label": label, title: label },
      ...(after ? parts.reverse() : parts));
  }

  /** The Play button as playing (Pause) or not (Play). */
  setPlaying(playing) {
    if (!this.playButton) return;
    const label = playing ? _("Pause") : pgettext("replay", "Play");
    this.playButton.querySelector(".step-sign").textContent = playing ? "‖" : "▶";
    this.playButton.querySelector(".step-word").textContent = label;
    this.playButton.setAttribute("aria-label", label);
    this.playButton.title = label;
  }

  /** On a phone, the sheet with the rest of the controls (Escape closes it). */
  toggleMore(open = !this.moreNode.classList.contains("is-open")) {
    this.moreNode.classList.toggle("is-open", open);
    this.moreButton.setAttribute("aria-expanded", String(open));
    if (open) this.moreNode.querySelector("#more-close")?.focus();
  }

  /** The seat's own count of turns (as the end of a game and the analysis count them) in
   * the last frame it moved in. */
  lastTurn(seat) {
    const own = this.frames.filter((f) => f.seat === seat).map((f) => f.player_turn);
    return own.length ? Math.max(...own) : 1;
  }

  async download() {
    try {
      if (this.game) await downloadRecord(this.game);
      else download("spite-malice-game.json", this.text);
    } catch (failure) {
      this.messageNode.textContent = failure.message;
    }
  }

  step(delta) {
    this.show(Math.max(0, Math.min(this.frames.length - 1, this.index + delta)));
  }

  /** Show the table at the start of the watched seat's own turn `turn` (1, 2, 3...). */
  jumpToTurn(turn) {
    const found = this.frames.findIndex((f) => f.seat === this.view && f.player_turn >= turn);
    this.toggleMore(false);
    this.show(found < 0 ? this.frames.length - 1 : Math.max(0, found - 1));
  }

  play() {
    if (this.index >= this.frames.length - 1) this.show(0);
    const ms = SPEEDS.find(([id]) => id === this.speed)?.[2] ?? 1000;
    this.setPlaying(true);
    this.timer = setInterval(() => {
      if (this.index >= this.frames.length - 1) this.pause();
      else this.step(1);
    }, ms);
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    this.setPlaying(false);
  }

  onKey(event) {
    if (event.key === "Escape" && this.moreNode.classList.contains("is-open")) {
      this.toggleMore(false);
      this.moreButton.focus();
      return;
    }
    if (event.target.closest?.("input, select, textarea")) return;
    const actions = {
      ArrowRight: () => this.step(1), ArrowLeft: () => this.step(-1), Home: () => this.show(0),
      End: () => this.show(this.frames.length - 1), " ": () => (this.timer ? this.pause() : this.play()),
    };
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  /** The frame's table as one seat's observation, with the other seat's hand face up. */
  observation(frame) {
    const table = frame.table;
    return {
      seat: this.view,
      to_move: table.to_move,
      turn: table.turn,
      hand: table.players[this.view].hand,
      players: table.players.map((p) => ({
        payoff_top: p.payoff.at(-1) ?? null,
        payoff_count: p.payoff.length,
        hand_count: p.hand.length,
        side: p.side,
      })),
      center: table.center,
      center_takes: table.center_takes,
      center_left: table.center_left,
      stock_count: table.stock_count,
      legal_moves: [],
      outcome: table.outcome,
    };
  }

  show(index) {
    this.index = index;
    const frame = this.frames[index];
    const table = frame.table;
    const view = this.view;
    const other = 1 - view;
    renderTable(this.tableNode, { observation: this.observation(frame) },
      { me: this.who(view), opponent: this.data.players[other], waiting: true });
    // every card face up: the other seat's hand is shown, not its backs
    const hand = this.tableNode.querySelector(".opp-hand");
    if (hand) {
      const cards = table.players[other].hand;
      hand.replaceChildren(...cards.map((card) => {
        const svg = cardFace(card);
        svg.setAttribute("aria-hidden", "true");
        return h("div", { class: "card mini", dataset: { card } }, svg);
      }));
      if (!cards.length) hand.append(h("span", { class: "muted" }, _("no cards")));
      hand.setAttribute("aria-label", _("{name}'s hand: {cards}",
        { name: this.data.players[other], cards: cards.map(cardName).join(", ") || _("no cards") }));
    }
    const mine = this.tableNode.querySelector(".seat-me .seat-name");
    if (mine) mine.textContent = this.data.seat === view ? _("You") : this.data.players[view];
    watchOnly(this.tableNode);
    if (frame.move) {
      const [source, target] = frame.move.split("-");
      const opponent = frame.seat !== view;
      for (const place of [source.startsWith("H") ? null : source, target]) {
        if (place) placeNode(this.tableNode, place, { opponent })?.classList.add("is-changed");
      }
    }
    this.tableNode.dataset.frame = String(index);
    this.tableNode.dataset.frames = String(this.frames.length);
    this.slider.value = String(index);
    const last = this.frames.length - 1;
    this.statusNode.textContent = this.status(frame, last);
    if (frame.seat === this.view) this.turnInput.value = String(frame.player_turn);
    this.messageNode.textContent = this.sentence(frame);
  }

  /** Where the replay stands: the move, and whose own turn it was in (each player counts
   * their own turns, as the end of a game and the analysis do: "your turn 12"). */
  status(frame, last) {
    const index = frame.index;
    if (frame.seat === null) return _("Move {index} of {last} · the deal", { index, last });
    const who = this.who(frame.seat);
    if (who === YOU) return _("Move {index} of {last} · your turn {turn}", { index, last, turn: frame.player_turn });
    return _("Move {index} of {last} · turn {turn} of {name}", { index, last, turn: frame.player_turn, name: who });
  }

  sentence(frame) {
    const who = (seat) => this.who(seat);
    const said = (frame.events ?? []).map((event) => eventSentence(event, who)).filter(Boolean);
    if (frame.index === 0) {
      const first = this.who(frame.table.to_move);
      if (first === YOU) return _("The game as dealt. You start.");
      return _("The game as dealt. {name} starts.", { name: first });
    }
    const outcome = frame.table.outcome;
    if (outcome?.reason === "resigned" && frame.index === this.frames.length - 1) {
      const quitter = this.who(1 - outcome.winner);
      said.push(quitter === YOU ? _("You resign the match: the game ends here.")
        : _("{name} resigns the match: the game ends here.", { name: quitter }));
    }
    return said.join(" ") || _("A move.");
  }
}

/** A replay's table is watched, not played: its piles are pictures, not buttons. */
function watchOnly(table) {
  for (const node of table.querySelectorAll("[tabindex]")) node.removeAttribute("tabindex");
  for (const node of table.querySelectorAll('[role="button"]')) {
    node.setAttribute("role", "img");
    node.removeAttribute("aria-pressed");
  }
}
