// The page's words in the player's language (docs/translating.md). The translations come
// from the server's catalogs as JSON (GET /api/language/<lang>, made by the same gettext
// catalogs as the server's texts): this file only looks them up, picks a plural form with
// Intl.PluralRules and the catalog's category map, and fills {fields} in. The catalog also
// brings every rank and card word the page shows (`cards`, made on the server from
// i18n/cards.py), in English too: the page holds no card words of its own (see cards.js).
//
//   _("Your turn")
//   _("{name} joined the game.", { name: friend })
//   ngettext("{n} card", "{n} cards", count)          // {n} is filled with the count
//   pgettext("button", "Deal")                         // a context for short, ambiguous words
//   const GAME_OVER = N_("The game is over.")          // marked now, translated at use: _(GAME_OVER)
//
// Babel extracts the plain string literals inside these calls (babel.cfg): never a template
// literal or a string built with +.

/** The languages the game speaks, by their own names: a copy of the server's LANGUAGE_NAMES
 * (GET /api/language lists them), for a page that cannot reach the server. */
export const LANGUAGE_NAMES = {
  en: "English",
  it: "Italiano",
  ru: "Русский",
  pt: "Português",
  fr: "Français",
  nl: "Nederlands",
};
export const LANGUAGES = Object.keys(LANGUAGE_NAMES);
const SEPARATOR = "\x04";

let language = "en";
let messages = {};
let categories = { one: 0, other: 1 };
let pluralRules = new Intl.PluralRules("en");
let numbers = new Map();
let cards = null;
const listeners = new Set();

/** The language the page speaks now ("en", "it", ...). */
export function currentLanguage() {
  return language;
}

/** The supported language of a code ("pt-BR", "RU", "it_IT"), or null. */
export function normaliseLanguage(code) {
  if (!code || typeof code !== "string") return null;
  const primary = code.trim().replace("_", "-").split("-")[0].toLowerCase();
  return LANGUAGES.includes(primary) ? primary : null;
}

/** The browser's preferred language among ours (navigator.languages), else English. */
export function browserLanguage() {
  const asked = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const code of asked) {
    const found = normaliseLanguage(code);
    if (found) return found;
  }
  return "en";
}

function fill(text, fields) {
  if (!fields) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!Object.prototype.hasOwnProperty.call(fields, name)) return whole;
    const value = fields[name];
    return typeof value === "number" ? formatNumber(value) : String(value);
  });
}

function lookup(key) {
  return Object.prototype.hasOwnProperty.call(messages, key) ? messages[key] : undefined;
}

/** `message` in the page's language, its {fields} filled from `fields`. */
export function _(message, fields) {
  const found = lookup(message);
  return fill(typeof found === "string" && found ? found : message, fields);
}

/** The card words of the page's language from its catalog ({ranks, values, cards}), or null
 * while no catalog could be read. */
export function cardWords() {
  return cards;
}

/** `_` for a short text whose meaning needs a context ("rank", "button" ...). */
export function pgettext(context, message, fields) {
  const found = lookup(context + SEPARATOR + message);
  return fill(typeof found === "string" && found ? found : message, fields);
}

function pluralForm(key, singular, plural, n) {
  const forms = lookup(key);
  if (Array.isArray(forms) && forms.length && forms.every(Boolean)) {
    const category = pluralRules.select(Math.abs(n));
    const index = categories[category] ?? categories.other ?? forms.length - 1;
    return forms[Math.min(index, forms.length - 1)];
  }
  return n === 1 ? singular : plural;
}

/** The form for `n` ("1 card", "2 cards"; Russian has three); {n} is filled with `n`. */
export function ngettext(singular, plural, n, fields = {}) {
  return fill(pluralForm(singular, singular, plural, n), { n, ...fields });
}

/** `ngettext` with a context. */
export function npgettext(context, singular, plural, n, fields = {}) {
  return fill(pluralForm(context + SEPARATOR + singular, singular, plural, n), { n, ...fields });
}

/** Marks `message` for the catalogs without translating it: translate it where shown. */
export function N_(message) {
  return message;
}

/** `N_` with a context: marks `message` for `pgettext(context, message)`. */
export function NP_(context, message) {
  return message;
}

/** A number written the language's way (1,234 / 1.234 / 1 234). */
export function formatNumber(value, options = {}) {
  const key = JSON.stringify(options);
  let format = numbers.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, options);
    numbers.set(key, format);
  }
  return format.format(value);
}

/** Call `listener(language)` after every change of language; returns a function that stops it. */
export function onLanguageChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Speak `code` (a supported language; anything else means English): fetch its catalog from
 * the server (English has one too, for its card words) and set <html lang>. Resolves with the
 * language spoken; when the catalog cannot be fetched the page keeps its English texts, never
 * blank ones, and the card words it last read (see cards.js for a page that read none).
 */
export async function setLanguage(code) {
  const chosen = normaliseLanguage(code) ?? "en";
  let data = { language: chosen, plural: { one: 0, other: 1 }, messages: {} };
  try {
    const response = await fetch(`/api/language/${chosen}`, { headers: { "Accept-Language": chosen } });
    if (response.ok) data = await response.json();
  } catch {
    // Offline: English until the catalog can be read.
  }
  language = chosen;
  messages = data.messages ?? {};
  cards = data.cards ?? cards;
  categories = data.plural ?? { one: 0, other: 1 };
  pluralRules = new Intl.PluralRules(chosen);
  numbers = new Map();
  document.documentElement.lang = chosen;
  for (const listener of listeners) listener(chosen);
  return chosen;
}
