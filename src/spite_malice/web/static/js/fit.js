// Fitting the table to the screen: the card size follows both the width and the height of
// the space the table has, so that every pile, the hand and the opponent's row are on screen
// at once, from a phone held sideways to a large monitor.
//
// The table's size grows with the card width (gaps, fans and captions are proportions of it,
// with a few minimums), so a bisection finds the largest card width that fits. Two
// arrangements are tried: "stacked" (opponent, center, you, your hand,
// one above the other), "wide" (your hand beside your piles, for short, wide screens) and
// "flat" (the opponent beside the center, your piles beside your hand: a phone held
// sideways); the one with the larger cards wins.

const MIN_CARD_W = 30;
const MAX_CARD_W = 124;
const MAX_CARD_W_LARGE = 170;
/** The room a side stack's fan has below its first card, in card heights: at least... */
const FAN_ROOM_MIN = 0.55;
/** ... with "Large cards", which give the cards the room the fans would take. */
const FAN_ROOM_MIN_LARGE = 0.3;
/** ... and at most, when the height has room to spare. */
const FAN_ROOM_MAX = 1.1;
const CARD_RATIO = 1.4;
/** Below this card width the captions are shortened (data-small). */
const SMALL_CARD_W = 56;

/** The box the table's content takes (its children, laid out at their natural size). */
function contentSize(table) {
  const kids = [...table.children].filter((n) => n.offsetParent !== null && !n.classList.contains("fit-ignore"));
  if (kids.length === 0) return { width: 0, height: 0 };
  let top = Infinity;
  let bottom = -Infinity;
  let width = 0;
  for (const kid of kids) {
    const rect = kid.getBoundingClientRect();
    top = Math.min(top, rect.top);
    bottom = Math.max(bottom, rect.bottom);
    width = Math.max(width, kid.scrollWidth, rect.width);
  }
  const style = getComputedStyle(table);
  const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  return { width: width + padX, height: bottom - top + padY };
}

function setSize(table, cardW, fanRoom) {
  table.style.setProperty("--card-w", `${cardW.toFixed(2)}px`);
  table.style.setProperty("--fan-room", `${(cardW * CARD_RATIO * fanRoom).toFixed(2)}px`);
}

/**
 * The largest card width (and then the largest fan room, from `fanMin` up) of one arrangement that fits
 * `avail`, found by bisection: the table's size grows with the card width, though not quite
 * in a straight line (gaps and fonts have minimums), so a search is surer than a formula.
 */
function solve(table, avail, maxW, fanMin) {
  const fits = (w, k) => {
    setSize(table, w, k);
    const size = contentSize(table);
    return size.width <= avail.width + 0.5 && size.height <= avail.height + 0.5;
  };
  if (!fits(MIN_CARD_W, fanMin)) return { w: MIN_CARD_W, k: fanMin };
  let w = MIN_CARD_W;
  if (fits(maxW, fanMin)) w = maxW;
  else {
    let hi = maxW;
    for (let i = 0; i < 14 && hi - w > 0.05; i++) {
      const mid = (w + hi) / 2;
      if (fits(mid, fanMin)) w = mid;
      else hi = mid;
    }
  }
  // Height to spare: the fans get it (up to FAN_ROOM_MAX), so tall side stacks squeeze less.
  let k = fanMin;
  if (fits(w, FAN_ROOM_MAX)) k = FAN_ROOM_MAX;
  else {
    let hi = FAN_ROOM_MAX;
    for (let i = 0; i < 8; i++) {
      const mid = (k + hi) / 2;
      if (fits(w, mid)) k = mid;
      else hi = mid;
    }
  }
  return { w, k };
}

/**
 * Fit the table into its wrapper: sets --card-w and --fan-room on `table`, and its
 * data-layout ("stacked" or "wide"). Returns the chosen card width in pixels.
 */
export function fitTable(table) {
  const wrap = table.parentElement;
  if (!wrap || !table.isConnected || table.querySelector(".seat") === null) return 0;
  const wrapStyle = getComputedStyle(wrap);
  const avail = {
    width: wrap.clientWidth - parseFloat(wrapStyle.paddingLeft) - parseFloat(wrapStyle.paddingRight),
    height: wrap.clientHeight - parseFloat(wrapStyle.paddingTop) - parseFloat(wrapStyle.paddingBottom),
  };
  if (avail.width <= 0 || avail.height <= 0) return 0;
  const large = document.body.classList.contains("large-cards");
  const maxW = large ? MAX_CARD_W_LARGE : MAX_CARD_W;
  const fanMin = large ? FAN_ROOM_MIN_LARGE : FAN_ROOM_MIN;
  table.classList.add("is-fitting");
  const results = {};
  for (const layout of ["stacked", "wide", "flat"]) {
    table.dataset.layout = layout;
    delete table.dataset.small;
    results[layout] = solve(table, avail, maxW, fanMin);
    // Small cards get short captions (data-small), which leaves them a little more room.
    if (results[layout].w < SMALL_CARD_W) {
      table.dataset.small = "";
      results[layout] = { ...solve(table, avail, maxW, fanMin), small: true };
    }
  }
  // The stacked table reads best; another only when its cards are clearly larger.
  const other = results.flat.w > results.wide.w * 1.04 ? "flat" : "wide";
  const layout = results[other].w > results.stacked.w * 1.08 ? other : "stacked";
  table.dataset.layout = layout;
  if (results[layout].small) table.dataset.small = "";
  else delete table.dataset.small;
  setSize(table, results[layout].w, results[layout].k);
  table.classList.remove("is-fitting");
  return results[layout].w;
}

/** Keep `table` fitted while its wrapper changes size; returns a function that stops it. */
export function keepFitted(table) {
  let frame = 0;
  const schedule = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => fitTable(table));
  };
  const observer = new ResizeObserver(schedule);
  observer.observe(table.parentElement);
  window.addEventListener("resize", schedule);
  return () => {
    observer.disconnect();
    window.removeEventListener("resize", schedule);
    cancelAnimationFrame(frame);
  };
}
