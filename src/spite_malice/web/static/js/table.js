// The table: draws one seat's view of a game (the `state` of web-protocol 4.1) as piles of
// SVG cards. It only draws; input.js reacts to clicks, drags and keys on the nodes it makes.
//
// Every place a move can name carries data attributes:
//   data-source="P" | "H7" | "S1".."S4"   my pay-off top, a hand card, my side stack top
//   data-target="C1".."C4" | "S1".."S4"   a center stack; my side stack (a picked hand card
//                                         tapped or dropped there is discarded)
//   data-stack="S1".."S4"                 my side stack
//   data-opp="P" | "H" | "S1".."S4"       the opponent's piles (for the animations)
//   data-key                              a stable name, to keep keyboard focus on redraws

import { aValue, cardBack, cardFace, cardName, rankValue, valueLabel } from "./cards.js";
import { h } from "./dom.js";
import { _, formatNumber, ngettext, pgettext } from "./i18n.js";
import { handSource } from "./moves.js";

/** A card node: a face or a back inside a positioned box. */
function cardNode(card, { label = null, className = "" } = {}) {
  const svg = card ? cardFace(card) : cardBack();
  svg.setAttribute("aria-hidden", "true");
  const node = h("div", { class: `card ${className}`.trim(), dataset: card ? { card } : {} }, svg);
  if (label) node.setAttribute("aria-label", label);
  return node;
}

function emptySlot(text) {
  return h("div", { class: "card card-empty", "aria-hidden": "true" }, h("span", {}, text));
}

function caption(...parts) {
  return h("div", { class: "pile-caption" }, ...parts);
}

function countBadge(count, label) {
  return h("span", { class: "count-badge", "aria-hidden": "true", title: label }, formatNumber(count));
}

/** A pile that can be focused and picked: role button, keyboard focus, a full label. */
function actionable(node, { key, label }) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.dataset.key = key;
  return node;
}

function payoffPile(view, { mine, name }) {
  const count = view.payoff_count;
  const top = view.payoff_top;
  const fields = { name, card: top ? cardName(top) : "" };
  let label;
  if (count && mine) label = ngettext("Your pay-off pile: {card} on top, {n} card", "Your pay-off pile: {card} on top, {n} cards", count, fields);
  else if (count) label = ngettext("{name}'s pay-off pile: {card} on top, {n} card", "{name}'s pay-off pile: {card} on top, {n} cards", count, fields);
  else label = mine ? _("Your pay-off pile: empty") : _("{name}'s pay-off pile: empty", fields);
  const stackDepth = Math.min(count - 1, 3);
  const pile = h(
    "div",
    { class: "pile payoff", dataset: { depth: String(Math.max(stackDepth, 0)) } },
    count ? cardNode(top) : emptySlot(pgettext("pile", "empty")),
    count ? countBadge(count, _("cards in the pay-off pile")) : null,
  );
  if (mine) {
    pile.dataset.source = "P";
    actionable(pile, { key: "P", label });
  } else {
    pile.dataset.opp = "P";
    pile.setAttribute("role", "img");
    pile.setAttribute("aria-label", label);
  }
  // The caption may take two lines where the language's word is long (Dutch "pay-offstapel").
  const words = h("div", { class: "pile-caption caption-payoff" }, pgettext("caption", "Pay-off"));
  return h("div", { class: "pile-wrap" }, pile, words);
}

function sideStack(cards, index, { mine, name }) {
  const place = `S${index + 1}`;
  const names = cards.map(cardName);
  const fields = { name, side: index + 1, cards: names.join(", ") };
  let label;
  if (cards.length && mine) {
    label = ngettext("Your side stack {side}, {n} card, bottom to top: {cards}",
      "Your side stack {side}, {n} cards, bottom to top: {cards}", cards.length, fields);
  } else if (cards.length) {
    label = ngettext("{name}'s side stack {side}, {n} card, bottom to top: {cards}",
      "{name}'s side stack {side}, {n} cards, bottom to top: {cards}", cards.length, fields);
  } else {
    label = mine ? _("Your side stack {side}: empty", fields) : _("{name}'s side stack {side}: empty", fields);
  }
  // A tall stack squeezes its fan into the room the table keeps for it (fit.js).
  const fan = h("div", {
    class: "pile side-stack fan",
    style: { "--n": String(Math.max(cards.length, 1)), "--n1": String(Math.max(cards.length - 1, 1)) },
  });
  if (cards.length === 0) fan.append(emptySlot(""));
  cards.forEach((card, i) => {
    const node = cardNode(card, { className: i === cards.length - 1 ? "fan-top" : "" });
    node.style.setProperty("--i", String(i));
    fan.append(node);
  });
  if (!mine) {
    fan.dataset.opp = place;
    fan.setAttribute("role", "img");
    fan.setAttribute("aria-label", label);
    return h("div", { class: "pile-wrap side-wrap" }, fan);
  }
  // My side stack: a tap picks its top card; with a hand card picked, the stacks light up
  // and a tap on one discards onto it (one deliberate tap ends the turn; the "confirm
  // discards" setting asks first). A drop of a hand card there discards too.
  fan.dataset.source = place;
  fan.dataset.stack = place;
  fan.dataset.target = place;
  actionable(fan, { key: place, label });
  return h("div", { class: "pile-wrap side-wrap" }, fan);
}

