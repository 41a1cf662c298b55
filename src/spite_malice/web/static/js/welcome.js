// The first visit's question: the player's name, asked in the page (never by a browser
// dialog). The player is made at once under a suggested name (player.js), so nothing waits
// for the answer; this box offers to change it, until it is answered here or in Settings.

import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { _ } from "./i18n.js";
import { nameAnswered, nameWanted, renamed } from "./player.js";
import { savePlayerName } from "./store.js";

/** The routes with a table: the question waits for a page without one. */
const TABLE_ROUTES = new Set(["game", "replay", "tutorial-lesson"]);

/** Show the name question on `route` when this browser's player has not answered it yet. */
export function askName(app, route) {
  const box = document.getElementById("first-visit");
  if (!box) return;
  box.hidden = true;
  if (!nameWanted() || TABLE_ROUTES.has(route)) return;
  const field = h("input", {
    type: "text", id: "first-visit-name", name: "player", value: app.player(), maxlength: 40,
    autocomplete: "nickname", required: true, "aria-describedby": "first-visit-status",
  });
  const status = h("p", { class: "first-visit-status", id: "first-visit-status", role: "status", "aria-live": "polite" });
  const form = h("form", { class: "first-visit-form", id: "first-visit-form" },
    h("label", { for: "first-visit-name" }, _("Your name at the table (you can change it in Settings):")),
    h("div", { class: "join-form" }, field,
      h("button", { class: "btn btn-primary", type: "submit", id: "first-visit-save" }, _("Save"))),
    status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = field.value.trim();
    if (!name) {
      status.textContent = _("Type a name, or keep the one suggested.");
      field.focus();
      return;
    }
    status.textContent = _("Saving…");
    try {
      app.settings = await api.saveSettings({ player: name });
    } catch (error) {
      status.textContent = error.message; // a refused name: the reason, and the field stays
      field.focus();
      return;
    }
    renamed(app.settings?.player ?? name);
    savePlayerName(app.settings?.player ?? name);
    nameAnswered();
    box.hidden = true;
  });
  replaceChildren(box, h("h2", { id: "first-visit-title" }, _("Welcome to Spite & Malice")), form);
  box.hidden = false;
}

/** The name was set elsewhere (Settings): the question is answered. */
export function nameSet() {
  nameAnswered();
  const box = document.getElementById("first-visit");
  if (box) box.hidden = true;
}
