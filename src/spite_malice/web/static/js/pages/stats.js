// The Statistics page: per computer level (and games against friends) the games, wins,
// losses, draws, win rate, points, matches and streaks (web-protocol 2.4).

import { api } from "../api.js";
import { h, replaceChildren, withNodes } from "../dom.js";
import { _, formatNumber, N_ } from "../i18n.js";
import { renderRatings } from "../ratings.js";
import { renderOfflineStats } from "../../offline/stats.js";

const COLUMNS = [
  ["games", N_("Games")],
  ["wins", N_("Wins")],
  ["losses", N_("Losses")],
  ["draws", N_("Draws")],
  ["win_rate", N_("Win rate")],
  ["points", N_("Points")],
  ["matches", N_("Matches")],
  ["streak", N_("Streak")],
  ["assisted", N_("Assisted")],
];

function cell(row, key) {
  switch (key) {
    case "win_rate":
      return formatNumber(row.win_rate ?? 0, { style: "percent", maximumFractionDigits: 0 });
    case "points":
      return `${formatNumber(row.points_for ?? 0)} – ${formatNumber(row.points_against ?? 0)}`;
    case "matches":
      return _("{matches} ({won} won, {lost} lost)",
        { matches: row.matches ?? 0, won: row.matches_won ?? 0, lost: row.matches_lost ?? 0 });
    case "streak":
      return _("{streak} (best {best})", { streak: row.current_streak ?? 0, best: row.best_streak ?? 0 });
    default:
      return formatNumber(row[key] ?? 0);
  }
}

export async function renderStats(mount, app) {
  const box = h("div", { class: "stats-box" }, h("p", { class: "muted" }, _("Loading…")));
  replaceChildren(mount, h("div", { class: "page stats" },
    h("h1", {}, _("Statistics")),
    h("p", { class: "muted" }, withNodes(_("Your results as {name}."), { name: h("b", {}, app.player()) }), " ",
      _("Points: scored – conceded. Streak: wins in a row now, and the best run."), " ",
      _("Assisted: games in which you used a hint or undo.")),
    box));
  renderOfflineStats(mount.querySelector(".page"), app);
  renderRatings(mount.querySelector(".page"));
  let stats;
  try {
    stats = await api.stats();
  } catch (error) {
    replaceChildren(box, h("p", { class: "form-status" }, error.message));
    return;
  }
  if (!stats.levels.length) {
    replaceChildren(box, h("p", {}, _("No finished games yet."), " ", h("a", { href: "#/play" }, _("Play one!"))));
    return;
  }
  const levelName = (id) => app.config?.levels?.find((l) => l.id === id)?.name
    ?? ({ friend: _("Friends"), all: _("All"), practice: _("Practice"), daily: _("Daily deal") }[id] ?? id);
  const row = (r, total = false) => h("tr", { class: total ? "total" : "", dataset: { level: r.level } },
    h("th", { scope: "row" }, total ? _("All games") : levelName(r.level)),
    COLUMNS.map(([key, label]) => h("td", { dataset: { col: key, label: _(label) } }, cell(r, key))));
  replaceChildren(box, h("div", { class: "table-scroll" },
    h("table", { class: "stats-table", id: "stats-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, _("Level")),
        COLUMNS.map(([, label]) => h("th", { scope: "col" }, _(label))))),
      h("tbody", {}, stats.levels.map((r) => row(r))),
      stats.total ? h("tfoot", {}, row(stats.total, true)) : null)));
}
