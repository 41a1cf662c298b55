// "Where did I lose?": asks the server to analyse one of your finished games (it runs in the
// background there, docs/web-protocol.md 2.8), shows its progress and the time left, then the
// report: your three costliest turns and your best one, numbered as you count your turns
// (your turn 12), each with the reason in plain words and a button that shows the better turn
// on the table. Costs are whole pay-off cards: the figures behind them are expectations.

import { request } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { _, N_, ngettext } from "./i18n.js";

const POLL_MS = 500;

const COSTLIEST = [N_("Your costliest turn"), N_("Your two costliest turns"), N_("Your three costliest turns")];

/** What a turn cost, in whole pay-off cards (the same words as the text report). */
function costWords(lost) {
  const cards = Math.round(lost);
  if (cards < 1) {
    return _("The better turn would have gained you a little on your opponent: less than one pay-off card over the next few turns.");
  }
  return ngettext("The better turn would have gained you about {n} pay-off card on your opponent over the next few turns.",
    "The better turn would have gained you about {n} pay-off cards on your opponent over the next few turns.", cards);
}

/** "About 20 seconds left.": the time left, from the decisions done so far and how long they took. */
function timeLeft(seconds) {
  if (seconds >= 90) {
    const minutes = Math.round(seconds / 60);
    return ngettext("About {n} minute left.", "About {n} minutes left.", minutes);
  }
  const shown = seconds > 10 ? Math.ceil(seconds / 5) * 5 : Math.max(1, Math.ceil(seconds));
  return ngettext("About {n} second left.", "About {n} seconds left.", shown);
}

/** The decision of a turn that matters most: the one that lost most (or had the best edge). */
function keyDecision(report, number, by) {
  const turn = report.turns.find((t) => t.turn === number);
  if (!turn || !turn.decisions.length) return null;
  return turn.decisions.reduce((a, b) => ((b[by] ?? -Infinity) > (a[by] ?? -Infinity) ? b : a));
}

export class AnalysisView {
  /**
   * @param {HTMLElement} box where the view goes
   * @param {object} ctx {game: id, show(decision): draw the better turn, jump(movesBefore)}
   */
  constructor(box, ctx) {
    this.box = box;
    this.ctx = ctx;
    this.timer = null;
    this.startButton = h("button", { class: "btn btn-primary", id: "analyse-button", type: "button",
      onclick: () => this.start() }, _("Where did I lose?"));
    replaceChildren(box, this.startButton);
  }

  destroy() {
    clearTimeout(this.timer);
    this.timer = null;
    this.stopped = true;
  }

  async start() {
    this.startButton.disabled = true;
    this.progress = h("progress", { id: "analysis-progress", max: "1", value: "0" });
    this.progressText = h("p", { id: "analysis-state", role: "status", "aria-live": "polite" },
      _("Asking for the analysis…"));
    // not a live region: it changes with every poll
    this.etaText = h("p", { id: "analysis-eta", class: "muted" });
    this.since = null;
    replaceChildren(this.box, h("div", { class: "analysis-progress" }, this.progressText, this.progress, this.etaText));
    try {
      this.update(await request("POST", `/api/games/${this.ctx.game}/analysis`));
    } catch (error) {
      this.fail(error.message);
    }
  }

  fail(text) {
    replaceChildren(this.box, h("p", { class: "message-line", id: "analysis-error", dataset: { kind: "error" } }, text),
      this.startButton);
    this.startButton.disabled = false;
  }

