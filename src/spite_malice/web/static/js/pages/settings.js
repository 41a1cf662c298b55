// The Settings page: the player's name, the rules of new matches, the computer level and
// the animation speed; stored per player by the server (web-protocol 2.3).

import { api } from "../api.js";
import { h, replaceChildren } from "../dom.js";
import { pref, setPref } from "../prefs.js";
import { savePlayerName } from "../store.js";

/** The table's own options: kept by this browser, applied at once (prefs.js). */
const TABLE_PREFS = [
  ["sound", "Sound effects"],
  ["confirm_discards", "Ask before a discard ends my turn"],
  ["four_colour", "Four-colour suits (hearts red, diamonds blue, clubs green, spades black)"],
  ["large_cards", "Large cards"],
  ["log_notation", "Show each move's notation in the move log"],
  ["notify", "Notify me when it is my turn and this tab is in the background"],
];

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
          status.textContent = "The browser did not allow notifications; the tab title still shows your turn.";
          return;
        }
      }
      setPref(name, input.checked);
      status.textContent = "Saved on this device.";
    },
  });
  return h("div", { class: "field field-check" }, input, h("label", { for: id }, label));
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
      status.textContent = "Saved on this device.";
    },
  });
  return h("fieldset", {},
    h("legend", {}, "Table and sound (this device)"),
    TABLE_PREFS.map(([name, label]) => prefCheck(name, label, status)),
    h("div", { class: "field" }, h("label", { for: "pref-volume" }, "Volume"), volume),
    status);
}

const FIRST_PLAYER_LABELS = {
  higher_card: "the higher pay-off card",
  alternate: "players take turns",
  loser: "the loser of the last game",
};

/** "Standard · pay-off 20 · first to 50" for the lobby. */
export function rulesSummary(settings, config) {
  if (!settings) return "standard";
  const defaults = config?.rules_defaults ?? {};
  const rules = { ...defaults, ...(settings.rules ?? {}) };
  const name = capitalise(settings.preset ?? matchingPreset(rules, config) ?? "custom");
  const parts = [name, `pay-off ${rules.payoff_size}`, `first to ${rules.match_target}`];
  if (rules.center_stacks && rules.center_stacks !== 3) parts.push(`${rules.center_stacks} center stacks`);
  if (rules.decks && rules.decks !== 2) parts.push(`${rules.decks} decks`);
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
      option.choices.map((c) => h("option", { value: c, selected: c === value }, FIRST_PLAYER_LABELS[c] ?? c)));
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
    Object.keys(presets).map((p) => h("option", { value: p, selected: chosen === p }, capitalise(p))),
    h("option", { value: "", selected: !chosen }, "Custom"));
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
  const speedGroup = h("div", { class: "speed-picker", role: "radiogroup", "aria-label": "Animation speed" },
    speeds.map((s) => h("label", { class: "pill-option" },
      h("input", {
        type: "radio", name: "animation_speed", value: s, checked: s === (settings.animation_speed ?? "normal"),
      }),
      h("span", {}, capitalise(s)))));

  const form = h("form", { class: "settings-form", id: "settings-form" },
    h("fieldset", {},
      h("legend", {}, "You"),
      h("div", { class: "field" },
        h("label", { for: "player-name" }, "Your name (statistics are kept per name)"), nameInput),
      h("div", { class: "field" }, h("label", { for: "default-level" }, "Computer level"), levelSelect)),
    h("fieldset", {},
      h("legend", {}, "Rules of new matches"),
      h("div", { class: "field" }, h("label", { for: "preset" }, "Preset"), presetSelect),
      fields,
      h("p", { class: "muted" }, "The rule numbers refer to the ", h("a", { href: "#/rules" }, "rules page"), ".")),
    h("fieldset", {},
      h("legend", {}, "Animation of the opponent's moves"),
      speedGroup),
    tablePrefs(),
    h("div", { class: "form-actions" },
      h("button", { class: "btn btn-primary", type: "submit", id: "save-settings" }, "Save")),
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
    status.textContent = "Saving…";
    try {
      savePlayerName(player && player !== app.defaultPlayer() ? player : null);
      app.settings = await api.saveSettings(body);
      status.textContent = "Saved. New matches use these rules.";
    } catch (error) {
      status.textContent = error.message;
    }
  });

  replaceChildren(mount, h("div", { class: "page settings" }, h("h1", {}, "Settings"), form));
}
