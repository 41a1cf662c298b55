// The Settings page: the language, the player's name, the rules of new matches, the computer
// level and the animation speed; stored per player by the server (web-protocol 2.3).

import { api } from "../api.js";
import { h, replaceChildren, withNodes } from "../dom.js";
import { _, currentLanguage, LANGUAGE_NAMES, N_, NP_, pgettext } from "../i18n.js";
import { pref, setPref } from "../prefs.js";
import { savePlayerName } from "../store.js";
import { renderAccount } from "../account.js";
import { offlineSetting } from "../../offline/settings.js";
import { pushSetting } from "../push.js";
import { emailSetting } from "../email.js";
import { nameSet } from "../welcome.js";

/** The table's own options: kept by this browser, applied at once (prefs.js). */
const TABLE_PREFS = [
  ["sound", N_("Sound effects")],
  ["confirm_discards", N_("Ask before a discard ends my turn")],
  ["four_colour", N_("Four-colour suits (hearts red, diamonds blue, clubs green, spades black)")],
  ["large_cards", N_("Large cards")],
  ["log_notation", N_("Show each move's notation in the move log")],
  ["notify", N_("Notify me when it is my turn and this tab is in the background")],
];

/** The presets and speeds by their names in the page's language (unknown ones as they are). */
const PRESET_NAMES = {
  standard: NP_("preset", "Standard"), quick: NP_("preset", "Quick"),
  custom: NP_("preset", "Custom"),
};
const SPEED_NAMES = {
  off: NP_("speed", "Off"), fast: NP_("speed", "Fast"), normal: NP_("speed", "Normal"), slow: NP_("speed", "Slow"),
};

function presetName(name) {
  return PRESET_NAMES[name] ? pgettext("preset", PRESET_NAMES[name]) : capitalise(name);
}

function speedName(name) {
  return SPEED_NAMES[name] ? pgettext("speed", SPEED_NAMES[name]) : capitalise(name);
}

function prefCheck(name, label, status) {
  const id = `pref-${name}`;
  const input = h("input", {
    type: "checkbox", id, name: id, checked: pref(name),
    onchange: async () => {
      if (name === "notify" && input.checked) {
        // Asked only now, when the player turns the option on.
        const granted = await askNotifications();
        if (!granted) {
          input.checked = false;
          status.textContent = _("The browser did not allow notifications; the tab title still shows your turn.");
          return;
        }
      }
      setPref(name, input.checked);
      status.textContent = _("Saved on this device.");
    },
  });
  return h("div", { class: "field field-check" }, input, h("label", { for: id }, _(label)));
}

async function askNotifications() {
  if (!("Notification" in window)) return false;
  if (Notification.permission === "granted") return true;
  try {
    return (await Notification.requestPermission()) === "granted";
  } catch {
    return false;
  }
}

function tablePrefs() {
  const status = h("p", { class: "form-status", id: "prefs-status", role: "status", "aria-live": "polite" });
  const volume = h("input", {
    type: "range", id: "pref-volume", min: 0, max: 100, step: 5, value: String(Math.round(pref("volume") * 100)),
    oninput: () => {
      setPref("volume", Number(volume.value) / 100);
      status.textContent = _("Saved on this device.");
    },
  });
  return h("fieldset", {},
    h("legend", {}, _("Table and sound (this device)")),
    TABLE_PREFS.map(([name, label]) => prefCheck(name, label, status)),
    h("div", { class: "field" }, h("label", { for: "pref-volume" }, _("Volume")), volume),
    status);
}

/**
 * The language of the page: the browser's, or one of the six by its own name. A change
 * applies at once (the page is drawn again in it, the server's texts follow) and is kept
 * with the player on the server.
 */
function languageField(app) {
  const chosen = app.chosenLanguage?.() ?? null;
  const select = h("select", {
    id: "language", name: "language", "aria-describedby": "language-status",
    onchange: async () => {
      select.disabled = true;
      await app.setLanguage(select.value || null);
      location.hash = "#/settings";
      window.dispatchEvent(new HashChangeEvent("hashchange")); // draw Settings again in the new language
    },
  },
  h("option", { value: "", selected: chosen === null }, _("The browser's language")),
  (app.languages ?? Object.entries(LANGUAGE_NAMES).map(([code, name]) => ({ code, name }))).map(({ code, name }) =>
    h("option", { value: code, lang: code, selected: chosen === code }, name)));
  return h("fieldset", {},
    h("legend", {}, _("Language")),
    h("div", { class: "field" }, h("label", { for: "language" }, _("Language of the game")), select),
    h("p", { class: "muted", id: "language-status", lang: currentLanguage() },
      _("The game speaks {language}.", { language: LANGUAGE_NAMES[currentLanguage()] })));
}

const FIRST_PLAYER_LABELS = {
  higher_card: N_("the higher pay-off card"),
  alternate: N_("players take turns"),
  loser: N_("the loser of the last game"),
};

/** "Standard · pay-off 20 · first to 50" for the lobby. */
export function rulesSummary(settings, config) {
  if (!settings) return pgettext("preset", "Standard");
  const defaults = config?.rules_defaults ?? {};
  const rules = { ...defaults, ...(settings.rules ?? {}) };
  const name = presetName(settings.preset ?? matchingPreset(rules, config) ?? "custom");
  const parts = [name, _("pay-off {n}", { n: rules.payoff_size }), _("first to {n}", { n: rules.match_target })];
  if (rules.center_stacks && rules.center_stacks !== 3) parts.push(_("{n} center stacks", { n: rules.center_stacks }));
  if (rules.decks && rules.decks !== 2) parts.push(_("{n} decks", { n: rules.decks }));
  return parts.join(" · ");
}