// What the stack takes next (`takes`, a rank 1..12) and how many cards it lacks to complete
// (`left`) come with the observation (center_takes, center_left): the page works out no rule.
function centerStack(cards, index, takes, left) {
  const place = `C${index + 1}`;
  const value = cards.length;
  const top = cards[value - 1];
  const needs = takes;
  const kingOnTop = top && top[0] === "K";
  let label;
  if (!top) label = _("Center stack {center}: empty, takes an Ace", { center: index + 1 });
  else {
    const fields = { center: index + 1, card: cardName(top), value: aValue(value), next: aValue(needs) };
    // TRANSLATORS: {card} a card's name, {value} what a King stands for ("a five"), {next} the value the stack takes next
    label = kingOnTop
      ? ngettext("Center stack {center}: {card} standing for {value} on top, {n} card, takes {next} next",
        "Center stack {center}: {card} standing for {value} on top, {n} cards, takes {next} next", value, fields)
      : ngettext("Center stack {center}: {card} on top, {n} card, takes {next} next",
        "Center stack {center}: {card} on top, {n} cards, takes {next} next", value, fields);
  }
  const pile = h(
    "div",
    { class: "pile center-stack", dataset: { target: place, depth: String(Math.min(value - 1, 3)) } },
    top ? cardNode(top) : emptySlot(""),
    kingOnTop
      ? h("span", { class: "king-badge", "aria-hidden": "true", title: _("King standing for {value}", { value: aValue(value) }) },
        "= ", valueLabel(value))
      : null,
  );
  actionable(pile, { key: place, label });
  const next = left > 0 ? _("next {label}", { label: valueLabel(needs) }) : "";
  return h("div", { class: "pile-wrap" }, pile,
    caption(h("span", { class: "caption-name" }, _("Center {n}", { n: index + 1 })),
      next ? h("span", { class: "caption-next" }, h("span", { class: "caption-dot" }, " · "), next) : null));
}

function stockPile(count) {
  const label = ngettext("Stock: {n} card", "Stock: {n} cards", count);
  const pile = h(
    "div",
    { class: "pile stock", role: "img", "aria-label": label, dataset: { depth: String(Math.min(count - 1, 3)) } },
    count ? cardNode(null) : emptySlot(pgettext("pile", "empty")),
    count ? countBadge(count, _("cards in the stock")) : null,
  );
  pile.dataset.stock = "";
  return h("div", { class: "pile-wrap" }, pile, caption(pgettext("caption", "Stock")));
}

function opponentHand(count, name) {
  const backs = [];
  for (let i = 0; i < count; i++) backs.push(cardNode(null, { className: "mini" }));
  return h(
    "div",
    {
      class: "opp-hand",
      role: "img",
      "aria-label": ngettext("{name}'s hand: {n} card, face down", "{name}'s hand: {n} cards, face down", count, { name }),
      dataset: { opp: "H" },
    },
    ...backs,
    count === 0 ? h("span", { class: "muted" }, _("no cards")) : null,
  );
}

function myHand(cards) {
  const row = h("div", { class: "hand", role: "group", "aria-label": _("Your hand") });
  cards.forEach((card, i) => {
    const node = cardNode(card);
    node.classList.add("hand-card");
    node.dataset.source = handSource(card);
    node.dataset.position = String(i + 1);
    actionable(node, { key: `hand-${i + 1}-${card}`, label: _("{card}, hand card {n}", { card: cardName(card), n: i + 1 }) });
    row.append(node);
  });
  if (cards.length === 0) row.append(h("span", { class: "muted hand-empty" }, _("Your hand is empty")));
  return row;
}

