// Notifications of games when the player is away (docs/browser.md, "Notifications"): Web
// Push, asked for only when the player turns it on in Settings. The server's key is
// GET /api/push/key; the browser's subscription goes to POST /api/push/subscriptions and is
// forgotten by POST /api/push/unsubscribe (web-protocol 2.11). The service worker (sw.js)
// shows them, one per game.

import { h } from "./dom.js";
import { _ } from "./i18n.js";

function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function keyBytes(text) {
  const base64 = (text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

async function post(path, body) {
  const answer = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!answer.ok && answer.status !== 404) {
    const data = await answer.json().catch(() => null);
    throw new Error(data?.error?.message ?? _("The server answered {status}.", { status: String(answer.status) }));
  }
}

/** This browser's subscription, or null (also when no service worker is ready within 5 s). */
async function subscription() {
  const late = new Promise((resolve) => setTimeout(() => resolve(null), 5000));
  const registration = await Promise.race([navigator.serviceWorker.ready, late]);
  return registration ? registration.pushManager.getSubscription() : null;
}

/** Turn notifications on: the browser asks the player, then subscribes with the server's key. */
async function turnOn() {
  if ((await Notification.requestPermission()) !== "granted") {
    throw new Error(_("Notifications are blocked for this site in the browser's settings."));
  }
  const { public_key: key } = await (await fetch("/api/push/key")).json();
  const registration = await navigator.serviceWorker.ready;
  const kept = (await registration.pushManager.getSubscription())
    ?? (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
  await post("/api/push/subscriptions", kept.toJSON());
}

async function turnOff() {
  const kept = await subscription();
  if (!kept) return;
  await post("/api/push/unsubscribe", { endpoint: kept.endpoint });
  await kept.unsubscribe();
}

/** The "Notifications" box of the settings page. */
export function pushSetting() {
  const status = h("p", { class: "muted", id: "push-status", role: "status" });
  const input = h("input", { type: "checkbox", id: "push-notify", disabled: true });
  const box = h("section", { class: "card-box", id: "push-setting" },
    h("h2", {}, _("Notifications")),
    h("div", { class: "field field-check" }, input,
      h("label", { for: "push-notify" },
        _("Tell me on this device when it is my turn, a game is over or a rematch is offered, while I am not on the game's page."))),
    status);
  if (!supported()) {
    status.textContent = _("This browser cannot show notifications.");
    return box;
  }
  subscription().then((kept) => {
    input.checked = Boolean(kept) && Notification.permission === "granted";
    input.disabled = false;
  }).catch(() => { input.disabled = false; });
  input.addEventListener("change", async () => {
    input.disabled = true;
    status.textContent = "";
    try {
      if (input.checked) await turnOn(); else await turnOff();
      status.textContent = input.checked ? _("Notifications are on for this device.") : _("Notifications are off.");
    } catch (error) {
      input.checked = !input.checked;
      status.textContent = error.message;
    } finally {
      input.disabled = false;
    }
  });
  return box;
}
