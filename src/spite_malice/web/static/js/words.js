// What players read: moves, events, hints and refusals as plain sentences ("Medium builds
// the King of hearts from the hand on center stack 1, as a five."), made from the structured
// events and observations of the protocol (docs/web-protocol.md 4.1, 4.4), in the page's
// language. Each case is one whole sentence with named fields (docs/translating.md): one
// message for "you" and one for another player, never a sentence built from pieces. Notation
// stays in the move log, and only when the player asks for it (Settings).

import { aValue, cardName, parseCard, rankValue } from "./cards.js";
import { _, currentLanguage, N_, ngettext } from "./i18n.js";
import { splitMove } from "./moves.js";

/** What `who(seat)` says for the player's own seat; shown as `_("You")` (see `displayName`). */
export const YOU = "You";

/** A name from `who(seat)` as the page shows it: "You" in the page's language, else the name. */
export function displayName(name) {
  return name === YOU ? _("You") : name;
}

/** The first letter in capitals: sentences start with one. */
export function capitalise(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** Cards in a list, the language's way ("Ace of spades, Two of hearts and Six of clubs"). */
export function listCards(cards) {
  const names = cards.map(cardName);
  try {
    return new Intl.ListFormat(currentLanguage(), { style: "long", type: "conjunction" }).format(names);
  } catch {
    return names.join(", ");
  }
}

/** A built card's sentence: who, from where (pay-off pile, hand, side stack), a King's value. */
function builtSentence(event, name) {
  const fields = { name, card: cardName(event.card), n: event.center + 1, side: event.source.slice(1) };
  const you = name === YOU;
  if (event.card[0] === "K") {
    fields.value = aValue(event.value);
    // TRANSLATORS: {card} is a card's name ("King of hearts"), {value} what the King stands for ("a five")
    if (event.source === "P" && you) return _("You build the {card} from your pay-off pile on center stack {n}, as {value}.", fields);
    if (event.source === "P") return _("{name} builds the {card} from the pay-off pile on center stack {n}, as {value}.", fields);
    if (event.source === "H" && you) return _("You build the {card} from your hand on center stack {n}, as {value}.", fields);
    if (event.source === "H") return _("{name} builds the {card} from the hand on center stack {n}, as {value}.", fields);
    if (you) return _("You build the {card} from side stack {side} on center stack {n}, as {value}.", fields);
    return _("{name} builds the {card} from side stack {side} on center stack {n}, as {value}.", fields);
  }
  // TRANSLATORS: {card} is a card's name ("Seven of hearts"), {n} a center stack's number
  if (event.source === "P" && you) return _("You build the {card} from your pay-off pile on center stack {n}.", fields);
  if (event.source === "P") return _("{name} builds the {card} from the pay-off pile on center stack {n}.", fields);
  if (event.source === "H" && you) return _("You build the {card} from your hand on center stack {n}.", fields);
  if (event.source === "H") return _("{name} builds the {card} from the hand on center stack {n}.", fields);
  if (you) return _("You build the {card} from side stack {side} on center stack {n}.", fields);
  return _("{name} builds the {card} from side stack {side} on center stack {n}.", fields);
}

function drawnSentence(event, name) {
  const count = event.count;
  const you = name === YOU;
  if (event.cards?.length) {
    const fields = { name, cards: listCards(event.cards) };
    // TRANSLATORS: {cards} is a list of card names ("Ace of spades and Two of hearts")
    if (you) return ngettext("You draw {n} card: {cards}.", "You draw {n} cards: {cards}.", count, fields);
    return ngettext("{name} draws {n} card: {cards}.", "{name} draws {n} cards: {cards}.", count, fields);
  }
  if (you) return ngettext("You draw {n} card.", "You draw {n} cards.", count);
  return ngettext("{name} draws {n} card.", "{name} draws {n} cards.", count, { name });
}

/**
 * One event (web-protocol 4.4) as a sentence, players named by `who(seat)` (`YOU` for me).
 * Returns null for the events players need not read (the end of a turn).
 */
export function eventSentence(event, who) {
  const name = event.player === undefined || event.player === null ? "" : who(event.player);
  const you = name === YOU;
  switch (event.kind) {
    case "dealt": {
      const first = who(event.first);
      if (first === YOU) return _("A new game is dealt. You start.");
      return _("A new game is dealt. {name} starts.", { name: first });
    }
    case "built":
      return builtSentence(event, name);
    case "discarded": {
      const fields = { name, card: cardName(event.card), n: event.side + 1 };
      // TRANSLATORS: {card} is a card's name ("Seven of hearts"), {n} a side stack's number
      if (you) return _("You discard the {card} onto side stack {n}.", fields);
      return _("{name} discards the {card} onto side stack {n}.", fields);
    }
    case "cards_drawn":
      return drawnSentence(event, name);
    case "payoff_turned": {
      const fields = { name, card: cardName(event.card) };
      if (you) return _("You turn up the {card} on your pay-off pile.", fields);
      return _("{name} turns up the {card} on the pay-off pile.", fields);
    }
    case "stack_completed":
      return ngettext(
        "Center stack {center} is complete: its {n} card goes back into the stock.",
        "Center stack {center} is complete: its {n} cards go back into the stock.",
        event.cards.length, { center: event.center + 1 });
    case "turn_ended":
      return null;
    case "game_won":
      if (you) return ngettext("You win the game and score {n} point.", "You win the game and score {n} points.", event.points);
      return ngettext("{name} wins the game and scores {n} point.", "{name} wins the game and scores {n} points.",
        event.points, { name });
    case "game_drawn":
      return drawSentence(event.reason);
    default:
      return null;
  }
}

/** Which of the draws a game ended in, from the engine's short reason. */
function drawKind(reason) {
  const text = String(reason ?? "");
  if (/stock/i.test(text)) return "stock";
  if (/turn/i.test(text)) return "turns";
  return "other";
}

/** "The game is a draw: the stock ran out." */
export function drawSentence(reason) {
  const kind = drawKind(reason);
  if (kind === "stock") return _("The game is a draw: the stock ran out.");
  if (kind === "turns") return _("The game is a draw: the game reached its turn limit.");
  return _("The game is a draw: nobody can win.");
}

/** "Nobody scores: the stock ran out." for the end-of-game dialog. */
export function nobodyScores(reason) {
  const kind = drawKind(reason);
  if (kind === "stock") return _("Nobody scores: the stock ran out.");
  if (kind === "turns") return _("Nobody scores: the game reached its turn limit.");
  return _("Nobody scores: nobody can win.");
}

/** "Last game: a draw (the stock ran out)." for the lobby and the next game's dialog. */
export function lastGameDrawn(reason) {
  const kind = drawKind(reason);
  if (kind === "stock") return _("Last game: a draw (the stock ran out).");
  if (kind === "turns") return _("Last game: a draw (the game reached its turn limit).");
  return _("Last game: a draw (nobody can win).");
}

/** The sentence of a move: its build or discard event, else a plain fallback. */
export function moveSentence(events, who, seat) {
  const main = (events ?? []).find((e) => e.kind === "built" || e.kind === "discarded");
  if (main) return eventSentence(main, who);
  if (who(seat) === YOU) return _("You move.");
  return _("{name} moves.", { name: who(seat) });
}

/** The card a move's source shows in `obs` (my seat): the pay-off top, a side top, a hand card. */
export function sourceCard(source, obs) {
  const me = obs.players[obs.seat];
  if (source === "P") return me.payoff_top;
  if (source.startsWith("S")) return me.side[Number(source.slice(1)) - 1]?.at(-1) ?? null;
  if (source.startsWith("H")) return obs.hand.find((c) => c[0].toUpperCase() === source[1].toUpperCase()) ?? null;
  return null;
}

/** A move I could make, said as an instruction: "build the Four of hearts from your hand on center stack 1". */
export function moveAdvice(move, obs, { first = true } = {}) {
  const { source, target } = splitMove(move);
  const card = first ? sourceCard(source, obs) : null;
  const fields = { side: source.slice(1), n: target.slice(1) };
  if (card) fields.card = cardName(card);
  if (target.startsWith("S")) {
    // TRANSLATORS: an instruction in a hint ("Hint: {advice}."), lower case; {n} a side stack
    if (card) return _("discard the {card} onto side stack {n}", fields);
    if (source.startsWith("H")) {
      return _("discard {value} onto side stack {n}", { ...fields, value: aValue(rankValue(source[1])) });
    }
    return _("discard the top of side stack {side} onto side stack {n}", fields);
  }
  // TRANSLATORS: an instruction in a hint ("Hint: {advice}."), lower case; {n} a center stack
  if (card && source === "P") return _("build the {card} from your pay-off pile on center stack {n}", fields);
  if (card && source.startsWith("H")) return _("build the {card} from your hand on center stack {n}", fields);
  if (card) return _("build the {card} from side stack {side} on center stack {n}", fields);
  if (source === "P") return _("build your next pay-off card on center stack {n}", fields);
  if (source.startsWith("H")) {
    return _("build {value} from your hand on center stack {n}", { ...fields, value: aValue(rankValue(source[1])) });
  }
  return _("build the top of side stack {side} on center stack {n}", fields);
}

/** The hint's text: the first move in full, the rest briefly, and the bots' reason (made by
 * the server in the page's language, shown as it comes). */
export function hintSentence(moves, reason, obs) {
  const [first, ...rest] = moves;
  let text = _("Hint: {advice}.", { advice: moveAdvice(first, obs) });
  if (rest.length) {
    const advice = rest.slice(0, 3).map((m) => moveAdvice(m, obs, { first: false }));
    let then = advice[0];
    for (const next of advice.slice(1)) then = _("{first}, then {next}", { first: then, next });
    text += " " + (rest.length > 3
      ? _("Then {moves}, and so on.", { moves: then })
      : _("Then {moves}.", { moves: then }));
  }
  const why = String(reason ?? "").trim();
  if (why && !/reference|policy/i.test(why)) {
    // The server's reason is clauses joined by ";" in the page's language; English reads
    // each clause with "it".
    const clauses = currentLanguage() === "en" ? why.replace(/;\s*/g, "; it ") : why;
    // TRANSLATORS: {reason} is the computer's reason for a hint, such as "plays your pay-off Seven"
    text += " " + _("This {reason}.", { reason: clauses });
  }
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
  const fields = { card: card ? cardName(card) : "", n: target.slice(1) };
  if (target.startsWith("S")) {
    if (source === "P") return _("Your pay-off card cannot be discarded: only hand cards go on side stacks.");
    if (source.startsWith("S")) return _("The top of a side stack can only be built on a center stack.");
    if (card) return _("The {card} cannot be discarded there.", fields);
    return _("That card cannot be discarded there.");
  }
  if (target.startsWith("C")) {
    const stack = obs.center[Number(target.slice(1)) - 1];
    if (!stack) return _("There is no such center stack.");
    const needs = stack.length + 1;
    const parsed = card ? parseCard(card) : null;
    if (parsed?.rank === "K" && stack.length === 0) {
      return _("A King cannot start a center stack in these rules: start it with an Ace.");
    }
    fields.value = aValue(needs);
    // TRANSLATORS: {card} is a card's name, {n} a center stack, {value} the value it needs ("a five")
    if (card && needs > 1) return _("The {card} cannot go on center stack {n}: it needs {value} (or a King).", fields);
    if (card) return _("The {card} cannot go on center stack {n}: it needs {value}.", fields);
    if (needs > 1) return _("That card cannot go on center stack {n}: it needs {value} (or a King).", fields);
    return _("That card cannot go on center stack {n}: it needs {value}.", fields);
  }
  return _("That move is not allowed.");
}

/** The server's refusals (web-protocol 4.5) in words. */
const ERROR_TEXT = {
  not_your_turn: N_("It is not your turn yet."),
  busy: N_("Wait a moment: the computer is still playing."),
  game_over: N_("This game is over. Start the next one."),
  game_not_over: N_("Finish this game first."),
  match_over: N_("This match is over. Start a new match."),
  match_not_over: N_("A new match can start once this one is over."),
  no_undo: N_("There is nothing of this turn to take back."),
  not_available: N_("That is not available in this game."),
  waiting_for_opponent: N_("Wait for your friend to join first."),
  disconnected: N_("The connection was lost. Try again in a moment."),
  internal: N_("Something went wrong on the server. Try again."),
};

/** An `error` message or a failed request as a sentence for the player. */
export function errorText(error) {
  const code = error?.code;
  if (code === "illegal_move" || code === "bad_notation") return _("That move is not allowed.");
  if (ERROR_TEXT[code]) return _(ERROR_TEXT[code]);
  const message = String(error?.message ?? "").trim();
  // A sentence of the server (in the page's language), without notation, is shown as it
  // comes; a capital and a stop make a bare phrase read as a sentence.
  if (message && !/\b[PHS][A2-9TJQK0-9]?-[CS]\d\b/i.test(message)) {
    return capitalise(/[.!?…]$/.test(message) ? message : `${message}.`);
  }
  return _("That did not work. Try again.");
}
