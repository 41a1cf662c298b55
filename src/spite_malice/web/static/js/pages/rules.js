// The Rules page: the rules the server plays (GET /api/rules, numbered as in the spec),
// then how to play on this page: mouse, touch and keyboard.

import { api } from "../api.js";
import { h, replaceChildren, withNodes } from "../dom.js";
import { cardFace } from "../cards.js";
import { _, N_, NP_, pgettext } from "../i18n.js";
import { keyList } from "../input.js";
import { renderTable } from "../table.js";
import { strangersHelp } from "./strangers_help.js";

/** The game in short, above the full numbered rules. */
const SUMMARY = [
  [N_("Goal"), N_("Be the first to empty your pay-off pile. Only its top card is face up.")],
  [N_("Your turn"),
    N_("Your hand is filled up to 5 cards from the stock. Build as many cards as you like on the center stacks, then end the turn by discarding one hand card onto one of your four side stacks.")],
  [N_("Building"),
    N_("Center stacks go up from Ace to Queen, one rank at a time, whatever the suits. You can build from the top of your pay-off pile, from your hand or from the top of a side stack. A finished stack (a Queen) is shuffled back into the stock.")],
  [N_("Kings"),
    N_("Kings are wild: a King goes on any center stack and stands for the card it needs. A King on a 10 is a Jack.")],
  [N_("Side stacks"),
    N_("Anything may be discarded onto a side stack, but only its top card can be played, and only onto a center stack.")],
  [N_("Empty hand"), N_("Play every card of your hand during your turn and you draw 5 new ones at once.")],
  [N_("Scoring"),
    N_("The winner of a game scores one point per card left in the opponent's pay-off pile. The first to 50 points wins the match. If the stock runs out, the game is a draw.")],
];

function howToPlay() {
  const b = (text) => h("b", {}, text);
  const discard = b(_("Discard"));
  return h("section", { class: "rules-section", id: "how-to-play" },
    h("h2", {}, _("Playing on this page")),
    h("div", { class: "how-cards", "aria-hidden": "true" },
      ["AH", "7S", "QD", "KC"].map((c) => h("div", { class: "card" }, cardFace(c)))),
    h("ul", {},
      // TRANSLATORS: the {fields} are words in bold: "Click or tap", "Discard", "Drag", "Hint", "Undo", "Escape"
      h("li", {}, withNodes(_("{click} a card (your pay-off pile, a hand card or a side stack), then the place it goes. The places where it may go light up."),
        { click: b(_("Click or tap")) })),
      h("li", {}, withNodes(_("{discard} to end your turn: pick a hand card, then press {button} under one of your side stacks. A click on a side stack itself only picks its top card, so a slip of the mouse never ends your turn. Settings can also ask before every discard."),
        { discard, button: b(_("Discard")) })),
      h("li", {}, withNodes(_("{drag} a card onto a center stack to build, or onto one of your side stacks to discard."),
        { drag: b(_("Drag")) })),
      h("li", {}, withNodes(_("A King on a center stack shows what it stands for ({sign}); the caption under each stack says which card it takes next."),
        { sign: b("= 8") })),
      h("li", {}, _("A move that is not allowed is refused, and the reason shows next to the pile.")),
      h("li", {}, withNodes(_("Against the computer, {hint} suggests a move and {undo} takes back your moves of this turn, one at a time; either marks the game as assisted in the statistics."),
        { hint: b(_("Hint")), undo: b(_("Undo")) })),
      h("li", {}, withNodes(_("The opponent's moves are shown one at a time and told in words; the speed is in Settings, and {escape} skips them. What the opponent changed stays outlined in blue until you pick a card."),
        { escape: h("kbd", {}, _("Escape")) })),
      h("li", {}, _("When it is your turn and the game's tab is in the background, the tab's title and icon say so; Settings can add a notification and turn the sounds off."))),
    h("h3", {}, _("Keyboard")),
    keyList());
}

/** A sample position for the picture of the table. */
const SAMPLE = {
  mode: "computer",
  seat: 0,
  players: ["You", NP_("level", "Medium")],
  observation: {
    seat: 0, to_move: 0, turn: 9, rules: {},
    hand: ["3H", "5S", "8D", "JC", "KH"],
    players: [
      { payoff_top: "4C", payoff_count: 17, hand_count: 5, side: [["9C", "7H"], ["QS"], [], []] },
      { payoff_top: "6D", payoff_count: 15, hand_count: 5, side: [["TS"], ["8H", "5C", "4D"], [], ["2S"]] },
    ],
    center: [["AS", "2H"], ["AD", "2C", "KS"], []],
    // as the server sends them with every observation (what each stack takes, cards to go)
    center_takes: [3, 4, 1], center_left: [10, 9, 12],
    stock_count: 41, history: [], legal_moves: [], outcome: null,
  },
};

const LEGEND = [
  [N_("Top row"), N_("Your opponent: their hand (face down), their pay-off pile and their four side stacks.")],
  [N_("Middle"), N_("The stock (face down, with the number of cards) and the center stacks that both of you build on. Under each stack: what it takes next. The King on center 2 counts as a three.")],
  [N_("Lower row"), N_("Your pay-off pile (empty it to win) and your four side stacks, with a Discard button under each.")],
  [N_("Bottom"), N_("Your hand.")],
];

/** A picture of the table, drawn by the game's own code, with what each part is. */
function tablePicture() {
  const table = h("div", {
    class: "table rules-table", "aria-hidden": "true", dataset: { layout: "stacked", centers: "3", small: "" },
  });
  renderTable(table, SAMPLE, { me: "You", opponent: pgettext("level", SAMPLE.players[1]), waiting: false });
  for (const node of table.querySelectorAll("[tabindex]")) node.setAttribute("tabindex", "-1");
  for (const node of table.querySelectorAll("button")) node.disabled = true;
  return h("section", { class: "rules-section", id: "table-picture" },
    h("h2", {}, _("The table")),
    h("div", { class: "rules-table-wrap" }, table),
    h("dl", { class: "rules-summary" }, LEGEND.flatMap(([t, d]) => [h("dt", {}, _(t)), h("dd", {}, _(d))])));
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
    h("h2", {}, _("The game in short")),
    h("dl", { class: "rules-summary" }, SUMMARY.flatMap(([t, d]) => [h("dt", {}, _(t)), h("dd", {}, _(d))])));
}

export async function renderRules(mount, anchor = null) {
  const body = h("div", { class: "rules-body" });
  replaceChildren(mount, h("article", { class: "page rules" },
    h("h1", {}, _("How to play Spite & Malice")),
    summary(),
    tablePicture(),
    howToPlay(),
    strangersHelp(),
    body));
  if (anchor) mount.querySelector(`#${CSS.escape(anchor)}`)?.scrollIntoView();
  try {
    const rules = await api.rules();
    if (rules?.sections?.length) {
      replaceChildren(body, h("h2", { class: "rules-full-title" }, rules.title ?? _("The full rules")), serverRules(rules));
    }
  } catch {
    // The summary stays.
  }
}
