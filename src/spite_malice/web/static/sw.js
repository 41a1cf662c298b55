// The service worker (docs/offline.md): keeps the page so that the installed app opens with no
// network, and the offline engine once offline play is wanted. The server serves it at /sw.js
// with CONFIG in front: {version, shell, api, engine, extras, engine_version}.
//
// - The page's files (CONFIG.shell) are kept when this version installs, in a cache named
//   after the version; they are answered from it, so an installed app opens at once.
// - The translations of every language (CONFIG.api) are kept when this version installs;
//   every GET of /api/ is asked of the network first, and kept; with no network the kept
//   answer serves.
// - The offline engine (CONFIG.engine: Pyodide and our package, ~7 MB compressed) is fetched
//   only when the page asks ("cache-engine"), in the background, into a cache named after
//   the engine's build, which outlives page updates that leave the engine as it was; the
//   sounds (CONFIG.extras) with it, or as the page plays them.
//   When offline play is on (an older version kept its engine) and the engine's build
//   changed, the new version keeps the new engine while it installs (the unchanged files
//   copied from the older engine); an older engine is deleted only once the new one is
//   complete, so an update never leaves the app without an engine.
// - A new version installs in the background and waits: the page offers to reload, and says
//   "skip-waiting" when the player agrees, so a game in progress is never cut off.

/* global CONFIG */
const SHELL = `shell-${CONFIG.version}`;
const ENGINE = `engine-${CONFIG.engine_version ?? "none"}`;
const DATA = "api-data";
const ENGINE_PATH = "/static/offline/build/";
const ENGINE_MANIFEST = `${ENGINE_PATH}manifest.json`;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const shell = await caches.open(SHELL);
    await shell.addAll(CONFIG.shell.map((url) => new Request(url, { cache: "reload" })));
    const kept = await engineKept();
    if (kept) {
      // offline play is on: this version's engine and sounds are kept before it waits
      await keepNewEngine(kept);
      await keep(shell, CONFIG.extras);
    }
    const data = await caches.open(DATA);
    // the texts of every language and the levels: best effort (the page works without them)
    await Promise.all(CONFIG.api.map(async (url) => {
      try {
        const answer = await fetch(url);
        if (answer.ok) await data.put(url, answer);
      } catch {
        // kept the next time the page reads it
      }
    }));
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("shell-") && name !== SHELL) await caches.delete(name);
    }
    await dropOlderEngines();
    await self.clients.claim();
  })());
});

/** The older versions' engines, once this version's is complete (never before: an app
 * updated and then cut from the network keeps an engine). */
async function dropOlderEngines() {
  if (!(await engineCached())) return;
  for (const name of await caches.keys()) {
    if (name.startsWith("engine-") && name !== ENGINE) await caches.delete(name);
  }
}

/** The engine a version kept (offline play is on on this device), an older one first, or
 * null. */
async function engineKept() {
  const names = (await caches.keys()).filter((name) => name.startsWith("engine-"));
  names.sort((a, b) => (a === ENGINE) - (b === ENGINE));
  for (const name of names) {
    const cache = await caches.open(name);
    if (await cache.match(ENGINE_MANIFEST)) return cache;
  }
  return null;
}

/** When an older version kept its engine (`older`: offline play is on) and this version's
 * engine is another build, this version's is kept while it installs, so that the update
 * offered is complete with no network: the files whose hash did not change are copied from
 * the older engine, the others fetched; a failure (no network) fails the install, and the
 * older version stays, whole. */
async function keepNewEngine(older) {
  if (!CONFIG.engine.length || (await engineCached())) return;
  const answer = await fetch(ENGINE_MANIFEST, { cache: "no-store" });
  if (!answer.ok) throw new Error(`${ENGINE_MANIFEST}: ${answer.status}`);
  const { files } = await answer.clone().json();
  const { files: had } = await (await older.match(ENGINE_MANIFEST)).json();
  const engine = await caches.open(ENGINE);
  for (const [name, entry] of Object.entries(files)) {
    const url = ENGINE_PATH + name;
    const same = had?.[name]?.sha256 === entry.sha256 ? await older.match(url) : undefined;
    if (same) await engine.put(url, same);
  }
  // the manifest last: an engine is complete once every file and its manifest are kept
  await keep(engine, CONFIG.engine.filter((url) => url !== ENGINE_MANIFEST));
  await engine.put(ENGINE_MANIFEST, answer);
}

