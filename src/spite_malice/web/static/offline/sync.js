// Sending the matches played offline to the server once it can be reached (docs/offline.md):
// each match's steps the server has not counted yet, in parts under the server's request
// limit. The server replays them; a match it refuses is kept with the reason, shown to the
// player, and not sent again.

import { playerRecord } from "../js/store.js";
import { allMatches, markRefused, markSent } from "./db.js";

const PART = 300;
const HEADER = "X-Player-Secret";
let sending = null;

function secret() {
  return playerRecord()?.secret ?? null;
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

async function sendAll(language, onRefused) {
  try {
    const player = playerRecord();
    if (!player?.secret) return;
    for (const match of await allMatches(player.id ?? null)) {
      if (match.refused || match.record.steps.length <= match.sent) continue;
      await sendMatch(match, language, onRefused);
    }
  } catch {
    // no network, or no IndexedDB: tried again later
  }
}

/** Send every match of this browser's player with steps the server has not counted (another
 * player's wait until that player is back); `onRefused(reason)` is told of each refused one.
 * Resolves when done (or at the first network failure); a call while a send is on its way
 * gets that send. */
export function sendOfflineGames({ language = "en", onRefused } = {}) {
  // the send is forgotten once it has ended, in a later task than this call even when it
  // ends at once (before the player exists, say): it never outlives itself
  sending ??= sendAll(language, onRefused).finally(() => {
    sending = null;
  });
  return sending;
}
