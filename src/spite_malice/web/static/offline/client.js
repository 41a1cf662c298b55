// The page's side of offline play (docs/offline.md): starts the offline engine's worker, makes
// offline matches and connects the game screen to them with the same interface as the game
// WebSocket's client (net.js), so the table code draws a game the worker runs unchanged.

import { _, currentLanguage } from "../js/i18n.js";
import { GameConnection } from "../js/net.js";
import { playerRecord } from "../js/store.js";

export const OFFLINE_PREFIX = "offline:";
const WORKER_URL = "/static/offline/worker.js";
const MANIFEST_URL = "/static/offline/build/manifest.json";

let worker = null;
let requests = 0;
const waiting = new Map(); // req -> {resolve, reject}
const connections = new Map(); // room -> OfflineConnection
let bootMs = null;

/** The engine's boot times once it is ready (ms: all, pyodide_ms: Pyodide's start,
 * package_ms: our package's import), for benchmarks/offline_timing.py; else null. */
export function engineBootMs() {
  return bootMs;
}

function notInstalled() {
  return {
    code: "offline_not_installed",
    message: _("Offline play is not installed on this device. Connect to the internet to play."),
  };
}

function engine() {
  if (worker) return worker;
  worker = new Worker(WORKER_URL, { type: "module" });
  worker.onmessage = ({ data }) => {
    if (data.op === "ready") bootMs = { ms: data.ms, pyodide_ms: data.pyodide_ms, package_ms: data.package_ms };
    else if (data.op === "created") {
      const promise = waiting.get(data.req);
      waiting.delete(data.req);
      if (data.error) promise?.reject(data.error);
      else promise?.resolve(data.ticket);
    } else if (data.op === "given-up") {
      const promise = waiting.get(data.req);
      waiting.delete(data.req);
      if (data.error) promise?.reject(data.error);
      else promise?.resolve();
    } else if (data.op === "lesson") {
      const promise = waiting.get(data.req);
      waiting.delete(data.req);
      if (data.answer.error) promise?.reject(data.answer.error);
      else promise?.resolve(data.answer);
    } else if (data.op === "messages") {
      connections.get(data.room)?.receive(data.messages);
    } else if (data.op === "failed") {
      if (data.message) console.warn("offline engine:", data.message);
      if (data.req !== undefined) {
        waiting.get(data.req)?.reject(notInstalled());
        waiting.delete(data.req);
      }
      const connection = connections.get(data.room);
      if (connection) connection.failed(data.code === "unknown_room"
        ? { code: "unknown_room", message: _("This browser has no game with this link. The link may be mistyped, or the game was played in another browser. To play a friend, ask them for an invite link.") }
        : notInstalled());
    }
  };
  worker.onerror = (event) => {
    console.warn("offline engine:", event.message);
    event.preventDefault?.();
    for (const promise of waiting.values()) promise.reject(notInstalled());
    waiting.clear();
    for (const connection of connections.values()) connection.failed(notInstalled());
    worker = null;
  };
  return worker;
}

/** Start the engine now (the app opened with no network): it boots while the lobby shows. */
export function warmEngine() {
  engine();
}

/** Whether the offline engine is on this device (built by make setup, and reachable now:
 * from the service worker's cache when there is no network). */
export async function offlineInstalled() {
  try {
    const answer = await fetch(MANIFEST_URL);
    return answer.ok;
  } catch {
    return false;
  }
}

/** Start an offline match against the computer: resolves with a ticket like the server's
 * (web-protocol 3.2), whose ws_url is "offline:<room>"; rejects with {code, message}. */
export function startOfflineMatch({ level, rules, preset, name }) {
  const req = ++requests;
  const promise = new Promise((resolve, reject) => waiting.set(req, { resolve, reject }));
  const player = playerRecord()?.id ?? null; // whose match it is (offline/db.js)
  engine().postMessage({ op: "create", req, options: { level, rules, preset, name }, player });
  return promise;
}

/** Give up an offline match from the lobby (as POST /api/rooms/<room>/give-up: the game in
 * progress counts as lost); resolves once it is saved, rejects with {code, message}. */
export function giveUpOfflineMatch(room) {
  const req = ++requests;
  const promise = new Promise((resolve, reject) => waiting.set(req, { resolve, reject }));
  engine().postMessage({ op: "give-up", req, room });
  return promise;
}

/** A tutorial lesson's answer from the offline engine (POST /api/tutorial/lessons/<key>). */
export function offlineLesson(key, body) {
  const req = ++requests;
  const promise = new Promise((resolve, reject) => waiting.set(req, { resolve, reject }));
  engine().postMessage({ op: "lesson", req, key, body, lang: currentLanguage() });
  return promise;
}

/** Whether a ws_url is an offline room's. */
export function isOfflineRoom(wsUrl) {
  return typeof wsUrl === "string" && wsUrl.startsWith(OFFLINE_PREFIX);
}

/** The connection of a room: the worker's for an offline room, else the game WebSocket. */
export function openConnection(wsUrl, handlers) {
  return isOfflineRoom(wsUrl) ? new OfflineConnection(wsUrl, handlers) : new GameConnection(wsUrl, handlers);
}

/** GameConnection's interface (connect, send, close, isOpen), answered by the worker. */
export class OfflineConnection {
  constructor(wsUrl, { onMessage, onStatus }) {
    this.room = wsUrl.slice(OFFLINE_PREFIX.length);
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.nextId = 1;
    this.pending = new Map();
    this.open = false;
    this.closedByPage = false;
  }

  connect() {
    this.closedByPage = false;
    connections.set(this.room, this);
    this.onStatus("connecting");
    engine().postMessage({ op: "hello", room: this.room, lang: currentLanguage() });
  }

  receive(messages) {
    for (const msg of messages) {
      if (this.closedByPage) return;
      if (msg.type === "welcome" && !this.open) {
        this.open = true;
        this.onStatus("open");
      }
      const waitingFor = msg.reply_to !== null && msg.reply_to !== undefined
        ? this.pending.get(msg.reply_to) : undefined;
      if (waitingFor) {
        this.pending.delete(msg.reply_to);
        if (msg.type === "error") waitingFor.reject(msg);
        else waitingFor.resolve(msg);
      }
      this.onMessage(msg);
    }
  }

  failed(error) {
    this.open = false;
    for (const promise of this.pending.values()) promise.reject(error);
    this.pending.clear();
    if (!this.closedByPage) this.onStatus("closed", error);
  }

  get isOpen() {
    return this.open;
  }

  send(type, fields = {}) {
    if (!this.open) return Promise.reject(notInstalled());
    const id = this.nextId++;
    engine().postMessage({ op: "send", room: this.room, message: { type, id, ...fields } });
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  close() {
    this.closedByPage = true;
    this.open = false;
    if (connections.get(this.room) === this) connections.delete(this.room);
  }
}
