// What players read: moves, events, hints and refusals as plain sentences ("Medium builds
// the King of hearts on center stack 1, as a five."), made from the structured events and
// observations of the protocol (docs/web-protocol.md 4.1, 4.4). Notation stays in the move
// log, and only when the player asks for it (Settings).

import { cardName, parseCard, rankValue } from "./cards.js";
import { splitMove } from "./moves.js";

const VALUE_WORDS = [
  "", "Ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "Jack", "Queen", "King",
];

/** "five", "Jack", "Ace": the word of a value 1..13 (a center stack's value, a rank). */
export function valueWord(value) {
  return VALUE_WORDS[value] ?? String(value);
}

/** "an Ace", "an eight", "a five". */
export function article(word) {
  return /^(Ace|eight|eleven)$/i.test(word) ? `an ${word}` : `a ${word}`;
}

/** "the seven of clubs". */
export function theCard(code) {
  return `the ${cardName(code)}`;
}

/** The first letter in capitals: sentences start with one. */
export function capitalise(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** "You build" but "Medium builds". */
function verb(name, base) {
  if (name === "You") return base;
  return base.endsWith("sh") || base.endsWith("s") ? `${base}es` : `${base}s`;
}

function your(name) {
  return name === "You" ? "your" : "the";
}

function count(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function listCards(cards) {
  const names = cards.map(theCard);
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** Where a built card came from, for `who`: "from your hand", "from side stack 2". */
function fromWhere(source, name) {
  if (source === "P") return `from ${your(name)} pay-off pile`;
  if (source === "H") return `from ${your(name)} hand`;
  return `from side stack ${source.slice(1)}`;
}

/**
 * One event (web-protocol 4.4) as a sentence, players named by `who(seat)` ("You" for me).
 * Returns null for the events players need not read (the end of a turn).
 */
export function eventSentence(event, who) {
  const name = event.player === undefined || event.player === null ? "" : who(event.player);
  switch (event.kind) {
    case "dealt": {
      const first = who(event.first);
      return `A new game is dealt. ${first === "You" ? "You start" : `${first} starts`}.`;
    }
    case "built": {
      const king = event.card[0] === "K" ? `, as ${article(valueWord(event.value))}` : "";
      return `${name} ${verb(name, "build")} ${theCard(event.card)} ${fromWhere(event.source, name)} ` +
        `on center stack ${event.center + 1}${king}.`;
    }
    case "discarded":
      return `${name} ${verb(name, "discard")} ${theCard(event.card)} onto side stack ${event.side + 1}.`;
    case "cards_drawn": {
      const cards = event.cards?.length ? `: ${listCards(event.cards)}` : "";
      return `${name} ${verb(name, "draw")} ${count(event.count, "card")}${cards}.`;
    }
    case "payoff_turned":
      return `${name} ${verb(name, "turn")} up ${theCard(event.card)} on ${your(name)} pay-off pile.`;
    case "stack_completed":
      return `Center stack ${event.center + 1} is complete: its ${event.cards.length} cards go back into the stock.`;
    case "turn_ended":
      return null;
    case "game_won":
      return `${name} ${verb(name, "win")} the game and ${verb(name, "score")} ${count(event.points, "point")}.`;
    case "game_drawn":
      return `The game is a draw: ${drawReason(event.reason)}.`;
    default:
      return null;
  }
}

/** Why a game was drawn, in words (the engine's reasons are short phrases). */
export function drawReason(reason) {
  const text = String(reason ?? "");
  if (/stock/i.test(text)) return "the stock ran out";
  if (/turn/i.test(text)) return "the game reached its turn limit";
  return text || "nobody can win";
}

/** The sentence of a move: its build or discard event, else a plain fallback. */
export function moveSentence(events, who, seat) {
  const main = (events ?? []).find((e) => e.kind === "built" || e.kind === "discarded");
  if (main) return eventSentence(main, who);
  return `${who(seat)} ${who(seat) === "You" ? "move" : "moves"}.`;
}

/** The card a move's source shows in `obs` (my seat): the pay-off top, a side top, a hand card. */
export function sourceCard(source, obs) {
  const me = obs.players[obs.seat];
  if (source === "P") return me.payoff_top;
  if (source.startsWith("S")) return me.side[Number(source.slice(1)) - 1]?.at(-1) ?? null;
  if (source.startsWith("H")) return obs.hand.find((c) => c[0].toUpperCase() === source[1].toUpperCase()) ?? null;
  return null;
}

/** A move I could make, said as an instruction: "build the four of hearts from your hand on center stack 1". */
export function moveAdvice(move, obs, { first = true } = {}) {
  const { source, target } = splitMove(move);
  const card = first ? sourceCard(source, obs) : null;
  let what;
  if (card) what = theCard(card);
  else if (source === "P") what = "your next pay-off card";
  else if (source.startsWith("H")) what = article(valueWord(rankValue(source[1])));
  else what = `the top of side stack ${source.slice(1)}`;
  const from = source === "P" ? " from your pay-off pile"
    : source.startsWith("H") ? " from your hand"
      : ` from side stack ${source.slice(1)}`;
  if (target.startsWith("S")) return `discard ${what} onto side stack ${target.slice(1)}`;
  return `build ${what}${card || source.startsWith("H") ? from : ""} on center stack ${target.slice(1)}`;
}

/** The hint's text: the first move in full, the rest briefly, and the bots' reason. */
export function hintSentence(moves, reason, obs) {
  const [first, ...rest] = moves;
  let text = `Hint: ${moveAdvice(first, obs)}.`;
  if (rest.length) {
    text += ` Then ${rest.slice(0, 3).map((m) => moveAdvice(m, obs, { first: false })).join(", then ")}` +
      `${rest.length > 3 ? ", and so on" : ""}.`;
  }
  const why = String(reason ?? "").trim();
  if (why && !/reference|policy/i.test(why)) text += ` This ${why.replace(/;\s*/g, "; it ")}.`;
  return text;
}

/**
 * Why `move` is not allowed in `obs` (my turn), in words; null when it is allowed.
 * The page explains refusals itself, beside the card, without asking the server.
 */
export function explainIllegal(move, obs) {
  if (obs.legal_moves.includes(move)) return null;
  const { source, target } = splitMove(move);
  const card = sourceCard(source, obs);
  const what = card ? capitalise(theCard(card)) : "That card";
  if (target.startsWith("S")) {
    if (source === "P") return "Your pay-off card cannot be discarded: only hand cards go on side stacks.";
    if (source.startsWith("S")) return "The top of a side stack can only be built on a center stack.";
    return `${what} cannot be discarded there.`;
  }
  if (target.startsWith("C")) {
    const stack = obs.center[Number(target.slice(1)) - 1];
    if (!stack) return "There is no such center stack.";
    const needs = stack.length + 1;
    const parsed = card ? parseCard(card) : null;
    if (parsed?.rank === "K" && stack.length === 0) {
      return "A King cannot start a center stack in these rules: start it with an Ace.";
    }
    return `${what} cannot go on center stack ${target.slice(1)}: it needs ${article(valueWord(needs))}` +
      `${needs > 1 ? " (or a King)" : ""}.`;
  }
  return "That move is not allowed.";
}

/** The server's refusals (web-protocol 4.5) in words. */
const ERROR_TEXT = {
  not_your_turn: "It is not your turn yet.",
  busy: "Wait a moment: the computer is still playing.",
  game_over: "This game is over. Start the next one.",
  game_not_over: "Finish this game first.",
  match_over: "This match is over. Start a new match.",
  match_not_over: "A new match can start once this one is over.",
  no_undo: "There is nothing of this turn to take back.",
  not_available: "That is not available in this game.",
  waiting_for_opponent: "Wait for your friend to join first.",
  disconnected: "The connection was lost. Try again in a moment.",
  internal: "Something went wrong on the server. Try again.",
};

/** An `error` message or a failed request as a sentence for the player. */
export function errorText(error) {
  const code = error?.code;
  if (code === "illegal_move" || code === "bad_notation") return "That move is not allowed.";
  if (ERROR_TEXT[code]) return ERROR_TEXT[code];
  const message = String(error?.message ?? "").trim();
  // A sentence of the server, without notation, still reads well with a capital and a stop.
  if (message && !/\b[PHS][A2-9TJQK0-9]?-[CS]\d\b/i.test(message)) {
    return capitalise(message.endsWith(".") ? message : `${message}.`);
  }
  return "That did not work. Try again.";
}
