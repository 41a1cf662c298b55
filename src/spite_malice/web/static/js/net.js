// The game WebSocket client (docs/web-protocol.md, section 4): sends page messages with an
// id, matches the server's replies, and reconnects with the same token when the connection
// drops (a network hiccup or a server restart), so the page keeps its seat. The token goes
// in the first message, `hello`, never in the URL (URLs end up in logs and consoles).

import { _, currentLanguage } from "./i18n.js";

const RETRY_DELAYS_MS = [250, 500, 1000, 1500, 2000, 3000];
const PING_EVERY_MS = 20000;
/** Close codes after which reconnecting is pointless: an unknown room or wrong token, too
 * many wrong codes from this address, a room whose saved game cannot be read. */
const FINAL_CLOSE_CODES = new Set([4403, 4404, 4429, 4500]);
const FINAL_ERRORS = new Set(["bad_token", "unknown_room", "too_many_requests", "damaged_room"]);

/** Open a socket for a `ws_url` path of the protocol, e.g. "/ws/K7Q2XA". A query string
 * (a seat kept by an older version had its token there) is dropped; the page's language goes
 * in `?lang=`, so that the server's texts for this connection speak it. */
function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path.split("?")[0]}?lang=${encodeURIComponent(currentLanguage())}`;
}

/** The token of a `ws_url` kept by an older version ("/ws/K7Q2XA?token=..."), or null. */
function legacyToken(path) {
  const query = path.split("?")[1];
  return query ? new URLSearchParams(query).get("token") : null;
}

/** The state a `delta` makes of `state` (web-protocol.md 4.3): the fields it holds replace
 * the state's; its `observation` holds the observation's changed fields, the move history as
 * `history_tail` (the first `at` moves kept, then `moves`). A new object: what did not
 * change is shared with `state`, which is left as it was. */
export function applyDelta(state, delta) {
  const made = { ...state, ...delta };
  if (delta.observation) {
    const { history_tail: tail, ...changed } = delta.observation;
    const observation = { ...state.observation, ...changed };
    if (tail) observation.history = state.observation.history.slice(0, tail.at).concat(tail.moves);
    made.observation = observation;
  }
  return made;
}

export class GameConnection {
  /**
   * @param {string} wsPath the `ws_url` of the room
   * @param {{token: string, onMessage: (msg) => void,
   *          onStatus: (status: string, detail?: any) => void}} handlers
   *   token is the seat's token, sent in `hello`; status is "connecting", "open",
   *   "reconnecting" or "closed" (for good: see `detail`).
   */
  constructor(wsPath, { token, onMessage, onStatus }) {
    this.wsPath = wsPath;
    this.token = token || legacyToken(wsPath);
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.nextId = 1;
    this.pending = new Map();
    this.attempt = 0;
    this.closedByPage = false;
    this.finalError = null;
    this.retryTimer = null;
    this.pingTimer = null;
    // The messages of a `batch` frame not handled yet (4.3): one is handled per task, as if
    // each had come in a frame of its own; a MessageChannel, not a timer, so that a tab in
    // the background (whose timers are slowed) keeps up.
    this.inbox = [];
    // The last whole state and its number (4.3): each `update` says what changed since the
    // state it names (`base`); one that names another (a message missed) asks for the whole
    // state again with a `sync`, and what comes before it is dropped.
    this.state = null;
    this.seq = null;
    this.resyncing = false;
    this.nextTask = new MessageChannel();
    this.nextTask.port1.onmessage = () => this.handleNext();
  }

  connect() {
    this.closedByPage = false;
    this.onStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    const socket = new WebSocket(socketUrl(this.wsPath));
    this.socket = socket;
    this.state = null; // a new connection starts with the whole state
    this.seq = null;
    this.resyncing = false;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ type: "hello", token: this.token, batch: true, delta: true }));
      this.attempt = 0;
      this.onStatus("open");
      this.pingTimer = setInterval(() => this.send("ping").catch(() => {}), PING_EVERY_MS);
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", (event) => this.closed(socket, event.code));
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    const idle = this.inbox.length === 0;
    if (msg.type === "batch" && Array.isArray(msg.messages)) this.inbox.push(...msg.messages);
    else this.inbox.push(msg);
    if (idle) this.handleNext();
  }

  /** Handle the inbox's first message now, and the next one in a task of its own. */
  handleNext() {
    const msg = this.inbox.shift();
    if (this.inbox.length) this.nextTask.port2.postMessage(null);
    if (msg) this.handle(msg);
  }

  handle(received) {
    const msg = this.withState(received);
    if (msg === null) return;
    if (msg.type === "error" && FINAL_ERRORS.has(msg.code)) {
      this.finalError = msg;
    }
    const waiting = msg.reply_to !== null && msg.reply_to !== undefined
      ? this.pending.get(msg.reply_to)
      : undefined;
    if (waiting) {
      this.pending.delete(msg.reply_to);
      if (msg.type === "error") waiting.reject(msg);
      else waiting.resolve(msg);
    }
    this.onMessage(msg);
  }

  /** The message with its whole `state`: an `update`'s delta applied to the last state
   * (`applyDelta`). Null for an update that follows no state this connection has: a `sync`
   * is sent (once) and the update dropped; the direct reply it was is answered all the same
   * (the move was made), and the page hears of a `gap`. */
  withState(msg) {
    if (msg.type === "state") {
      this.state = msg.state;
      this.seq = msg.seq ?? null;
      this.resyncing = false;
      return msg;
    }
    if (msg.type !== "update") return msg;
    let made = msg;
    if (msg.delta) {
      if (this.resyncing || this.state === null || msg.base !== this.seq) {
        if (!this.resyncing) {
          this.resyncing = true;
          this.send("sync").catch(() => { this.resyncing = false; });
        }
        const waiting = msg.reply_to !== null && msg.reply_to !== undefined
          ? this.pending.get(msg.reply_to)
          : undefined;
        if (waiting) {
          this.pending.delete(msg.reply_to);
          waiting.resolve(msg);
        }
        this.onMessage({ type: "gap", seat: msg.seat });
        return null;
      }
      const { delta, base, ...rest } = msg;
      made = { ...rest, state: applyDelta(this.state, delta) };
    }
    this.state = made.state;
    this.seq = made.seq ?? null;
    return made;
  }

  closed(socket, code) {
    if (socket !== this.socket) return;
    // what came before the close is handled before it, as it would have been frame by frame
    while (this.inbox.length) this.handle(this.inbox.shift());
    clearInterval(this.pingTimer);
    this.socket = null;
    for (const waiting of this.pending.values()) {
      waiting.reject({ code: "disconnected", message: _("The connection was lost; try again.") });
    }
    this.pending.clear();
    if (this.closedByPage) return;
    if (FINAL_CLOSE_CODES.has(code) || this.finalError) {
      this.onStatus("closed", this.finalError ?? { code: "closed", message: _("Closed by the server.") });
      return;
    }
    const wait = RETRY_DELAYS_MS[Math.min(this.attempt, RETRY_DELAYS_MS.length - 1)];
    this.attempt += 1;
    this.onStatus("reconnecting");
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /** Send a message; resolves with the server's direct reply, rejects with its `error`. */
  send(type, fields = {}) {
    if (!this.isOpen) {
      return Promise.reject({ code: "disconnected", message: _("Not connected to the server yet.") });
    }
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ type, id, ...fields }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  close() {
    this.closedByPage = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.socket) this.socket.close();
    this.socket = null;
  }
}
