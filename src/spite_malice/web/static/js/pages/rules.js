// The Rules page: the rules the server plays (GET /api/rules, numbered as in the spec),
// then how to play on this page: mouse, touch and keyboard.

import { api } from "../api.js";
import { h, replaceChildren } from "../dom.js";
import { cardFace } from "../cards.js";
import { keyList } from "../input.js";

/** The game in short, above the full numbered rules. */
const SUMMARY = [
  ["Goal", "Be the first to empty your pay-off pile. Only its top card is face up."],
  ["Your turn",
    "Your hand is filled up to 5 cards from the stock. Build as many cards as you like on " +
    "the center stacks, then end the turn by discarding one hand card onto one of your four " +
    "side stacks."],
  ["Building",
    "Center stacks go up from Ace to Queen, one rank at a time, whatever the suits. You can " +
    "build from the top of your pay-off pile, from your hand or from the top of a side stack. " +
    "A finished stack (a Queen) is shuffled back into the stock."],
  ["Kings",
    "Kings are wild: a King goes on any center stack and stands for the card it needs. " +
    "A King on a 10 is a Jack."],
  ["Side stacks",
    "Anything may be discarded onto a side stack, but only its top card can be played, and " +
    "only onto a center stack."],
  ["Empty hand", "Play every card of your hand during your turn and you draw 5 new ones at once."],
  ["Scoring",
    "The winner of a game scores one point per card left in the opponent's pay-off pile. The " +
    "first to 50 points wins the match. If the stock runs out, the game is a draw."],
];

function howToPlay() {
  const b = (text) => h("b", {}, text);
  const code = (text) => h("code", {}, text);
  return h("section", { class: "rules-section", id: "how-to-play" },
    h("h2", {}, "Playing on this page"),
    h("div", { class: "how-cards", "aria-hidden": "true" },
      ["AH", "7S", "QD", "KC"].map((c) => h("div", { class: "card" }, cardFace(c)))),
    h("ul", {},
      h("li", {}, b("Click or tap"), " a card (your pay-off pile, a hand card or a side stack), ",
        "then the place it goes. The places where it may go light up."),
      h("li", {}, b("Drag"), " a card onto a center stack to build, or onto a side stack to discard."),
      h("li", {}, "A King on a center stack shows what it stands for (", b("= 8"),
        "); the caption under each stack says which card it takes next."),
      h("li", {}, "A move that is not allowed is refused, with the reason."),
      h("li", {}, "Against the computer, ", b("Hint"), " suggests a move and ", b("Undo"),
        " takes back your moves of this turn, one at a time; either marks the game as assisted ",
        "in the statistics."),
      h("li", {}, "The opponent's moves are shown one at a time; the speed is in Settings, and ",
        h("kbd", {}, "Escape"), " skips them.")),
    h("h3", {}, "Keyboard"),
    keyList(),
    h("p", { class: "muted" }, "Moves are written as in the log: source, dash, target. ",
      code("P-C2"), " plays the pay-off card on center stack 2; ",
      code("H7-C1"), " a 7 from the hand on center 1; ",
      code("S3-C2"), " the top of side stack 3 on center 2; ",
      code("HK-S1"), " discards a King onto side stack 1."));
}

function serverRules(rules) {
  return h("div", {},
    rules.sections.map((section) => h("section", { class: "rules-section", id: `rules-${section.id}` },
      h("h2", {}, section.title),
      h("ul", { class: "rule-items" }, section.items.map((item) =>
        h("li", { dataset: { rule: item.id } }, h("span", { class: "rule-ref" }, item.id), " ", item.text))))));
}

function summary() {
  return h("section", { class: "rules-section" },
    h("h2", {}, "The game in short"),
    h("dl", { class: "rules-summary" }, SUMMARY.flatMap(([t, d]) => [h("dt", {}, t), h("dd", {}, d)])));
}

export async function renderRules(mount) {
  const body = h("div", { class: "rules-body" });
  replaceChildren(mount, h("article", { class: "page rules" },
    h("h1", {}, "How to play Spite & Malice"),
    summary(),
    howToPlay(),
    body));
  try {
    const rules = await api.rules();
    if (rules?.sections?.length) {
      replaceChildren(body, h("h2", { class: "rules-full-title" }, rules.title ?? "The full rules"), serverRules(rules));
    }
  } catch {
    // The summary stays.
  }
}
