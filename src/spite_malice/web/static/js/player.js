// The player this browser plays as (web-protocol 2.0): a display name and a secret, made on
// the first visit and kept in localStorage. Every request to /api carries the secret in the
// X-Player-Secret header (never in a URL); settings, statistics, rooms and seats belong to it.

import { _, currentLanguage } from "./i18n.js";
import { localSetting, playerName, playerRecord, saveLocalSetting, savePlayerRecord } from "./store.js";

const HEADER = "X-Player-Secret";
const NAME_LIMIT = 40;
let record = null;
let installed = false;

/** The player: {id, name, secret}, or null before ensurePlayer() finished. */
export function currentPlayer() {
  return record;
}

/** Send the secret and the page's language with every request to the server's /api (one place, for every caller). */
function installHeader() {
  if (installed) return;
  installed = true;
  const original = window.fetch.bind(window);
  window.fetch = (input, init = {}) => {
    const url = typeof input === "string" ? input : input.url;
    const path = url.startsWith(location.origin) ? url.slice(location.origin.length) : url;
    if (path.startsWith("/api/")) {
      // The server answers in the page's language (docs/translating.md).
      const headers = new Headers(init.headers || {});
      if (record) headers.set(HEADER, record.secret);
      headers.set("Accept-Language", currentLanguage());
      return original(input, { ...init, headers });
    }
    return original(input, init);
  };
}

function defaultName() {
  return _("Player {number}", { number: String(Math.floor(1000 + Math.random() * 9000)) });
}

async function create(name) {
  const post = (chosen) =>
    fetch("/api/players", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: chosen }),
    });
  let response = await post(name);
  // A name the server refuses (no visible character, a control character: web-protocol 2.0)
  // must not leave the browser without a player: it gets a default name, to change in Settings.
  if (response.status === 422) response = await post(defaultName());
  if (!response.ok) throw new Error(_("The server answered {status}.", { status: String(response.status) }));
  const data = await response.json();
  record = { id: data.id, name: data.name, secret: data.secret };
  savePlayerRecord(record);
}

/** The name a first visit suggests: one chosen before on this browser, else "Player 1234". */
export function suggestedName() {
  return (playerName() || defaultName()).slice(0, NAME_LIMIT);
}

/** The player of this browser: the stored one when the server knows it, else a new one
 * under a suggested name, which the page then offers to change: welcome.js, never a browser
 * dialog). Returns null when the server cannot be reached. */
export async function ensurePlayer() {
  installHeader();
  record = playerRecord();
  try {
    if (record) {
      const response = await fetch("/api/players/me");
      if (response.ok) {
        const known = await response.json();
        record = { ...record, name: known.name };
        savePlayerRecord(record);
        return record;
      }
      if (response.status !== 401) return record;
      record = null; // this server does not know it (a fresh database): make a new one
    }
    await create(suggestedName());
    saveLocalSetting("name-asked", false); // the page asks for the name (welcome.js)
  } catch {
    // Offline: the page says so; the next visit tries again.
  }
  return record;
}

/** The name changed in Settings (the server renamed the player): remember it. */
export function renamed(name) {
  if (record && name) {
    record = { ...record, name };
    savePlayerRecord(record);
  }
}

/** Whether the page still has to ask this browser's player for a name (a first visit). */
export function nameWanted() {
  return record !== null && localSetting("name-asked", true) === false;
}

/** The first visit's name question was answered (or the name was set in Settings). */
export function nameAnswered() {
  saveLocalSetting("name-asked", true);
}
