// The player's preferences for the table itself (sound, volume, confirm discards, four-colour
// suits, large cards, notation in the log, a notification on my turn). They belong to this
// browser and device, so they are kept in localStorage (store.js), not on the server.

import { localSetting, saveLocalSetting } from "./store.js";

export const PREF_DEFAULTS = {
  sound: true,
  volume: 0.6,
  confirm_discards: false,
  four_colour: false,
  large_cards: false,
  log_notation: false,
  notify: false,
};

/** One preference, or its default. */
export function pref(name) {
  const value = localSetting(`pref.${name}`, PREF_DEFAULTS[name]);
  return typeof value === typeof PREF_DEFAULTS[name] ? value : PREF_DEFAULTS[name];
}

const listeners = new Set();

/** Change a preference; the page's looks follow at once. */
export function setPref(name, value) {
  saveLocalSetting(`pref.${name}`, value);
  applyPrefs();
  for (const listener of listeners) listener(name, value);
}

/** Call `listener(name, value)` on every change; returns a function that stops it. */
export function onPrefChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The classes on <body> that the stylesheet reads: four-colour suits, large cards. */
export function applyPrefs() {
  document.body.classList.toggle("four-colour", pref("four_colour"));
  document.body.classList.toggle("large-cards", pref("large_cards"));
}