/** Sort a hand for display: by rank, Kings last (the server sends it sorted by card id). */
function sortedHand(hand) {
  return [...hand].sort((a, b) => rankValue(a) - rankValue(b) || a.localeCompare(b));
}

/**
 * Draw the table for `state` into `root`.
 * @param names {me: string, opponent: string}
 */
export function renderTable(root, state, names) {
  const obs = state.observation;
  const me = obs.seat;
  const opp = 1 - me;
  const mine = obs.players[me];
  const theirs = obs.players[opp];
  const focusedKey = document.activeElement?.closest?.("[data-key]")?.dataset.key;
  const oppActive = !obs.outcome && obs.to_move === opp && !names.waiting;
  const meActive = !obs.outcome && obs.to_move === me && !names.waiting;

  const oppSeat = h(
    "section",
    { class: "seat seat-opponent", "aria-label": _("{name}'s cards", { name: names.opponent }) },
    h("div", { class: "seat-head" },
      h("span", { class: `seat-name${oppActive ? " is-active" : ""}`, id: "opponent-name" },
        oppActive ? _("{name} · to play", { name: names.opponent }) : names.opponent,
        h("span", { class: "presence", id: "opponent-presence" })),
      opponentHand(theirs.hand_count, names.opponent)),
    h("div", { class: "seat-row" },
      payoffPile(theirs, { mine: false, name: names.opponent }),
      h("div", { class: "side-stacks" },
        theirs.side.map((cards, i) => sideStack(cards, i, { mine: false, name: names.opponent })))),
  );
  const middle = h(
    "section",
    { class: "middle", "aria-label": _("Center of the table") },
    stockPile(obs.stock_count),
    h("div", { class: "center-stacks", style: { "--centers": String(obs.center.length) } },
      obs.center.map((cards, i) => centerStack(cards, i, obs.center_takes[i], obs.center_left[i]))),
  );
  const mySeat = h(
    "section",
    { class: "seat seat-me", "aria-label": _("Your cards") },
    h("div", { class: "seat-head seat-head-me" },
      h("span", { class: `seat-name${meActive ? " is-active" : ""}` }, meActive ? _("You · your turn") : _("You"))),
    h("div", { class: "seat-row" },
      payoffPile(mine, { mine: true, name: _("You") }),
      h("div", { class: "side-stacks" },
        mine.side.map((cards, i) => sideStack(cards, i, { mine: true, name: _("You") })))),
    myHand(sortedHand(obs.hand)),
  );
  root.replaceChildren(oppSeat, middle, mySeat);
  root.dataset.centers = String(obs.center.length);
  // Waiting for a friend (the invitation covers the table), nothing is played yet: the piles
  // are pictures, not buttons.
  if (names.waiting) {
    for (const node of root.querySelectorAll('[role="button"]')) {
      node.setAttribute("role", "img");
      node.removeAttribute("tabindex");
    }
  }

  if (focusedKey) {
    const again = root.querySelector(`[data-key="${CSS.escape(focusedKey)}"]`)
      ?? root.querySelector(`[data-key^="${CSS.escape(focusedKey.split("-").slice(0, 2).join("-"))}"]`);
    again?.focus({ preventScroll: true });
  }
}

/**
 * Light up what can be done: sources with legal moves, the selected source, its targets,
 * and a hinted move.
 */
export function highlight(root, { movable, selected, targets, hint }) {
  const handPick = Boolean(selected?.dataset.source?.startsWith("H"));
  for (const node of root.querySelectorAll("[data-source], [data-target]")) {
    const source = node.dataset.source;
    const target = node.dataset.target;
    node.classList.toggle("is-movable", Boolean(source && movable.has(source)));
    node.classList.toggle("is-selected", node === selected);
    node.classList.toggle("is-target", Boolean(target && targets.includes(target)));
    node.classList.toggle(
      "is-hint",
      Boolean(hint && ((source && source === hint.source) || (target && target === hint.target))),
    );
    node.setAttribute("aria-pressed", node === selected ? "true" : "false");
  }
  root.classList.toggle("has-selection", Boolean(selected));
  root.classList.toggle("has-hand-pick", handPick);
}

/** The node of a place, for animations: my places by move notation, or the opponent's. */
export function placeNode(root, place, { opponent }) {
  if (opponent && !place.startsWith("C")) {
    const key = place.startsWith("H") ? "H" : place;
    return root.querySelector(`[data-opp="${key}"]`);
  }
  if (place.startsWith("C")) return root.querySelector(`[data-target="${place}"]`);
  return root.querySelector(`[data-source="${place}"]`);
}
