// What the page keeps in the browser (localStorage): seat tokens, the player (its name and
// secret), the last room. Tokens are the only credentials of a seat (web-protocol 3.2).

const PREFIX = "spite-malice.";

function read(key) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Private browsing or a full store: the page still works, without memory.
  }
}

/** The seat of a room this browser holds: {room, seat, token, mode, ws_url} or null. */
export function roomTicket(room) {
  return read(`room.${room}`);
}

/** Keep a room's seat; `last: false` for one the page did not open (it is not the room to
 * go back to). */
export function saveRoomTicket(ticket, { last = true } = {}) {
  write(`room.${ticket.room}`, {
    room: ticket.room,
    seat: ticket.seat,
    token: ticket.token,
    mode: ticket.mode,
    ws_url: ticket.ws_url,
    saved: Date.now(),
  });
  if (last) write("last-room", ticket.room);
}

export function forgetRoom(room) {
  write(`room.${room}`, null);
  if (read("last-room") === room) write("last-room", null);
}

export function lastRoom() {
  return read("last-room");
}

/** The name chosen in Settings, or null (the player's name is then the server's). */
export function playerName() {
  return read("player");
}

export function savePlayerName(name) {
  write("player", name || null);
  const record = read("player-record");
  if (record && name) write("player-record", { ...record, name });
}

/** This browser's player: {id, name, secret} (web-protocol 2.0), or null before the first
 * visit made one. The secret is the player's only credential. */
export function playerRecord() {
  const record = read("player-record");
  return record && typeof record.secret === "string" ? record : null;
}

export function savePlayerRecord(record) {
  write("player-record", record);
}

/** Local fallbacks of settings when the server cannot be reached. */
export function localSetting(name, fallback) {
  const value = read(`setting.${name}`);
  return value === null ? fallback : value;
}

export function saveLocalSetting(name, value) {
  write(`setting.${name}`, value);
}