async function keep(cache, urls) {
  for (const url of urls) {
    if (await cache.match(url)) continue;
    const answer = await fetch(url, { cache: "no-store" });
    if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
    await cache.put(url, answer);
  }
}

/** The engine, and what else offline play needs that the page reads only as it plays (the
 * sounds: CONFIG.extras, kept with the page's files). */
async function cacheEngine() {
  await keep(await caches.open(ENGINE), CONFIG.engine);
  await keep(await caches.open(SHELL), CONFIG.extras);
  await dropOlderEngines();
}

async function engineCached() {
  if (!CONFIG.engine.length) return false;
  const engine = await caches.open(ENGINE);
  for (const url of CONFIG.engine) {
    if (!(await engine.match(url))) return false;
  }
  return true;
}

self.addEventListener("message", (event) => {
  const { type } = event.data ?? {};
  if (type === "skip-waiting") {
    self.skipWaiting();
  } else if (type === "version") {
    event.source?.postMessage({ type: "version", version: CONFIG.version });
  } else if (type === "cache-engine" || type === "engine-status") {
    const work = (async () => {
      let ok = false;
      try {
        if (type === "cache-engine" && CONFIG.engine.length) await cacheEngine();
        ok = await engineCached();
      } catch {
        ok = false;
      }
      event.source?.postMessage({ type: "engine-status", installed: ok, built: CONFIG.engine.length > 0 });
    })();
    event.waitUntil(work);
  }
});

async function fromCache(cacheName, request) {
  const cache = await caches.open(cacheName);
  return cache.match(request, { ignoreSearch: false });
}

async function networkFirst(request) {
  try {
    const answer = await fetch(request);
    if (answer.ok) {
      const data = await caches.open(DATA);
      await data.put(request, answer.clone());
    }
    return answer;
  } catch {
    // the same answer asked with another query (the settings of the player by an older name)
    const data = await caches.open(DATA);
    const kept = (await data.match(request)) ?? (await data.match(request, { ignoreSearch: true }));
    return kept ?? Response.error();
  }
}

async function page(request) {
  try {
    return await fetch(request);
  } catch {
    return (await fromCache(SHELL, "/")) ?? Response.error();
  }
}

async function cacheFirst(cacheName, request) {
  const kept = await fromCache(cacheName, request);
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok && answer.status === 200) {
    const cache = await caches.open(cacheName);
    await cache.put(request, answer.clone()); // a file not kept at install (a sound)
  }
  return answer;
}

/** A saved change of settings: the kept copies of GET /api/settings say the new ones too (the
 * answer to PUT is the settings as GET answers them), so the app opened offline has them. */
async function savedSettings(request) {
  const answer = await fetch(request);
  if (answer.ok) {
    const data = await caches.open(DATA);
    for (const key of await data.keys()) {
      if (new URL(key.url).pathname === "/api/settings") await data.put(key, answer.clone());
    }
  }
  return answer;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "PUT" && url.pathname === "/api/settings") {
    event.respondWith(savedSettings(request));
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (url.pathname.startsWith(ENGINE_PATH)) {
    event.respondWith(cacheFirst(ENGINE, request));
  } else if (url.pathname.startsWith("/api/")) {
    event.respondWith(networkFirst(request));
  } else if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") {
    event.respondWith(cacheFirst(SHELL, request));
  }
});

// Notifications (docs/browser.md, "Notifications"): the server's Web Push payload is
// {title, body, tag, url, room, kind}; one notification per game (its tag), the new one
// replacing the last; a click opens the game, in the page's window when one is open (one this
// worker controls: a window reloaded past it, Shift+Reload, cannot be taken to another page,
// so a new one opens).
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  if (!data.title) return;
  event.waitUntil(self.registration.showNotification(data.title, {
    body: data.body ?? "",
    tag: data.tag,
    renotify: true,
    icon: "/static/icons/icon-192.png",
    data: { url: data.url ?? "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? "/", self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window" });
    const open = windows[0];
    if (open) {
      await open.focus();
      if ("navigate" in open) await open.navigate(url);
      return;
    }
    await self.clients.openWindow(url);
  })());
});
