// The Statistics page's offline part (docs/offline.md): the games played offline and counted
// by the server, per level, apart from the games played on the server and the daily deals.

import { h } from "../js/dom.js";
import { _, formatNumber } from "../js/i18n.js";
import { playerRecord } from "../js/store.js";
import { allMatches } from "./db.js";

function secretHeaders() {
  const secret = playerRecord()?.secret;
  return secret ? { "X-Player-Secret": secret } : {};
}

/** Append the offline games' section to the statistics page `page`. */
export async function renderOfflineStats(page, app) {
  const box = h("section", { class: "stats-box offline-stats", id: "offline-stats" },
    h("h2", {}, _("Played offline")));
  page.append(box);
  const refused = (await allMatches(playerRecord()?.id ?? null).catch(() => [])).filter((m) => m.refused);
  let stats = null;
  try {
    const answer = await fetch("/api/offline-games/stats", { headers: secretHeaders() });
    if (answer.ok) stats = await answer.json();
  } catch {
    stats = null;
  }
  if (!stats) {
    box.append(h("p", { class: "muted" }, _("The games you play offline are counted once the server can be reached.")));
  } else if (!stats.levels.length) {
    box.append(h("p", { class: "muted" }, _("No game played offline has been counted yet.")));
  } else {
    const levelName = (id) => app.config?.levels?.find((l) => l.id === id)?.name ?? id;
    const row = (r, total) => h("tr", { dataset: { level: r.level } },
      h("th", { scope: "row" }, total ? _("All games") : levelName(r.level)),
      h("td", { dataset: { col: "games" } }, formatNumber(r.games)),
      h("td", { dataset: { col: "wins" } }, formatNumber(r.wins)),
      h("td", { dataset: { col: "losses" } }, formatNumber(r.losses)),
      h("td", { dataset: { col: "draws" } }, formatNumber(r.draws)),
      h("td", { dataset: { col: "matches" } }, _("{matches} ({won} won, {lost} lost)",
        { matches: r.matches, won: r.matches_won, lost: r.matches_lost })));
    box.append(h("div", { class: "table-scroll" },
      h("table", { class: "stats-table", id: "offline-stats-table" },
        h("thead", {}, h("tr", {}, [_("Level"), _("Games"), _("Wins"), _("Losses"), _("Draws"), _("Matches")]
          .map((label) => h("th", { scope: "col" }, label)))),
        h("tbody", {}, stats.levels.map((r) => row(r, false))),
        h("tfoot", {}, row(stats.total, true)))));
  }
  for (const match of refused) {
    box.append(h("p", { class: "form-status offline-refused" },
      _("A game you played offline was not counted: {reason}", { reason: match.refused })));
  }
}
