// The daily e-mail's part of Settings (docs/browser.md, "The daily e-mail"): an address,
// confirmed by the link the server sends to it (web-protocol 2.13); shown only where the
// server has e-mail set up.

import { request } from "./api.js";
import { h } from "./dom.js";
import { _ } from "./i18n.js";

/** The "Daily e-mail" box of the settings page (hidden until the server says it sends). */
export function emailSetting() {
  const status = h("p", { class: "muted", id: "email-status", role: "status" });
  const input = h("input", { type: "email", id: "email-address", autocomplete: "email", maxlength: 254 });
  const save = h("button", { class: "btn", type: "submit" }, _("Send the confirmation link"));
  const remove = h("button", { class: "btn", type: "button", hidden: true }, _("Stop the daily e-mail"));
  const form = h("form", { class: "field" },
    h("label", { for: "email-address" }, _("A daily e-mail of the games where it is my turn, to:")),
    input, save, remove);
  const box = h("section", { class: "card-box", id: "email-setting", hidden: true },
    h("h2", {}, _("Daily e-mail")), form, status);
  const show = (mine) => {
    input.value = mine.address ?? "";
    remove.hidden = !mine.address;
    status.textContent = !mine.address ? ""
      : mine.confirmed ? _("Your address is confirmed.")
        : _("Open the link sent to your address to confirm it.");
  };
  request("GET", "/api/email").then((mine) => {
    box.hidden = !mine.enabled;
    show(mine);
  }).catch(() => {});
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      show(await request("POST", "/api/email", { address: input.value }));
    } catch (error) {
      status.textContent = error.message;
    }
  });
  remove.addEventListener("click", async () => {
    try {
      await fetch("/api/email/remove", { method: "POST" });
      show({ address: null, confirmed: false });
    } catch (error) {
      status.textContent = error.message;
    }
  });
  return box;
}
