// The Statistics page's ratings (web-protocol 9.3): the player's Glicko-2 rating in each
// pool it played, "1500?" while provisional, a chart of its history (plain SVG drawn here
// from the server's figures), and each pool's leaderboard.

import { api } from "./api.js";
import { h } from "./dom.js";
import { _, formatNumber, N_ } from "./i18n.js";

const POOL_NAMES = {
  standard: N_("Strangers, standard game"),
  quick: N_("Strangers, quick game"),
  "turn-based": N_("Strangers, games over days"),
  computer: N_("Against the computer"),
};
const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 480;
const HEIGHT = 160;
const PAD = 32;
/** A rating as players read it: a whole number, never grouped ("1500", not "1,500"). */
const shownRating = (value) => formatNumber(Math.round(value), { useGrouping: false });

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

/** A line of the rating after each game, a band of one deviation either side. */
export function historyChart(pool, history) {
  const ratings = history.map((p) => p.rating);
  const low = Math.min(...history.map((p) => p.rating - p.deviation));
  const high = Math.max(...history.map((p) => p.rating + p.deviation));
  const span = Math.max(high - low, 1);
  const x = (i) => PAD + (history.length === 1 ? (WIDTH - 2 * PAD) / 2 : (i * (WIDTH - 2 * PAD)) / (history.length - 1));
  const y = (r) => HEIGHT - PAD / 2 - ((r - low) * (HEIGHT - PAD)) / span;
  const line = ratings.map((r, i) => `${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(" ");
  const upper = history.map((p, i) => `${x(i).toFixed(1)},${y(p.rating + p.deviation).toFixed(1)}`);
  const lower = history.map((p, i) => `${x(i).toFixed(1)},${y(p.rating - p.deviation).toFixed(1)}`).reverse();
  const title = _("Your rating after each of your last {count} rated games", { count: String(history.length) });
  return svg("svg", {
    class: "rating-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": title,
    "data-pool": pool, "data-points": history.length,
  },
  svg("title", {}, title),
  svg("polygon", { class: "rating-band", points: [...upper, ...lower].join(" ") }),
  svg("polyline", { class: "rating-line", points: line, fill: "none" }),
  ...ratings.map((r, i) => svg("circle", { class: "rating-point", cx: x(i).toFixed(1), cy: y(r).toFixed(1), r: 2.5 })),
  svg("text", { x: 2, y: PAD / 2 + 4, class: "rating-axis" }, shownRating(high)),
  svg("text", { x: 2, y: HEIGHT - 4, class: "rating-axis" }, shownRating(low)));
}

function poolRow(pool) {
  return h("div", { class: "rating-pool", dataset: { pool: pool.pool } },
    h("h3", {}, _(POOL_NAMES[pool.pool] ?? pool.pool), " ",
      h("span", { class: "rating-shown", title: pool.provisional ? _("Provisional: too few games to be sure yet") : "" },
        pool.provisional ? `${shownRating(pool.rating)}?` : shownRating(pool.rating))),
    h("p", { class: "muted" }, _("{games} rated games, deviation {deviation}.",
      { games: formatNumber(pool.games), deviation: formatNumber(Math.round(pool.deviation)) })),
    pool.history.length ? historyChart(pool.pool, pool.history) : null);
}

async function leaderboard(pool, explain) {
  const box = h("div", { class: "leaderboard", dataset: { pool } }, h("h3", {}, _(POOL_NAMES[pool])));
  let board;
  try {
    board = await api.leaderboard(pool);
  } catch (error) {
    box.append(h("p", { class: "form-status" }, error.message));
    return box;
  }
  explain.textContent = _("Players whose rating is no longer provisional and who played a rated game in the last {days} days.",
    { days: formatNumber(board.days) });
  if (!board.players.length) {
    box.append(h("p", { class: "muted" }, _("Nobody is on this leaderboard yet.")));
    return box;
  }
  box.append(h("table", { class: "stats-table leaderboard-table" },
    h("thead", {}, h("tr", {}, [_("Rank"), _("Player"), _("Rating"), _("Games")].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, board.players.map((p) => h("tr", {},
      h("td", {}, formatNumber(p.rank)), h("th", { scope: "row" }, p.name),
      h("td", {}, shownRating(p.rating)), h("td", {}, formatNumber(p.games)))))));
  return box;
}

/** How ratings work, for players (docs/ratings.md in full). */
function explanation(ratings) {
  const levels = Object.fromEntries(Object.entries(ratings).map(([level, value]) => [level, shownRating(value)]));
  return h("details", { class: "ratings-help", id: "ratings-help" },
    h("summary", {}, _("How ratings work")),
    h("p", {}, _("A rating is a number around 1500 that goes up when you win and down when you lose, more against a stronger opponent. Beside it, the deviation says how sure it is: it starts high and shrinks as you play, and grows again when you do not play for weeks.")),
    h("p", {}, _("Games against strangers count in the rating of their kind of game (standard or quick). Games against the computer count in a rating of their own, on the same scale: Easy is rated {easy}, Medium {medium}, Hard {hard} and Expert {expert}, so you can see how you compare with each level.", levels)),
    h("p", {}, _("Games over days against strangers count in a rating of their own, whatever their time per move: thinking for a day is not the same test as playing against a clock of a minute and a half.")),
    h("p", {}, _("A game against the computer counts when it is played with standard or quick rules, is neither a practice game nor the daily deal, and you used no undo. Games with friends you invited never count.")),
    h("p", {}, _("A leaderboard lists the players whose rating is no longer provisional and who played lately, best first.")));
}

/** Append the ratings' section and the leaderboards to the statistics page `page`. */
export async function renderRatings(page) {
  const box = h("section", { class: "stats-box ratings", id: "ratings" }, h("h2", {}, _("Ratings")));
  page.append(box);
  let mine;
  try {
    mine = await api.ratings();
  } catch (error) {
    box.append(h("p", { class: "form-status" }, error.message));
    return;
  }
  box.append(h("p", { class: "muted" }, _("Glicko-2 ratings: a rating with a question mark is provisional until its deviation is {limit} or less.",
    { limit: formatNumber(mine.provisional_deviation) })));
  box.append(explanation(mine.levels ?? {}));
  if (!mine.pools.length) box.append(h("p", { class: "muted", id: "no-ratings" }, _("No rated game yet.")));
  box.append(...mine.pools.map(poolRow));
  const explain = h("p", { class: "muted" });
  const boards = h("section", { class: "stats-box leaderboards", id: "leaderboards" }, h("h2", {}, _("Leaderboards")), explain);
  page.append(boards);
  for (const pool of Object.keys(POOL_NAMES)) boards.append(await leaderboard(pool, explain));
}
