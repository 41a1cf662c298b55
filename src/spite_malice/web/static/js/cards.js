// Playing cards drawn as SVG by our own code: faces (rank and suit symbols), backs, names.
//
// A card is a string in the project's notation: rank then suit, "7H", "TD", "KS" (see
// docs of the notation). Every card is a 100 x 140 SVG scaled by CSS. The top strip (the
// upper 20 %) holds the rank and suit side by side, so a fanned side stack that shows only
// that strip of each card still shows every card.

import { _, cardWords } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
export const SUITS = ["S", "H", "D", "C"];

const RANK_LABELS = { T: "10" };
const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

// The words of ranks and cards are the server's (i18n/cards.py), sent with the page's catalog
// (i18n.js cardWords): this file holds none. A page that could read no catalog at all (no
// server, nothing kept offline) names a card as it is printed ("10♥").

/** Suit outlines in a 100 x 100 box, centred on (50, 50). */
const SUIT_PATHS = {
  H:
    "M50 90 C44 82 8 58 8 32 C8 16 20 8 31 8 C41 8 47 14 50 22 " +
    "C53 14 59 8 69 8 C80 8 92 16 92 32 C92 58 56 82 50 90 Z",
  D: "M50 4 C60 20 74 37 88 50 C74 63 60 80 50 96 C40 80 26 63 12 50 C26 37 40 20 50 4 Z",
  S:
    "M50 6 C57 20 92 38 92 60 C92 74 81 81 71 81 C63 81 57 77 54 72 " +
    "C55 82 59 89 67 94 L33 94 C41 89 45 82 46 72 C43 77 37 81 29 81 " +
    "C19 81 8 74 8 60 C8 38 43 20 50 6 Z",
  C:
    "M50 6 C62 6 70 15 70 26 C70 33 67 38 63 42 C67 40 70 39 74 39 " +
    "C85 39 93 48 93 59 C93 70 85 79 74 79 C65 79 58 74 54 67 " +
    "C55 80 59 88 67 94 L33 94 C41 88 45 80 46 67 C42 74 35 79 26 79 " +
    "C15 79 7 70 7 59 C7 48 15 39 26 39 C30 39 33 40 37 42 " +
    "C33 38 30 33 30 26 C30 15 38 6 50 6 Z",
};

/** Pip centres of the number cards, in card coordinates; pips below the middle are turned. */
const L = 31;
const M = 50;
const R = 69;
const PIPS = {
  2: [[M, 42], [M, 98]],
  3: [[M, 42], [M, 70], [M, 98]],
  4: [[L, 42], [R, 42], [L, 98], [R, 98]],
  5: [[L, 42], [R, 42], [M, 70], [L, 98], [R, 98]],
  6: [[L, 42], [R, 42], [L, 70], [R, 70], [L, 98], [R, 98]],
  7: [[L, 42], [R, 42], [M, 56], [L, 70], [R, 70], [L, 98], [R, 98]],
  8: [[L, 42], [R, 42], [M, 56], [L, 70], [R, 70], [M, 84], [L, 98], [R, 98]],
  9: [[L, 42], [R, 42], [L, 61], [R, 61], [M, 70], [L, 79], [R, 79], [L, 98], [R, 98]],
  T: [[L, 42], [R, 42], [M, 52], [L, 61], [R, 61], [L, 79], [R, 79], [M, 88], [L, 98], [R, 98]],
};

/** Parse a card of the notation; returns {rank, suit} or null when it is not a card. */
export function parseCard(code) {
  if (typeof code !== "string" || code.length !== 2) return null;
  const rank = code[0].toUpperCase();
  const suit = code[1].toUpperCase();
  if (!RANKS.includes(rank) || !SUITS.includes(suit)) return null;
  return { rank, suit };
}

/** The rank of a card as a number, 1 (Ace) to 13 (King). */
export function rankValue(code) {
  return RANKS.indexOf(code[0].toUpperCase()) + 1;
}

/** "Seven of hearts", "Queen of spades", "Ten of diamonds" in the page's language. */
export function cardName(code) {
  const card = parseCard(code);
  if (!card) return _("unknown card");
  const name = cardWords()?.cards?.[SUITS.indexOf(card.suit)]?.[RANKS.indexOf(card.rank)];
  return name ?? `${RANK_LABELS[card.rank] ?? card.rank}${SUIT_SYMBOLS[card.suit]}`;
}

/** "Ace", "Seven", "Jack": the name of a rank or a center stack's value 1..13. */
export function valueName(value) {
  return cardWords()?.ranks?.[value - 1] ?? (valueLabel(value) || String(value));
}

/** "an Ace", "a five", "a Jack": a value 1..13 with its article. */
export function aValue(value) {
  return cardWords()?.values?.[value - 1] ?? (valueLabel(value) || String(value));
}

/** The short label of a value as printed on a card: "A", "7", "10", "J", "Q". */
export function valueLabel(value) {
  const rank = RANKS[value - 1];
  return RANK_LABELS[rank] ?? rank;
}

export function isRed(code) {
  const suit = code[1].toUpperCase();
  return suit === "H" || suit === "D";
}

function el(name, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  for (const child of children) node.append(child);
  return node;
}

