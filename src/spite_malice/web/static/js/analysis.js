// "Where did I lose?" (issue 14 item 3): asks the server to analyse one of your finished
// games (it runs in the background there, docs/web-protocol.md 2.8), shows its progress, then
// the report: the total lost, the three worst turns and the best one, each with the reason
// in plain words and a button that shows the better turn on the table.

import { ApiError } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { _, formatNumber, ngettext } from "./i18n.js";

const POLL_MS = 1000;

async function call(method, path) {
  let response;
  try {
    response = await fetch(path, { method });
  } catch {
    throw new ApiError("offline", _("The server cannot be reached. Is it running?"), 0);
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(data?.error?.code ?? "http", data?.error?.message ?? _("The server answered {status}.", { status: String(response.status) }),
      response.status);
  }
  return data;
}

/** "1.5": an expected number of pay-off cards, with one decimal, the language's way. */
function amount(value) {
  return formatNumber(Math.round(value * 10) / 10, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** The count that chooses an amount's plural form: the amount as shown, rounded. */
function amountCount(value) {
  return Math.round(value * 10) / 10;
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
    replaceChildren(this.box, h("div", { class: "analysis-progress" }, this.progressText, this.progress));
    try {
      this.update(await call("POST", `/api/games/${this.ctx.game}/analysis`));
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
    } else {
      this.progressText.textContent = status.total
        ? ngettext("Looking at your turns: {done} of {n} decision.", "Looking at your turns: {done} of {n} decisions.",
          status.total, { done: status.done })
        : _("Looking at your turns…");
      this.progress.max = String(Math.max(status.total, 1));
      this.progress.value = String(status.done);
    }
    this.timer = setTimeout(() => this.poll(), POLL_MS);
  }

  async poll() {
    try {
      this.update(await call("GET", `/api/games/${this.ctx.game}/analysis`));
    } catch (error) {
      this.fail(error.message);
    }
  }

  render(report) {
    const items = report.worst.map((number, i) => {
      const decision = keyDecision(report, number, "lost");
      if (!decision) return null;
      return h("li", { class: "analysis-turn", dataset: { turn: String(number) } },
        h("p", {}, h("b", {}, ngettext("{rank}. Turn {turn}: {amount} pay-off card lost.",
          "{rank}. Turn {turn}: {amount} pay-off cards lost.", amountCount(decision.lost),
          { rank: i + 1, turn: number, amount: amount(decision.lost) }))),
        // TRANSLATORS: {moves} and {reason} come from the server's analysis, in the player's language
        h("p", {}, _("You played: {moves}.", { moves: decision.played_words })),
        h("p", {}, _("Better: {moves}.", { moves: decision.better_words })),
        h("p", { class: "analysis-reason" }, _("Why: {reason}", { reason: decision.reason })),
        h("div", { class: "actions" },
          h("button", { class: "btn", type: "button", dataset: { show: String(number) },
            onclick: () => this.ctx.show(decision) }, _("Show the better turn")),
          h("button", { class: "btn btn-link", type: "button",
            onclick: () => this.ctx.jump(decision.moves_before) }, _("Go to this turn"))));
    }).filter(Boolean);
    const best = report.best === null ? null : keyDecision(report, report.best, "edge");
    replaceChildren(this.box, h("section", { class: "analysis", id: "analysis-report" },
      h("h2", {}, _("Where the game was won and lost")),
      h("p", { id: "analysis-total" }, report.total_lost > 0
        ? ngettext("In all, your choices lost {amount} pay-off card expected, against the best turns the computer's search found.",
          "In all, your choices lost {amount} pay-off cards expected, against the best turns the computer's search found.",
          amountCount(report.total_lost), { amount: amount(report.total_lost) })
        : _("None of your turns lost anything the computer's search could measure.")),
      items.length ? h("ol", { class: "analysis-worst", id: "analysis-worst" }, items) : null,
      best
        ? h("p", { id: "analysis-best" }, h("b", {}, _("Your best turn: turn {n}.", { n: report.best })), " ",
          best.edge > 0
            ? ngettext("Your choice beat every other one looked at, by {amount} pay-off card expected.",
              "Your choice beat every other one looked at, by {amount} pay-off cards expected.",
              amountCount(best.edge), { amount: amount(best.edge) })
            : "")
        : null,
      h("p", { class: "muted" }, ngettext(
        "Each turn was compared with the best ones found on {n} deal of the cards you could not see, played a few turns ahead.",
        "Each turn was compared with the best ones found on {n} deals of the cards you could not see, played a few turns ahead.",
        report.settings.samples))));
  }
}