  update(status) {
    if (this.stopped) return;
    if (status.state === "done") {
      this.render(status.report);
      return;
    }
    if (status.state === "failed") {
      this.fail(status.error || _("This game could not be analysed."));
      return;
    }
    if (status.state === "waiting") {
      this.progressText.textContent = status.ahead
        ? ngettext("Waiting for the server: {n} other game is being analysed first.",
          "Waiting for the server: {n} other games are being analysed first.", status.ahead)
        : _("Starting the analysis…");
      this.etaText.textContent = "";
    } else {
      this.progressText.textContent = status.total
        ? ngettext("Looking at your turns: {done} of {n} decision.", "Looking at your turns: {done} of {n} decisions.",
          status.total, { done: status.done })
        : _("Looking at your turns…");
      this.progress.max = String(Math.max(status.total, 1));
      this.progress.value = String(status.done);
      this.etaText.textContent = this.estimate(status);
    }
    this.timer = setTimeout(() => this.poll(), POLL_MS);
  }

  /**
   * The time left, in words: the pace of the decisions done since the page first saw the
   * analysis running, applied to those left ("" until one is done).
   */
  estimate(status) {
    const now = performance.now();
    if (this.since === null || status.done < this.since.done) this.since = { at: now, done: status.done };
    const done = status.done - this.since.done;
    const left = status.total - status.done;
    if (!status.total || done < 1) return status.total ? _("Working out the time left…") : "";
    return timeLeft(((now - this.since.at) / 1000 / done) * left);
  }

  async poll() {
    try {
      this.update(await request("GET", `/api/games/${this.ctx.game}/analysis`));
    } catch (error) {
      this.fail(error.message);
    }
  }

  render(report) {
    const items = report.worst.map((number) => {
      const decision = keyDecision(report, number, "lost");
      const turn = report.turns.find((t) => t.turn === number);
      if (!decision || !turn) return null;
      const own = turn.player_turn;
      return h("li", { class: "analysis-turn", dataset: { turn: String(own) } },
        h("p", {}, h("b", {}, _("Your turn {turn}", { turn: own }))),
        h("p", { class: "analysis-cost" }, costWords(turn.lost)),
        // TRANSLATORS: {moves} and {reason} come from the server's analysis, in the player's language
        h("p", {}, _("You played: {moves}.", { moves: decision.played_words })),
        h("p", {}, _("Better: {moves}.", { moves: decision.better_words })),
        h("p", { class: "analysis-reason" }, _("Why: {reason}", { reason: decision.reason })),
        h("div", { class: "actions" },
          h("button", { class: "btn", type: "button", dataset: { show: String(own) },
            // the replay names the turn as the report does: your own count
            onclick: () => this.ctx.show({ ...decision, turn: own }) }, _("Show the better turn")),
          h("button", { class: "btn btn-link", type: "button",
            onclick: () => this.ctx.jump(decision.moves_before) }, _("Go to this turn"))));
    }).filter(Boolean);
    const losing = report.turns.filter((t) => t.lost > 0).length;
    const bestTurn = report.best === null ? null : report.turns.find((t) => t.turn === report.best);
    const best = bestTurn ? keyDecision(report, report.best, "edge") : null;
    replaceChildren(this.box, h("section", { class: "analysis", id: "analysis-report" },
      h("h2", {}, _("Where the game was won and lost")),
      h("p", { id: "analysis-total" }, losing
        ? ngettext("A better turn was found for {n} of your {total} turns.", "Better turns were found for {n} of your {total} turns.",
          losing, { total: report.turns.length })
        : _("None of your turns lost anything the computer's search could measure.")),
      items.length ? h("h3", { id: "analysis-worst-title" }, _(COSTLIEST[items.length - 1])) : null,
      items.length ? h("ol", { class: "analysis-worst", id: "analysis-worst", "aria-labelledby": "analysis-worst-title" }, items) : null,
      best
        ? h("p", { id: "analysis-best" }, h("b", {}, _("Your best turn: your turn {n}.", { n: bestTurn.player_turn })), " ",
          best.edge > 0 ? _("You found a better turn than any the computer's search looked at.") : "")
        : null,
      h("p", { class: "muted" },
        _("The computer played each of your turns a few turns ahead, on many deals of the cards you could not see, and compared your play with the best it found."))));
  }
}
