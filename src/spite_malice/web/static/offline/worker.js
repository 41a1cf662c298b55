// The offline engine (docs/offline.md): Pyodide in this Web Worker runs our Python package
// (the same engine, bots and table as the server) and answers the page's game messages with
// the server's (spite_malice.offline.bridge), so the page's table draws an offline game as it
// draws one of the server's. Every step is saved to IndexedDB before it is shown.
//
// Page -> worker: {op: "create", req, options, player} | {op: "hello", room, lang}
//                 | {op: "send", room, message} | {op: "lesson", req, key, body, lang}
//                 | {op: "give-up", req, room}
// Worker -> page: {op: "created", req, ticket | error} | {op: "messages", room, messages}
//                 | {op: "given-up", req, error?}
//                 | {op: "failed", room?, req?, message}

import { loadPyodide } from "./build/pyodide/pyodide.mjs";
import { latestRecord, saveRecord } from "./db.js";

const started = performance.now();
let bridge = null;

async function boot() {
  const base = new URL("./build/", import.meta.url);
  const [pyodide, archive] = await Promise.all([
    loadPyodide({ indexURL: new URL("pyodide/", base).href }),
    fetch(new URL("spite_malice.zip", base)).then((answer) => {
      if (!answer.ok) throw new Error(`spite_malice.zip: ${answer.status}`);
      return answer.arrayBuffer();
    }),
  ]);
  const loaded = performance.now();
  pyodide.unpackArchive(archive, "zip", { extractDir: "/offline" });
  pyodide.runPython("import sys; sys.path.insert(0, '/offline')");
  bridge = pyodide.runPython("from spite_malice.offline.bridge import Bridge\nBridge()");
  const now = performance.now();
  // how long it took (benchmarks/offline_timing.py): Pyodide's start, then our package's
  self.postMessage({
    op: "ready", ms: Math.round(now - started), pyodide_ms: Math.round(loaded - started),
    package_ms: Math.round(now - loaded),
  });
  return bridge;
}

const ready = boot();
const busy = new Set();

function post(room, messages) {
  self.postMessage({ op: "messages", room, messages });
}

async function save(room) {
  await saveRecord(JSON.parse(bridge.record(room)));
}

/** Play the computer's turn move by move, each saved, then sent (the page plays them back). */
async function computer(room) {
  if (busy.has(room)) return;
  busy.add(room);
  try {
    while (bridge.computer_to_move(room)) {
      const messages = JSON.parse(bridge.computer_move(room));
      await save(room);
      post(room, messages);
      await new Promise((resolve) => setTimeout(resolve, 0)); // the page's messages first
    }
  } finally {
    busy.delete(room);
  }
}

async function open(room) {
  if (bridge.is_open(room)) return true;
  const record = await latestRecord(room);
  if (!record) return false;
  bridge.restore(room, JSON.stringify(record));
  return true;
}

async function handle(data) {
  await ready;
  if (data.op === "think-times") { // benchmarks/offline_timing.py
    self.postMessage({ op: "think-times", req: data.req, times: JSON.parse(bridge.think_times(data.level, data.decisions)) });
    return;
  }
  if (data.op === "lesson") { // the tutorial (offline/tutorial.js)
    const answer = JSON.parse(bridge.lesson(data.key, JSON.stringify(data.body), data.lang ?? null));
    self.postMessage({ op: "lesson", req: data.req, answer });
    return;
  }
  if (data.op === "create") {
    const made = JSON.parse(bridge.create(JSON.stringify(data.options)));
    if (made.record) await saveRecord(made.record, data.player ?? null);
    self.postMessage({ op: "created", req: data.req, ticket: made.ticket, error: made.error });
    return;
  }
  const { room } = data;
  if (!(await open(room))) {
    self.postMessage({ op: "failed", room, req: data.req, code: "unknown_room" });
    return;
  }
  if (data.op === "hello") {
    post(room, JSON.parse(bridge.hello(room, data.lang ?? null)));
  } else if (data.op === "give-up") { // the lobby's give-up (offline/lobby.js)
    const answer = JSON.parse(bridge.give_up(room));
    if (answer.messages) {
      await save(room);
      post(room, answer.messages);
    }
    self.postMessage({ op: "given-up", req: data.req, error: answer.error });
    return;
  } else if (data.op === "send") {
    const messages = JSON.parse(bridge.handle(room, JSON.stringify(data.message)));
    await save(room);
    post(room, messages);
  }
  await computer(room);
}

let queue = Promise.resolve();
self.onmessage = (event) => {
  // one message at a time, in order (a page's move waits for the save of the one before)
  queue = queue.then(() => handle(event.data)).catch((error) => {
    self.postMessage({
      op: "failed", room: event.data?.room, req: event.data?.req, message: String(error?.message ?? error),
    });
  });
};