function suitShape(suit, cx, cy, size, turned = false) {
  const scale = size / 100;
  const rotate = turned ? ` rotate(180 50 50)` : "";
  return el("path", {
    d: SUIT_PATHS[suit],
    transform: `translate(${cx - size / 2} ${cy - size / 2}) scale(${scale})${rotate}`,
  });
}

function text(x, y, content, attrs = {}) {
  const node = el("text", { x, y, ...attrs });
  node.textContent = content;
  return node;
}

/** The rank and suit of a corner: rank then a small suit, side by side. */
function cornerIndex(rank, suit) {
  const label = RANK_LABELS[rank] ?? rank;
  const wide = label.length > 1;
  return el("g", { class: "card-index" }, [
    text(wide ? 4 : 7, 25, label, {
      "font-size": 26,
      "font-weight": 700,
      "letter-spacing": wide ? -2.5 : 0,
      textLength: wide ? 27 : undefined,
    }),
    suitShape(suit, wide ? 41 : rank === "J" ? 26 : 33, 16, 16),
  ].filter(Boolean));
}

function faceArt(rank, suit) {
  const group = el("g", { class: "card-art" });
  if (rank === "A") {
    group.append(suitShape(suit, 50, 72, 46));
    return group;
  }
  if (PIPS[rank]) {
    const size = rank === "9" || rank === "T" ? 15 : 17;
    for (const [x, y] of PIPS[rank]) group.append(suitShape(suit, x, y, size, y > 72));
    return group;
  }
  // Jack, Queen, King: a framed panel with the letter, the suit and a mark of the rank.
  const king = rank === "K";
  group.append(
    el("rect", {
      x: 17, y: 33, width: 66, height: 74, rx: 6,
      class: king ? "card-panel card-panel-king" : "card-panel",
    }),
  );
  group.append(text(50, 84, rank, { "font-size": 40, "font-weight": 700, "text-anchor": "middle", class: "card-letter" }));
  group.append(suitShape(suit, 50, 97, 13));
  if (king) {
    group.append(
      el("path", {
        d: "M33 52 L36 38 L43 46 L50 35 L57 46 L64 38 L67 52 Z",
        class: "card-crown",
      }),
    );
  } else if (rank === "Q") {
    group.append(el("circle", { cx: 50, cy: 44, r: 5, class: "card-crown" }));
    group.append(el("path", { d: "M38 50 Q50 40 62 50", class: "card-crown-line" }));
  } else {
    group.append(el("path", { d: "M40 48 L50 38 L60 48 Z", class: "card-crown" }));
  }
  return group;
}

/** An SVG face of the card `code`, labelled with its name for assistive technology. */
export function cardFace(code, { label = null } = {}) {
  const card = parseCard(code);
  if (!card) throw new Error(`not a card: ${code}`);
  const color = isRed(code) ? "card-red" : "card-black";
  const svg = el("svg", {
    viewBox: "0 0 100 140",
    class: `card-svg card-face ${color} card-suit-${card.suit}`,
    role: "img",
    "aria-label": label ?? cardName(code),
    "data-card": `${card.rank}${card.suit}`,
  });
  svg.append(el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "card-bg" }));
  svg.append(cornerIndex(card.rank, card.suit));
  const bottom = cornerIndex(card.rank, card.suit);
  bottom.setAttribute("transform", "rotate(180 50 70)");
  svg.append(bottom);
  svg.append(faceArt(card.rank, card.suit));
  return svg;
}

/** The back of a card: a lattice in a frame. */
export function cardBack({ label = null } = {}) {
  ensureDefs();
  const svg = el("svg", {
    viewBox: "0 0 100 140",
    class: "card-svg card-back",
    role: "img",
    "aria-label": label ?? _("face-down card"),
  });
  svg.append(el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "card-back-bg" }));
  svg.append(el("rect", {
    x: 8, y: 8, width: 84, height: 124, rx: 5, fill: "url(#sm-back-lattice)", class: "card-back-field",
  }));
  svg.append(el("rect", { x: 8, y: 8, width: 84, height: 124, rx: 5, class: "card-back-frame" }));
  svg.append(
    el("path", { d: "M50 52 L64 70 L50 88 L36 70 Z", class: "card-back-emblem" }),
  );
  return svg;
}

let defsAdded = false;

/** The shared pattern of the card backs, added once to the document. */
function ensureDefs() {
  if (defsAdded || document.getElementById("sm-card-defs")) {
    defsAdded = true;
    return;
  }
  const svg = el("svg", {
    // out of sight by a class: the page's Content Security Policy refuses style attributes
    id: "sm-card-defs", class: "sm-card-defs", width: 0, height: 0, "aria-hidden": "true",
  });
  const pattern = el("pattern", {
    id: "sm-back-lattice", width: 12, height: 12, patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)",
  });
  pattern.append(el("rect", { width: 12, height: 12, class: "card-back-tile" }));
  pattern.append(el("path", { d: "M0 6 H12 M6 0 V12", class: "card-back-lines" }));
  svg.append(el("defs", {}, [pattern]));
  document.body.prepend(svg);
  defsAdded = true;
}
