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
// - A new version installs in the background and waits: the page offers to reload, and says
//   "skip-waiting" when the player agrees, so a game in progress is never cut off.

/* global CONFIG */
const SHELL = `shell-${CONFIG.version}`;
const ENGINE = `engine-${CONFIG.engine_version ?? "none"}`;
const DATA = "api-data";
const ENGINE_PATH = "/static/offline/build/";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const shell = await caches.open(SHELL);
    await shell.addAll(CONFIG.shell.map((url) => new Request(url, { cache: "reload" })));
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
      const stale = (name.startsWith("shell-") && name !== SHELL)
        || (name.startsWith("engine-") && name !== ENGINE);
      if (stale) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

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
