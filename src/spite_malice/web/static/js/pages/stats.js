// The Statistics page: per computer level (and games against friends) the games, wins,
// losses, draws, win rate, points, matches and streaks (web-protocol 2.4).

import { api } from "../api.js";
import { h, replaceChildren } from "../dom.js";

const COLUMNS = [
  ["games", "Games"],
  ["wins", "Wins"],
  ["losses", "Losses"],
  ["draws", "Draws"],
  ["win_rate", "Win rate"],
  ["points", "Points"],
  ["matches", "Matches"],
  ["streak", "Streak"],
  ["assisted", "Assisted"],
];

function cell(row, key) {
  switch (key) {
    case "win_rate":
      return `${Math.round((row.win_rate ?? 0) * 100)} %`;
    case "points":
      return `${row.points_for ?? 0} – ${row.points_against ?? 0}`;
    case "matches":
      return `${row.matches ?? 0} (${row.matches_won ?? 0} won, ${row.matches_lost ?? 0} lost)`;
    case "streak":
      return `${row.current_streak ?? 0} (best ${row.best_streak ?? 0})`;
    default:
      return String(row[key] ?? 0);
  }
}

export async function renderStats(mount, app) {
  const box = h("div", { class: "stats-box" }, h("p", { class: "muted" }, "Loading…"));
  replaceChildren(mount, h("div", { class: "page stats" },
    h("h1", {}, "Statistics"),
    h("p", { class: "muted" }, "Player ", h("b", {}, app.player()),
      ". Points: scored – conceded. Streak: wins in a row now, and the best run. ",
      "Assisted: games in which you used a hint or undo."),
    box));
  let stats;
  try {
    stats = await api.stats();
  } catch (error) {
    replaceChildren(box, h("p", { class: "form-status" }, error.message));
    return;
  }
  if (!stats.levels.length) {
    replaceChildren(box, h("p", {}, "No finished games yet. ", h("a", { href: "#/play" }, "Play one!")));
    return;
  }
  const levelName = (id) => app.config?.levels?.find((l) => l.id === id)?.name
    ?? ({ friend: "Friends", all: "All", practice: "Practice", daily: "Daily deal" }[id] ?? id);
  const row = (r, total = false) => h("tr", { class: total ? "total" : "", dataset: { level: r.level } },
    h("th", { scope: "row" }, total ? "All games" : levelName(r.level)),
    COLUMNS.map(([key, label]) => h("td", { dataset: { col: key, label } }, cell(r, key))));
  replaceChildren(box, h("div", { class: "table-scroll" },
    h("table", { class: "stats-table", id: "stats-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Level"),
        COLUMNS.map(([, label]) => h("th", { scope: "col" }, label)))),
      h("tbody", {}, stats.levels.map((r) => row(r))),
      stats.total ? h("tfoot", {}, row(stats.total, true)) : null)));
}
