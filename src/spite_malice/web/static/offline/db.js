// The offline matches kept in the browser (IndexedDB), shared by the engine's worker (which
// saves a match after every step) and the page (which resumes them and sends them to the
// server). One object a match: {id, room, player, record, saved, sent}: `record` is what the
// session's record() made, `sent` how many of its steps the server has counted, `player` the
// id of the player who started it on this browser (another player signed in here neither
// sees it nor sends it as theirs).

const NAME = "spite-malice-offline";
const STORE = "matches";

let opened = null;

function db() {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(NAME, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: "id" });
      store.createIndex("room", "room");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opened;
}

function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function store(mode) {
  return (await db()).transaction(STORE, mode).objectStore(STORE);
}

/** Keep `record` (a match's record, with its room), keeping what was sent of it and whose
 * it is (`player`, given when the match is made). */
export async function saveRecord(record, player = null) {
  const matches = await store("readwrite");
  const kept = await done(matches.get(record.id));
  await done(matches.put({
    id: record.id, room: record.room, player: kept?.player ?? player, record, saved: Date.now(),
    sent: kept?.sent ?? 0,
  }));
}

/** The latest record of `room`, or null. */
export async function latestRecord(room) {
  const matches = await store("readonly");
  const found = await done(matches.index("room").getAll(room));
  found.sort((a, b) => a.saved - b.saved);
  return found.length ? found[found.length - 1].record : null;
}

/** Every kept match of `player` (a player's id), oldest first; with no player, every one.
 * A match kept before matches had an owner counts as everyone's. */
export async function allMatches(player = null) {
  const found = await done((await store("readonly")).getAll());
  const theirs = player === null ? found : found.filter((m) => (m.player ?? player) === player);
  return theirs.sort((a, b) => a.saved - b.saved);
}

/** The server has counted `steps` steps of match `id`. */
export async function markSent(id, steps) {
  const matches = await store("readwrite");
  const kept = await done(matches.get(id));
  if (kept) await done(matches.put({ ...kept, sent: Math.max(kept.sent, steps) }));
}

/** The server refused match `id` for good: keep it, but say why and send it no more. */
export async function markRefused(id, reason) {
  const matches = await store("readwrite");
  const kept = await done(matches.get(id));
  if (kept) await done(matches.put({ ...kept, refused: reason }));
}
