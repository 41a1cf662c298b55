// Keep your player (web-protocol 9.1): on the Settings page, protect this browser's player
// with a sign-in name and password or a passkey, and sign in as a protected player on
// this browser. Signing in gives this browser a secret of that player's, kept as the
// player's secret is (player.js); the page then reloads as that player.

import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { _ } from "./i18n.js";
import { savePlayerRecord } from "./store.js";

const toBase64url = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
  .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const fromBase64url = (text) => {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0)).buffer;
};

/** The server's options (base64url strings) as navigator.credentials wants them. */
function creationOptions(options) {
  return {
    ...options,
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
    excludeCredentials: (options.excludeCredentials ?? []).map((c) => ({ ...c, id: fromBase64url(c.id) })),
  };
}

function requestOptions(options) {
  return {
    ...options,
    challenge: fromBase64url(options.challenge),
    allowCredentials: (options.allowCredentials ?? []).map((c) => ({ ...c, id: fromBase64url(c.id) })),
  };
}

/** A credential as JSON for the server (PublicKeyCredential.toJSON's shape). */
function credentialJson(credential) {
  const response = credential.response;
  const json = {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    clientExtensionResults: credential.getClientExtensionResults?.() ?? {},
    response: { clientDataJSON: toBase64url(response.clientDataJSON) },
  };
  if (response.attestationObject) {
    json.response.attestationObject = toBase64url(response.attestationObject);
    json.response.transports = response.getTransports?.() ?? [];
  } else {
    json.response.authenticatorData = toBase64url(response.authenticatorData);
    json.response.signature = toBase64url(response.signature);
    if (response.userHandle) json.response.userHandle = toBase64url(response.userHandle);
  }
  return json;
}

const hasPasskeys = () => typeof window.PublicKeyCredential === "function" && !!navigator.credentials;

/** The browser signs in as the player of `answer` ({id, name, secret}) and reloads. */
function becomePlayer(answer) {
  savePlayerRecord({ id: answer.id, name: answer.name, secret: answer.secret });
  location.hash = "#/settings";
  location.reload();
}

function field(id, label, attrs) {
  return h("div", { class: "field" }, h("label", { for: id }, label), h("input", { id, name: id, ...attrs }));
}

/** Append the "Keep your player" part to the Settings page `page`. */
export async function renderAccount(page) {
  const box = h("section", { class: "settings-form account", id: "account" });
  page.append(box);
  let account;
  try {
    account = await api.account();
  } catch (error) {
    replaceChildren(box, h("h2", {}, _("Keep your player")), h("p", { class: "form-status" }, error.message));
    return;
  }
  draw(box, account);
}

function draw(box, account) {
  const status = h("p", { class: "form-status", id: "account-status", role: "status", "aria-live": "polite" });
  const said = (text) => { status.textContent = text; };
  let state;
  if (!account.protected) state = _("Your player lives only in this browser: clearing the browser loses it. Protect it to play as it on another device too.");
  else if (account.password && account.passkeys) state = _("Your player is protected: sign in as {login} with your password, or with one of your passkeys ({count}).", { login: account.login, count: String(account.passkeys) });
  else if (account.password) state = _("Your player is protected: sign in as {login} with your password.", { login: account.login });
  else state = _("Your player is protected with your passkeys ({count}).", { count: String(account.passkeys) });

  const protect = h("form", { class: "account-password", id: "protect-form" },
    field("account-login", _("Sign-in name"), {
      type: "text", autocomplete: "username", required: true, maxlength: 40, value: account.login ?? "",
    }),
    account.password ? field("account-current", _("Current password"), {
      type: "password", autocomplete: "current-password", required: true,
    }) : null,
    field("account-password", _("New password (8 characters or more)"), {
      type: "password", autocomplete: "new-password", required: true, minlength: 8, maxlength: 200,
    }),
    h("div", { class: "form-actions" }, h("button", { class: "btn", type: "submit", id: "protect-password" },
      account.password ? _("Change the password") : _("Protect with a password"))));
  protect.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {
      login: protect.elements.namedItem("account-login").value,
      password: protect.elements.namedItem("account-password").value,
    };
    if (account.password) body.current = protect.elements.namedItem("account-current").value;
    said(_("Saving…"));
    try {
      draw(box, await api.protectWithPassword(body));
      box.querySelector("#account-status").textContent = _("Saved. Sign in with this name and password on another device.");
    } catch (error) {
      said(error.message);
    }
  });

  const addPasskey = h("button", { class: "btn", type: "button", id: "protect-passkey" }, _("Protect with a passkey"));
  addPasskey.addEventListener("click", async () => {
    said(_("Follow your browser's steps…"));
    try {
      const { ceremony, options } = await api.passkeyOptions();
      const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
      draw(box, await api.addPasskey({ ceremony, credential: credentialJson(credential) }));
      box.querySelector("#account-status").textContent = _("Saved. Sign in with this passkey on another device.");
    } catch (error) {
      said(error instanceof DOMException ? _("The passkey was not made: your browser or you stopped it.") : error.message);
    }
  });

  const signIn = h("form", { class: "account-sign-in", id: "sign-in-form" },
    field("sign-in-login", _("Sign-in name"), { type: "text", autocomplete: "username", required: true, maxlength: 40 }),
    field("sign-in-password", _("Password"), { type: "password", autocomplete: "current-password", required: true }),
    h("div", { class: "form-actions" }, h("button", { class: "btn", type: "submit", id: "sign-in-password-button" }, _("Sign in"))));
  signIn.addEventListener("submit", async (event) => {
    event.preventDefault();
    said(_("Signing in…"));
    try {
      becomePlayer(await api.signIn({
        login: signIn.elements.namedItem("sign-in-login").value,
        password: signIn.elements.namedItem("sign-in-password").value,
      }));
    } catch (error) {
      said(error.message);
    }
  });
  const passkeySignIn = h("button", { class: "btn", type: "button", id: "sign-in-passkey" }, _("Sign in with a passkey"));
  passkeySignIn.addEventListener("click", async () => {
    said(_("Follow your browser's steps…"));
    try {
      const { ceremony, options } = await api.passkeySignInOptions();
      const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
      becomePlayer(await api.passkeySignIn({ ceremony, credential: credentialJson(credential) }));
    } catch (error) {
      said(error instanceof DOMException ? _("No passkey was used: your browser or you stopped it.") : error.message);
    }
  });

  replaceChildren(box,
    h("h2", {}, _("Keep your player")),
    h("p", { class: "muted", id: "account-state" }, state),
    h("fieldset", {}, h("legend", {}, _("Protect this player")), protect, hasPasskeys() ? addPasskey : null),
    h("fieldset", {}, h("legend", {}, _("Play as a protected player on this browser")),
      h("p", { class: "muted" }, _("This browser then plays as that player; the player it plays as now stays as it is.")),
      signIn, hasPasskeys() ? passkeySignIn : null),
    status);
}
