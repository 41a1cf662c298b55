// Deals anyone can verify (docs/verifying.md): the table shows the game's commitment from the
// deal on, and this page remembers the one it saw; at the end the "Verify the deal" button
// checks here, with the browser's own SHA-256, that the revealed seed and salt make it, then
// asks the server to deal the game again from the seed and replay the record (the page holds
// no rules), and says in plain words what matched.

import { h, replaceChildren } from "./dom.js";
import { _ } from "./i18n.js";

const KEY = "spite-malice.commitment";
const SHORT = 12;

function key(state) {
  return `${KEY}.${state.room}.${state.match.game_number}`;
}

/** The commitment of the game in play, small, for the game info; remembered as seen. */
export function commitmentNote(state) {
  const committed = state?.match?.commitment;
  if (!committed) return null;
  if (!state.observation?.outcome && state.resigned === null) {
    try {
      if (!sessionStorage.getItem(key(state))) sessionStorage.setItem(key(state), committed);
    } catch {
      // no storage: the end screen compares with the state's commitment instead
    }
  }
  return h("span", { class: "muted deal-commitment", id: "deal-commitment", title: committed },
    _("deal {commitment}…", { commitment: committed.slice(0, SHORT) }));
}

async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function checks(state) {
  const reveal = state.reveal;
  let seen = null;
  try {
    seen = sessionStorage.getItem(key(state));
  } catch {
    seen = null;
  }
  seen = seen ?? state.match.commitment;
  const said = [];
  if (globalThis.crypto?.subtle) {
    const made = await sha256(`${reveal.seed}:${reveal.salt}`);
    said.push(made === seen
      ? { ok: true, text: _("Checked in this browser: the seed and the salt revealed make the commitment shown at the deal.") }
      : { ok: false, text: _("Checked in this browser: the seed and the salt revealed do NOT make the commitment shown at the deal.") });
  }
  try {
    const answer = await fetch(`/api/verify?seen=${encodeURIComponent(seen)}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(reveal.record),
    });
    const data = await answer.json();
    if (!answer.ok) said.push({ ok: false, text: data?.error?.message ?? String(answer.status) });
    else said.push(...data.checks);
  } catch {
    said.push({ ok: false, text: _("The server cannot be reached to deal the game again: try again once online.") });
  }
  return said;
}

/** The end screen's "Verify the deal": a button, and what it found. */
export function verifyBox(state) {
  if (!state?.reveal?.record || !state.reveal.salt) return null;
  const out = h("ul", { class: "verify-checks", id: "verify-checks", "aria-live": "polite" });
  const run = async () => {
    replaceChildren(out, h("li", {}, _("Verifying…")));
    const found = await checks(state);
    const ok = found.length > 0 && found.every((c) => c.ok);
    out.dataset.ok = ok ? "yes" : "no";
    replaceChildren(out,
      ...found.map((c) => h("li", { class: c.ok ? "verify-ok" : "verify-bad" }, (c.ok ? "✓ " : "✗ ") + c.text)),
      h("li", { class: "verify-verdict" }, h("b", {}, ok ? _("The deal is verified.") : _("The deal is NOT verified."))));
  };
  return h("div", { class: "verify-box" },
    h("button", { class: "btn", type: "button", id: "verify-deal", onclick: run }, _("Verify the deal")),
    out);
}
