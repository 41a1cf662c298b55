// The page's entry point: loads the server's configuration and the player's settings, and
// routes the URL hash to a screen (#/play, #/game/<room>, #/join/<room>, #/rules, #/stats,
// #/settings, #/daily, #/replays, #/replay/<game>, #/tutorial, #/tutorial/<lesson>).

import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import {
  _, browserLanguage, currentLanguage, normaliseLanguage, onLanguageChange, setLanguage,
} from "./i18n.js";
import { renderDaily } from "./daily.js";
import { confirmDialog } from "./dialogs.js";
import { GameScreen } from "./game.js";
import { renderLobby } from "./pages/lobby.js";
import { renderRules } from "./pages/rules.js";
import { renderSettings } from "./pages/settings.js";
import { renderStats } from "./pages/stats.js";
import { ensurePlayer } from "./player.js";
import { offerTutorial, renderTutorial } from "./tutorial.js";
import { openReplay, renderReplays } from "./replay.js";
import { askName } from "./welcome.js";
import { installMenu, openMenu } from "./menu.js";
import {
  forgetRoom, localSetting, playerName, playerRecord, roomTicket, saveLocalSetting,
  saveRoomTicket,
} from "./store.js";

const DEFAULT_SPEEDS = ["off", "fast", "normal", "slow"];
/** A choice of language the server has not been told of yet ("": the browser's). */
const UNSAVED_LANGUAGE = "language_unsaved";

const app = {
  config: null,
  languages: null,
  settings: null,
  screen: null,
  /** The player's display name (its secret goes with every request, see player.js). */
  player() {
    return playerRecord()?.name ?? playerName() ?? _("Player");
  },
  defaultPlayer() {
    return app.player();
  },
  speed() {
    return app.settings?.animation_speed ?? localSetting("animation_speed", "normal");
  },
  /** The language the player chose in Settings, or null for the browser's: this device's
   * latest choice while the server has not been told of it (chosen with no network), and
   * while there is no network (the settings read then are the service worker's kept copy,
   * which may be older); else the server's copy (another device may have chosen since). */
  chosenLanguage() {
    const unsaved = localSetting(UNSAVED_LANGUAGE, null);
    if (unsaved !== null) return normaliseLanguage(unsaved);
    const online = navigator.onLine !== false;
    if (online && app.settings && "language" in app.settings) return normaliseLanguage(app.settings.language);
    return normaliseLanguage(localSetting("language", null));
  },
  /** Tell the server of this device's choice of language (`chosen`, null: the browser's),
   * kept as not yet saved by the caller; once the server has it, it is saved. Until then the
   * choice wins (chosenLanguage). */
  async saveLanguage(chosen) {
    try {
      app.settings = await api.saveSettings({ player: app.player(), language: chosen ?? "" });
      saveLocalSetting(UNSAVED_LANGUAGE, null);
    } catch {
      if (app.settings) app.settings.language = chosen;
    }
  },
  /** Speak `code` (null: the browser's), keep the choice with the player, and redraw the
   * page in it; the server's texts follow (every fetch and socket says the language). */
  async setLanguage(code) {
    const chosen = normaliseLanguage(code);
    saveLocalSetting("language", chosen);
    saveLocalSetting(UNSAVED_LANGUAGE, chosen ?? ""); // the latest choice, until the server has it
    await setLanguage(chosen ?? browserLanguage());
    translateChrome();
    try {
      app.config = await api.config(); // the levels' names and the rules' labels, in it
    } catch {
      // The old ones stay until the next load.
    }
    await app.saveLanguage(chosen);
  },
  async setSpeed(name) {
    saveLocalSetting("animation_speed", name);
    if (app.settings) app.settings.animation_speed = name;
    try {
      app.settings = await api.saveSettings({ player: app.player(), animation_speed: name });
    } catch {
      // Kept locally; the server copy is updated next time.
    }
  },
};

const view = () => document.getElementById("view");

async function loadConfig() {
  try {
    app.config = await api.config();
  } catch (error) {
    app.config = null;
    showBanner(error.message);
  }
  try {
    app.settings = await api.settings(app.player());
  } catch {
    app.settings = null;
  }
}

function showBanner(text) {
  const banner = document.getElementById("app-banner");
  banner.textContent = text;
  banner.hidden = !text;
}

let toastTimer = null;

/** A short message over the page (a refused move, say), gone after a few seconds. */
function showToast(text) {
  const toast = document.getElementById("toast");
  toast.textContent = text;
  toast.hidden = false;
  toast.classList.remove("toast-in");
  void toast.offsetWidth;
  toast.classList.add("toast-in");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (toast.hidden = true), 4500);
}

