// The Rules page's section on playing strangers: pairing, ratings, the clock, abort, claim,
// blocking, bans and verifying the deal, for players (the operators' side is
// docs/deploying.md "Quick match").
// The figures are the server's (web/pairing_waves.py, web/move_clock.py, web/fair_play.py);
// the deal's fingerprint (its commitment) and its check are docs/verifying.md.

import { h } from "../dom.js";
import { _ } from "../i18n.js";

export function strangersHelp() {
  const item = (title, text) => h("li", {}, h("b", {}, title), " ", text);
  return h("section", { class: "rules-section", id: "strangers" },
    h("h2", {}, _("Playing strangers")),
    h("ul", {},
      item(_("Pairing."), _("Press Play someone in the lobby and choose a pool: Standard (20 cards to pay off) or Quick (10). Every 2 seconds the waiting players are paired with someone of about their rating. At first only players within 100 points are paired; the range grows with every round you wait, and after 20 seconds anyone waiting in the pool may be your opponent. You can cancel while you wait.")),
      item(_("Ratings."), _("Games between strangers are rated. A new rating shows a question mark until it has settled after a few games.")),
      item(_("The clock."), _("Each turn has a time: 1 minute 30 seconds in Standard, 1 minute in Quick. The time left is shown on the table. If it runs out, you lose the match. Between two games, the next game is dealt after 30 seconds if neither of you deals it.")),
      item(_("Abort."), _("Until both of you have moved in the first game, either of you may abort it: it ends without a result and is not rated. If the first player's time runs out before they move, the game is aborted too.")),
      item(_("Claim."), _("If your opponent has been offline for 1 minute, you may claim the game as a win.")),
      item(_("Resign."), _("You may resign at any time: the match counts as lost.")),
      item(_("Over days."), _("Under Play a stranger over days in the lobby, choose 1, 3 or 7 days a move and wait as long as it takes: you need not keep the page open, and you can play other games meanwhile. The game comes into your list of games over days. It has a rating of its own and no clock of minutes, and it is never claimed: when your time for a move runs out you lose it, after a reminder. If the first player never moves, it ends without a result.")),
      item(_("Block."), _("At the end of a game you can block your opponent: you are never paired with them again.")),
      item(_("Bans."), _("Aborting a game, letting the clock run out and leaving a game until it is claimed are bad endings. Three bad endings within 24 hours keep you out of the pools for 10 minutes; each further ban within a week lasts three times as long as the last, up to 24 hours. Games against the computer and your friends are never affected.")),
      item(_("Verifying the deal."), _("Before the first card is played, the game panel shows a fingerprint of the shuffle: a short code of letters and digits. The shuffle itself stays secret while you play. At the end of the game it is revealed, and Verify the deal on the end screen checks that it makes the fingerprint shown at the start and that it deals every card of the game. So nobody, the server included, could have changed the cards. This holds for every game: against the computer, your friends and strangers."))));
}
