// The page's menu folded into one button on a phone's table (the game, a replay, a lesson):
// the top bar's button when the phone is upright, a button among the screen's own when it is
// held sideways (the top bar then gives its height to the table). Either opens the same menu.

import { h } from "./dom.js";
import { _ } from "./i18n.js";

const TOGGLES = "#menu-button, .menu-toggle";

/** Open or close the folded menu. */
export function openMenu(open) {
  document.body.classList.toggle("menu-open", open);
  for (const button of document.querySelectorAll(TOGGLES)) button.setAttribute("aria-expanded", String(open));
}

function toggle() {
  const open = !document.body.classList.contains("menu-open");
  openMenu(open);
  if (open) document.querySelector(".nav a")?.focus();
}

/** A menu button for a screen's own row of buttons (shown when the phone is sideways). */
export function menuButton() {
  return h("button", {
    class: "btn menu-toggle", type: "button", "aria-controls": "main-nav", "aria-expanded": "false", onclick: toggle,
  }, _("Menu"));
}

/** The top bar's button, Escape, and a tap elsewhere (which closes the menu). */
export function installMenu() {
  document.getElementById("menu-button")?.addEventListener("click", toggle);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && document.body.classList.contains("menu-open")) {
      openMenu(false);
      event.stopImmediatePropagation();
    }
  }, true);
  document.addEventListener("click", (event) => {
    if (!document.body.classList.contains("menu-open")) return;
    if (!event.target.closest?.(`.nav, ${TOGGLES}`)) openMenu(false);
  });
}