function setActiveNav(route) {
  for (const link of document.querySelectorAll(".nav a")) {
    const active = link.dataset.route === route || (route === "game" && link.dataset.route === "play")
      || (route === "replay" && link.dataset.route === "replays");
    link.classList.toggle("active", active);
    if (active) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

/** Go to `hash`, asking first when the screen wants it (the daily deal once its try is spent). */
async function leaveTo(hash) {
  const question = app.screen?.leaveQuestion?.();
  if (question && !(await confirmDialog(question.title, question.text, { yes: question.yes, no: question.no }))) return;
  answered = true;
  location.hash = hash;
}

/** The hash of the screen on show, and whether leaving it was asked about already. */
let shownHash = null;
let answered = false;

/**
 * The browser's Back (or any other change of the hash) away from a screen that asks first:
 * asked here; kept on the screen (its hash put back) when the player stays. True to go on.
 */
async function mayLeave() {
  const question = !answered && shownHash !== null && location.hash !== shownHash
    ? app.screen?.leaveQuestion?.() : null;
  answered = false;
  if (!question) return true;
  const left = location.hash;
  history.replaceState(null, "", shownHash);
  if (!(await confirmDialog(question.title, question.text, { yes: question.yes, no: question.no }))) return false;
  history.replaceState(null, "", left);
  return true;
}

/** Links away from a screen that asks first (see leaveTo). */
function guardLinks() {
  document.addEventListener("click", (event) => {
    const link = event.target.closest?.('a[href^="#/"]');
    if (!link || event.defaultPrevented || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!app.screen?.leaveQuestion?.()) return;
    const hash = link.getAttribute("href");
    if (hash === location.hash) return;
    event.preventDefault();
    openMenu(false);
    leaveTo(hash);
  }, true);
}

function leaveScreen() {
  app.screen?.destroy();
  app.screen = null;
}

async function route() {
  if (!(await mayLeave())) return;
  shownHash = location.hash;
  // An invite link given as a path (/join/<room>) becomes the hash route.
  const pathJoin = location.pathname.match(/^\/join\/([A-Za-z0-9]+)\/?$/);
  if (pathJoin) {
    history.replaceState(null, "", `/#/join/${pathJoin[1]}`);
  }
  const [route, rawArg] = location.hash.replace(/^#\/?/, "").split("/");
  const arg = (rawArg ?? "").toUpperCase();
  const name = (route === "game" || route === "join") && !arg ? "play" : route;
  leaveScreen();
  openMenu(false);
  showBanner("");
  // Each visit draws into a box of its own: a page still loading when the player moved on
  // (a slow network) then draws into a box no longer shown, never over the page now shown.
  const mount = h("div", { class: "route-view" });
  replaceChildren(view(), mount);
  setActiveNav(name || "play");
  document.body.dataset.route = name || "play";
  offerTutorial(!name || name === "play");
  askName(app, name === "tutorial" && rawArg ? "tutorial-lesson" : name || "play");
  switch (name) {
    case "game":
      return openGame(mount, arg);
    case "join":
      return joinRoom(mount, arg);
    case "rules":
      document.title = _("Rules · Spite & Malice");
      return renderRules(mount, rawArg || null);
    case "stats":
      document.title = _("Statistics · Spite & Malice");
      return renderStats(mount, app);
    case "tutorial":
      document.title = _("Tutorial · Spite & Malice");
      return renderTutorial(mount, (rawArg ?? "").toLowerCase());
    case "settings":
      document.title = _("Settings · Spite & Malice");
      return renderSettings(mount, app);
    case "daily":
      document.title = _("Daily deal · Spite & Malice");
      return renderDaily(mount, app);
    case "replays":
      document.title = _("Replays · Spite & Malice");
      return renderReplays(mount);
    case "replay":
      document.title = _("Replay · Spite & Malice");
      return openReplay(mount, arg).then((screen) => {
        if (app.screen === null && document.body.dataset.route === "replay") app.screen = screen;
        else screen?.destroy(); // the player went elsewhere meanwhile
      });
    default:
      document.title = _("Spite & Malice");
      return renderLobby(mount, app);
  }
}

/** A computer level's name in the page's language (GET /api/config), or null. */
function levelName(id) {
  return app.config?.levels?.find((level) => level.id === id)?.name ?? null;
}

function openGame(mount, room) {
  const ticket = roomTicket(room);
  document.title = _("Game {room} · Spite & Malice", { room });
  if (!ticket) {
    // No oracle of which rooms exist (web-protocol 3.2), and never a join button: an
    // invitation is a /#/join/ link, which the friend gets from the host.
    replaceChildren(mount, h("div", { class: "page card-box", id: "no-game" },
      h("h1", {}, _("There is no such game")),
      h("p", {}, _("This browser has no game with this link. The link may be mistyped, or the game was played in another browser. To play a friend, ask them for an invite link.")),
      h("p", {}, h("a", { class: "btn btn-primary", href: "#/play", id: "no-game-lobby" }, _("Go to the lobby")))));
    return;
  }
  app.screen = new GameScreen(mount, ticket, {
    speed: () => app.speed(),
    setSpeed: (name) => app.setSpeed(name),
    speeds: app.config?.animation_speeds ?? DEFAULT_SPEEDS,
    levelName: (id) => levelName(id),
    leave: (to = "#/play") => leaveTo(to),
    toast: showToast,
    onSeatRefused: (error) => {
      forgetRoom(room);
      showBanner(_("{reason} The room is forgotten.", { reason: error.message ?? _("This seat was refused.") }));
    },
  });
}

async function joinRoom(mount, room) {
  // A reload of an invite link must not join twice: a held token reconnects (protocol 3.3).
  if (roomTicket(room)) {
    location.replace(`#/game/${room}`);
    return;
  }
  replaceChildren(mount, h("div", { class: "page card-box" }, h("p", {}, _("Joining room {room}…", { room }))));
  try {
    // The friend joins as this browser's player (its secret goes with the request).
    const ticket = await api.joinRoom(room, null);
    saveRoomTicket(ticket);
    location.replace(`#/game/${room}`);
  } catch (error) {
    replaceChildren(mount, h("div", { class: "page card-box", id: "join-error" },
      h("h1", {}, _("Cannot join")),
      h("p", {}, error.message),
      h("p", {}, h("a", { class: "btn", href: "#/play" }, _("Back to the lobby")))));
  }
}

/** The page's own words in index.html (the menu, the skip link), in the page's language. */
function translateChrome() {
  const texts = {
    play: _("Play"), daily: _("Daily deal"), rules: _("Rules"), tutorial: _("Learn"),
    stats: _("Statistics"), replays: _("Replays"), settings: _("Settings"),
  };
  for (const link of document.querySelectorAll(".nav a")) {
    if (texts[link.dataset.route]) link.textContent = texts[link.dataset.route];
  }
  document.querySelector(".nav")?.setAttribute("aria-label", _("Main"));
  const menu = document.getElementById("menu-button");
  if (menu) menu.textContent = _("Menu");
  const skip = document.querySelector(".skip-link");
  if (skip) skip.textContent = _("Skip to the main content");
  document.querySelector(".brand")?.setAttribute("aria-label", _("Spite and Malice: play"));
  document.getElementById("tutorial-offer")?.setAttribute("aria-label", _("Tutorial"));
  document.querySelector('meta[name="description"]')?.setAttribute("content",
    _("Spite & Malice, the two-player card race: play the computer or a friend."));
}

/** The page's language: the player's choice (kept on this device until the server's copy is
 * read), else the browser's; then the server's copy of the choice once the settings came. */
async function chooseLanguage(settingsRead) {
  const wanted = app.chosenLanguage() ?? browserLanguage();
  if (wanted !== currentLanguage() || !settingsRead) await setLanguage(wanted);
  if (settingsRead) {
    const chosen = app.chosenLanguage();
    saveLocalSetting("language", chosen);
    // chosen with no network: the server is told now that it answers
    if (localSetting(UNSAVED_LANGUAGE, null) !== null && navigator.onLine !== false) await app.saveLanguage(chosen);
  }
  translateChrome();
}

/** The manifest the page links (the installed app's name and description) in the page's
 * language: Chromium reads it again when the link changes. */
function linkManifest(code) {
  document.querySelector('link[rel="manifest"]')?.setAttribute("href", `/manifest.webmanifest?lang=${code}`);
}

/** The languages offered, by their own names, from the server (i18n.LANGUAGE_NAMES). */
async function loadLanguages() {
  try {
    app.languages = (await api.language()).languages;
  } catch {
    app.languages = null; // the page's own copy of the names serves
  }
}

async function start() {
  onLanguageChange(linkManifest);
  await Promise.all([chooseLanguage(false), loadLanguages()]);
  await ensurePlayer(); // the first visit asks for a name and makes the player
  await loadConfig();
  const asked = currentLanguage();
  await chooseLanguage(app.settings !== null);
  // The player's saved language (another device chose it): the server's words, such as the
  // levels' names, are asked for again in it.
  if (currentLanguage() !== asked) await loadConfig();
  installMenu();
  guardLinks();
  window.addEventListener("hashchange", route);
  await route();
  document.body.classList.add("ready");
}

start();
