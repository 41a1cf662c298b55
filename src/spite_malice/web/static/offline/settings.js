// The Settings page's offline part (docs/offline.md): keep offline play on this device (the
// engine, about 7 MB, is then fetched in the background), and whether it is there.

import { h } from "../js/dom.js";
import { _ } from "../js/i18n.js";
import { engineStatus, offlineWanted, setOfflineWanted } from "./register.js";

/** The "Offline play" box of the settings page. */
export function offlineSetting() {
  const status = h("p", { class: "muted", id: "offline-status", role: "status" });
  const input = h("input", { type: "checkbox", id: "offline-play", checked: offlineWanted() });
  input.addEventListener("change", () => setOfflineWanted(input.checked));
  const box = h("section", { class: "card-box", id: "offline-setting" },
    h("h2", {}, _("Offline play")),
    h("div", { class: "field field-check" }, input,
      h("label", { for: "offline-play" },
        _("Keep the game on this device to play the computer with no network (about 7 MB)."))),
    status);
  engineStatus((state) => {
    status.textContent = !state.known ? ""
      : !state.built ? _("Offline play is not installed on this server.")
        : state.installed ? _("Offline play is ready on this device.")
          : _("Offline play is not on this device yet.");
  });
  return box;
}
