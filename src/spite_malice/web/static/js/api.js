// The server's HTTP API (docs/web-protocol.md, sections 2 and 3).

import { _ } from "./i18n.js";

/** An error answered by the server: `code` and a `message` for a person. */
export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** One call of the API: the answer's JSON, or an ApiError with the server's words (or
 * "cannot be reached" when there is no answer). Every module of the page calls through it. */
export async function request(method, path, body, extraHeaders = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: {
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...extraHeaders,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("offline", _("The server cannot be reached. Is it running?"), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data?.error;
    throw new ApiError(
      error?.code ?? "http_" + response.status,
      error?.message ?? _("The server answered {status}.", { status: String(response.status) }),
      response.status,
    );
  }
  return data;
}

function query(params) {
  const entries = Object.entries(params).filter(([, v]) => v !== null && v !== undefined);
  return entries.length ? "?" + new URLSearchParams(entries).toString() : "";
}

export const api = {
  config: () => request("GET", "/api/config"),
  rules: () => request("GET", "/api/rules"),
  language: () => request("GET", "/api/language"),
  settings: (player) => request("GET", "/api/settings" + query({ player })),
  saveSettings: (settings) => request("PUT", "/api/settings", settings),
  stats: (player) => request("GET", "/api/stats" + query({ player })),
  createRoom: (body) => request("POST", "/api/rooms", body),
  joinRoom: (room, player) =>
    request("POST", `/api/rooms/${encodeURIComponent(room)}/join`, player ? { player } : {}),
  // the seat's token goes in a header, never in the URL
  room: (room, token) =>
    request("GET", `/api/rooms/${encodeURIComponent(room)}`, undefined, {
      "X-Seat-Token": token,
    }),
  rooms: (player) => request("GET", "/api/rooms" + query({ player })),
  giveUp: (room, token) =>
    request("POST", `/api/rooms/${encodeURIComponent(room)}/give-up`, undefined, {
      "X-Seat-Token": token,
    }),
  // players that last and ratings (web-protocol 9): secrets and passwords in bodies only
  account: () => request("GET", "/api/account"),
  protectWithPassword: (body) => request("POST", "/api/account/password", body),
  signIn: (body) => request("POST", "/api/account/sign-in", body),
  passkeyOptions: () => request("POST", "/api/account/passkey/options"),
  addPasskey: (body) => request("POST", "/api/account/passkey", body),
  passkeySignInOptions: () => request("POST", "/api/account/passkey/sign-in/options"),
  passkeySignIn: (body) => request("POST", "/api/account/passkey/sign-in", body),
  ratings: () => request("GET", "/api/ratings"),
  // play between strangers (web-protocol 3.8, 3.9)
  joinPool: (pool) => request("POST", "/api/pool", { pool }),
  poolNews: (wait) => request("GET", "/api/pool" + query({ wait })),
  leavePool: () => request("DELETE", "/api/pool"),
  abortMatch: (room, token) =>
    request("POST", `/api/rooms/${encodeURIComponent(room)}/abort`, undefined, { "X-Seat-Token": token }),
  blockOpponent: (room, token) =>
    request("POST", `/api/rooms/${encodeURIComponent(room)}/block`, undefined, { "X-Seat-Token": token }),
  leaderboard: (pool) => request("GET", `/api/leaderboard/${encodeURIComponent(pool)}`),
};
