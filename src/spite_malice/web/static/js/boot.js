// Small page-wide behaviour that is no screen's own: the "Skip to the game" link (it moves
// the keyboard focus; a plain #view link would change the route and show the lobby) and the
// player's looks (four-colour suits, large cards) on every page.

import { applyPrefs } from "./prefs.js";

function skipToContent(event) {
  event.preventDefault();
  const target = document.querySelector("#table [data-key]:not([disabled])")
    ?? document.querySelector("#table")
    ?? document.getElementById("view");
  if (target && !target.hasAttribute("tabindex") && !target.matches("a, button, input, select")) {
    target.setAttribute("tabindex", "-1");
  }
  target?.focus();
}

document.querySelector(".skip-link")?.addEventListener("click", skipToContent);
applyPrefs();
