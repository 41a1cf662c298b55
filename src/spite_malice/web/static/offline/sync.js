// Sending the matches played offline to the server once it can be reached (docs/offline.md):
// each match's steps the server has not counted yet, in parts under the server's request
// limit. The server replays them; a match it refuses is kept with the reason, shown to the
// player, and not sent again.

import { allMatches, markRefused, markSent } from "./db.js";

const PART = 300;
const HEADER = "X-Player-Secret";
let sending = null;

function secret() {
  try {
    return JSON.parse(localStorage.getItem("spite-malice.player-record") ?? "null")?.secret ?? null;
  } catch {
    return null;
  }
}

async function post(body, language) {
  const headers = { "Content-Type": "application/json", "Accept-Language": language };
  const player = secret();
  if (player) headers[HEADER] = player;
  return fetch("/api/offline-games", { method: "POST", headers, body: JSON.stringify(body) });
}

async function sendMatch(match, language, onRefused) {
  const steps = match.record.steps;
  let from = match.sent;
  while (from < steps.length) {
    const part = steps.slice(from, from + PART);
    const answer = await post({ ...match.record, from, steps: part }, language);
    if (answer.status === 409 && from > 0) {
      const data = await answer.json().catch(() => null);
      if (data?.error?.code === "steps_missing") {
        from = 0; // this server has not kept the start: all of it again
        continue;
      }
    }
    if (answer.status === 422 || answer.status === 409) {
      const data = await answer.json().catch(() => null);
      const reason = data?.error?.message ?? String(answer.status);
      await markRefused(match.id, reason);
      onRefused?.(reason);
      return;
    }
    if (!answer.ok) return; // the server's trouble: tried again later
    from += part.length;
    await markSent(match.id, from);
  }
}

/** Send every match with steps the server has not counted; `onRefused(reason)` is told of
 * each refused one. Resolves when done (or at the first network failure). */
export function sendOfflineGames({ language = "en", onRefused } = {}) {
  if (sending) return sending;
  sending = (async () => {
    try {
      if (!secret()) return;
      for (const match of await allMatches()) {
        if (match.refused || match.record.steps.length <= match.sent) continue;
        await sendMatch(match, language, onRefused);
      }
    } catch {
      // no network, or no IndexedDB: tried again later
    } finally {
      sending = null;
    }
  })();
  return sending;
}
