// The installable app's page side (docs/offline.md): registers the service worker, offers a
// reload when a new version is ready (never by itself: a game in progress goes on until the
// player agrees, then resumes), keeps the offline engine in the background once the app is
// installed or offline play is turned on, and sends the matches played offline to the server
// whenever it can be reached.

import { _, currentLanguage } from "../js/i18n.js";
import { sendOfflineGames } from "./sync.js";

const WANTED_KEY = "spite-malice.setting.offline_play";
const CHECK_EVERY_MS = 30 * 60 * 1000;
const SEND_EVERY_MS = 60 * 1000;
let registration = null;
let reloadAsked = false;
const engineListeners = new Set();
let engineState = { installed: false, built: false, known: false };

function notice(id, text, action) {
  let node = document.getElementById(id);
  if (!node) {
    node = document.createElement("div");
    node.id = id;
    node.className = "offline-notice";
    node.setAttribute("role", "status");
    document.body.append(node);
  }
  node.replaceChildren(document.createTextNode(text));
  if (action) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn btn-primary";
    button.id = `${id}-action`;
    button.textContent = action.label;
    button.addEventListener("click", action.run);
    node.append(" ", button);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.className = "btn";
  close.textContent = _("Close");
  close.addEventListener("click", () => node.remove());
  node.append(" ", close);
  return node;
}

function offerReload(waiting) {
  notice("update-ready", _("A new version of the game is ready."), {
    label: _("Reload"),
    run: () => {
      reloadAsked = true;
      waiting.postMessage({ type: "skip-waiting" });
    },
  });
}

/** Whether the player wants offline play kept on this device (Settings), or the app runs
 * installed. */
export function offlineWanted() {
  const installed = window.matchMedia?.("(display-mode: standalone)").matches;
  try {
    return installed || JSON.parse(localStorage.getItem(WANTED_KEY) ?? "false") === true;
  } catch {
    return installed;
  }
}

/** Turn offline play on or off for this device; on: the engine is fetched now. */
export function setOfflineWanted(on) {
  try {
    localStorage.setItem(WANTED_KEY, JSON.stringify(Boolean(on)));
  } catch {
    // private browsing: for this visit only
  }
  if (on) askWorker("cache-engine");
}

/** {installed, built, known}: whether the engine is kept on this device, and built on the
 * server; `listener` hears of each change (returns a function that stops it). */
export function engineStatus(listener) {
  if (listener) {
    engineListeners.add(listener);
    listener(engineState);
  }
  return () => engineListeners.delete(listener);
}

/** Read once more, through the service worker, what the app needs at start and the worker
 * keeps (the settings of this player, its statistics): the first visit read them before the
 * worker was there. */
async function warm() {
  if (!navigator.serviceWorker?.controller || !navigator.onLine) return;
  let record = null;
  try {
    record = JSON.parse(localStorage.getItem("spite-malice.player-record") ?? "null");
  } catch {
    record = null;
  }
  if (!record?.secret) return;
  const headers = { "X-Player-Secret": record.secret, "Accept-Language": currentLanguage() };
  const query = record.name ? `?player=${encodeURIComponent(record.name)}` : "";
  for (const url of ["/api/players/me", `/api/settings${query}`, "/api/config"]) {
    try {
      await fetch(url, { headers });
    } catch {
      // kept the next time the page reads it
    }
  }
}

function askWorker(type) {
  const worker = navigator.serviceWorker?.controller;
  if (worker) worker.postMessage({ type });
}

async function register() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", ({ data }) => {
    if (data?.type === "engine-status") {
      engineState = { installed: data.installed, built: data.built, known: true };
      document.documentElement.dataset.offlineEngine = data.installed ? "installed" : "missing";
      for (const listener of engineListeners) listener(engineState);
    }
  });
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloadAsked) location.reload();
    askWorker("engine-status");
    warm();
  });
  registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  if (registration.waiting && navigator.serviceWorker.controller) offerReload(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "installed" && navigator.serviceWorker.controller) {
        offerReload(installing);
      }
    });
  });
  await navigator.serviceWorker.ready;
  askWorker(offlineWanted() ? "cache-engine" : "engine-status");
  warm();
  setInterval(() => registration.update().catch(() => {}), CHECK_EVERY_MS);
}

function send() {
  if (!navigator.onLine) return Promise.resolve();
  return sendOfflineGames({
    language: currentLanguage(),
    onRefused: (reason) => notice("offline-refused",
      _("A game you played offline was not counted: {reason}", { reason })),
  });
}

/** Check for a new version now (the page's own "check for updates"; tests use it too). */
export function checkForUpdate() {
  return registration?.update();
}

if (navigator.onLine === false && offlineWanted()) {
  // opened with no network: the engine boots while the page and the lobby load (seconds)
  import("./client.js").then((client) => client.warmEngine()).catch(() => {});
}

window.addEventListener("load", () => {
  register().catch(() => {});
  send();
  setInterval(send, SEND_EVERY_MS);
});
window.addEventListener("online", () => {
  send();
  registration?.update().catch(() => {});
});

window.spiteMaliceOffline = { checkForUpdate, sendOfflineGames: send, offlineWanted, setOfflineWanted };