/** The name of the preset whose options are exactly `rules`, if any. */
function matchingPreset(rules, config) {
  const defaults = config?.rules_defaults ?? {};
  for (const [name, options] of Object.entries(config?.presets ?? {})) {
    const full = { ...defaults, ...options };
    if (Object.keys(full).every((key) => full[key] === rules[key])) return name;
  }
  return null;
}

function capitalise(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function optionField(option, value, onInput) {
  const id = `rule-${option.name}`;
  let input;
  if (option.type === "bool") {
    input = h("input", { type: "checkbox", id, name: option.name, checked: Boolean(value), onchange: onInput });
    return h("div", { class: "field field-check" }, input,
      h("label", { for: id }, option.label, h("span", { class: "rule-ref" }, ` ${option.rule}`)));
  }
  if (option.type === "choice") {
    input = h("select", { id, name: option.name, onchange: onInput },
      option.choices.map((c) => h("option", { value: c, selected: c === value },
        FIRST_PLAYER_LABELS[c] ? _(FIRST_PLAYER_LABELS[c]) : c)));
  } else {
    input = h("input", {
      type: "number", id, name: option.name, min: option.min, max: option.max, step: 1,
      value: String(value), required: true, oninput: onInput,
    });
  }
  return h("div", { class: "field" },
    h("label", { for: id }, option.label, h("span", { class: "rule-ref" }, ` ${option.rule}`)), input);
}

function readOption(form, option) {
  const input = form.elements.namedItem(option.name);
  if (option.type === "bool") return input.checked;
  if (option.type === "choice") return input.value;
  return Number(input.value);
}

export function renderSettings(mount, app) {
  const { config } = app;
  const settings = app.settings
    ?? { rules: {}, preset: "standard", level: config?.default_level, animation_speed: "normal" };
  const options = config?.rules_options ?? [];
  const presets = config?.presets ?? { standard: {} };
  const defaults = config?.rules_defaults ?? {};
  const status = h("p", { class: "form-status", id: "settings-status", role: "status", "aria-live": "polite" });

  const current = { ...defaults, ...(settings.rules ?? {}) };
  const chosen = settings.preset ?? matchingPreset(current, config);
  const presetSelect = h("select", { id: "preset", name: "preset" },
    Object.keys(presets).map((p) => h("option", { value: p, selected: chosen === p }, presetName(p))),
    h("option", { value: "", selected: !chosen }, presetName("custom")));
  const fields = h("div", { class: "rules-fields" });
  const drawFields = (values) => replaceChildren(fields, options.map((o) =>
    optionField(o, values[o.name] ?? o.default, () => (presetSelect.value = ""))));
  drawFields(current);
  presetSelect.addEventListener("change", () => {
    if (presetSelect.value) drawFields({ ...defaults, ...presets[presetSelect.value] });
  });

  const nameInput = h("input", {
    id: "player-name", name: "player", type: "text", value: app.player(), maxlength: 40, autocomplete: "nickname",
  });
  const levelSelect = h("select", { id: "default-level", name: "level" },
    (config?.levels ?? []).map((l) => h("option", { value: l.id, selected: l.id === settings.level }, l.name)));
  const speeds = config?.animation_speeds ?? ["off", "fast", "normal", "slow"];
  const speedGroup = h("div", { class: "speed-picker", role: "radiogroup", "aria-label": _("Animation speed") },
    speeds.map((s) => h("label", { class: "pill-option" },
      h("input", {
        type: "radio", name: "animation_speed", value: s, checked: s === (settings.animation_speed ?? "normal"),
      }),
      h("span", {}, speedName(s)))));

  const form = h("form", { class: "settings-form", id: "settings-form" },
    h("fieldset", {},
      h("legend", {}, _("You")),
      h("div", { class: "field" },
        h("label", { for: "player-name" }, _("Your name (statistics are kept per name)")), nameInput),
      h("div", { class: "field" }, h("label", { for: "default-level" }, _("Computer level")), levelSelect)),
    h("fieldset", {},
      h("legend", {}, _("Rules of new matches")),
      h("div", { class: "field" }, h("label", { for: "preset" }, _("Preset")), presetSelect),
      fields,
      h("p", { class: "muted" }, withNodes(_("The rule numbers refer to the {link}."), {
        // TRANSLATORS: a link to the rules page, in "The rule numbers refer to the {link}."
        link: h("a", { href: "#/rules" }, _("rules page")),
      }))),
    h("fieldset", {},
      h("legend", {}, _("Animation of the opponent's moves")),
      speedGroup),
    tablePrefs(),
    h("div", { class: "form-actions" },
      h("button", { class: "btn btn-primary", type: "submit", id: "save-settings" }, _("Save"))),
    status);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const player = nameInput.value.trim();
    const body = {
      player: player || app.defaultPlayer(),
      level: levelSelect.value || undefined,
      animation_speed: form.elements.namedItem("animation_speed").value,
    };
    if (presetSelect.value) body.preset = presetSelect.value;
    else {
      body.preset = null;
      body.rules = Object.fromEntries(options.map((o) => [o.name, readOption(form, o)]));
    }
    status.textContent = _("Saving…");
    try {
      savePlayerName(player && player !== app.defaultPlayer() ? player : null);
      app.settings = await api.saveSettings(body);
      app.pickedLevel = null; // the lobby shows the level saved here
      status.textContent = _("Saved. New matches use these rules.");
      nameSet();
    } catch (error) {
      status.textContent = error.message;
    }
  });

  replaceChildren(mount, h("div", { class: "page settings" }, h("h1", {}, _("Settings")), languageField(app), form));
  mount.querySelector(".page")?.append(offlineSetting());
  mount.querySelector(".page")?.append(pushSetting(), emailSetting());
  renderAccount(mount.querySelector(".page"));
}
