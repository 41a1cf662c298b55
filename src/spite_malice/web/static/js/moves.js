// Moves in the project's notation, SOURCE-TARGET ("P-C2", "H7-C1", "S3-C2", "HK-S1"), and
// the words the page uses for them.

import { cardName, valueName } from "./cards.js";

/** Split a move into its source and target: "H7-C1" -> {source: "H7", target: "C1"}. */
export function splitMove(move) {
  const [source, target] = move.toUpperCase().split("-");
  return { source, target };
}

/** The source of a hand card in a move: "7H" -> "H7". */
export function handSource(card) {
  return "H" + card[0].toUpperCase();
}

/** Legal moves grouped by source: Map("H7" -> ["C1", "S1", ...]). */
export function movesBySource(legalMoves) {
  const map = new Map();
  for (const move of legalMoves ?? []) {
    const { source, target } = splitMove(move);
    if (!map.has(source)) map.set(source, []);
    map.get(source).push(target);
  }
  return map;
}

/** "center stack 2", "side stack 3", "pay-off pile", "hand". */
export function placeName(place) {
  if (place === "P") return "pay-off pile";
  if (place.startsWith("H")) return "hand";
  if (place.startsWith("C")) return `center stack ${place.slice(1)}`;
  if (place.startsWith("S")) return `side stack ${place.slice(1)}`;
  return place;
}

const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** A short card text for the log: "7♥", "10♦". */
export function cardShort(card) {
  const rank = card[0] === "T" ? "10" : card[0];
  return rank + SUIT_SYMBOLS[card[1]];
}

/**
 * One event of the protocol (web-protocol 4.4) as a sentence, naming players by `who(seat)`.
 * Returns null for events the log leaves out.
 */
export function describeEvent(event, who) {
  const subject = (seat, verb) => `${who(seat)} ${verb}${verbS(who(seat))}`;
  switch (event.kind) {
    case "dealt":
      return `New game: ${who(event.first)} start${verbS(who(event.first))}.`;
    case "built": {
      const from = event.source === "P"
        ? "the pay-off pile"
        : event.source === "H" ? "the hand" : `side stack ${event.source.slice(1)}`;
      const king = event.card[0] === "K" ? ` as ${withArticle(valueName(event.value))}` : "";
      return `${subject(event.player, "build")} ${cardShort(event.card)}${king} from ${from} ` +
        `on center ${event.center + 1}.`;
    }
    case "discarded":
      return `${subject(event.player, "discard")} ${cardShort(event.card)} on side stack ${event.side + 1}.`;
    case "cards_drawn": {
      const cards = event.cards?.length ? `: ${event.cards.map(cardShort).join(" ")}` : "";
      const n = event.count === 1 ? "1 card" : `${event.count} cards`;
      return `${who(event.player)} draw${verbS(who(event.player))} ${n}${cards}.`;
    }
    case "payoff_turned":
      return `${who(event.player)} turn${verbS(who(event.player))} up ${cardShort(event.card)} on the pay-off pile.`;
    case "stack_completed":
      return `Center ${event.center + 1} is complete: its ${event.cards.length} cards are shuffled into the stock.`;
    case "turn_ended":
      return null;
    case "game_won":
      return `${subject(event.player, "win")} the game, scoring ${plural(event.points, "point")}.`;
    case "game_drawn":
      return `The game is drawn: ${event.reason}.`;
    default:
      return event.text ?? null;
  }
}

/** "an Ace", "an 8", "a 7". */
export function withArticle(word) {
  return /^(Ace|8)$/.test(word) ? `an ${word}` : `a ${word}`;
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** "You build" but "Easy builds". */
function verbS(name) {
  return name === "You" ? "" : "s";
}

/** The accessible name of a card when it is a source in a move. */
export function sourceLabel(source, card) {
  const name = card ? cardName(card) : "";
  if (source === "P") return `Your pay-off pile: ${name}`;
  if (source.startsWith("S")) return `Your side stack ${source.slice(1)}: ${name}`;
  return name;
}
