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
/** How close to the largest card width that fits the search comes, in px. */
const CARD_W_TOLERANCE = 0.05;

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
 * The largest `x` in [`lo`, `hi`] where `slack(x)` is not negative, to within `tol`, given
 * `fLo = slack(lo) >= 0` and `fHi = slack(hi) < 0`; `slack` only falls as `x` grows. The
 * table's size is a straight line in the card width in pieces (gaps and fonts have
 * minimums and maximums), so each step looks at two points `tol` apart around where the
 * line is expected to cross zero: if the first fits and the second does not, that is the
 * answer; else the two give the line's slope there, and the next step aims where it
 * crosses zero. Where a piece is straight that takes two or four layouts, where a plain
 * bisection takes a dozen; after a few steps the search bisects, so a bent line costs at
 * most a bisection more. The answer is the same as a bisection's, to within `tol`.
 */
function largestFitting(slack, lo, fLo, hi, fHi, tol) {
  const across = (a, fa, b, fb) => a + ((b - a) * fa) / (fa - fb);
  let aim = across(lo, fLo, hi, fHi);
  for (let step = 0; step < 40 && hi - lo > tol; step++) {
    if (step >= 4 || !(aim > lo && aim < hi)) aim = (lo + hi) / 2;
    const x0 = Math.min(Math.max(aim - tol * 0.45, lo + tol * 0.05), hi - tol * 0.95);
    const f0 = slack(x0);
    if (f0 < 0) {
      hi = x0;
      fHi = f0;
      aim = across(lo, fLo, hi, fHi);
      continue;
    }
    lo = x0;
    fLo = f0;
    const x1 = x0 + tol * 0.9;
    const f1 = slack(x1);
    if (f1 < 0) {
      hi = x1;
      fHi = f1;
    } else {
      lo = x1;
      fLo = f1;
      aim = f1 < f0 ? x1 + (f1 * (x1 - x0)) / (f0 - f1) : across(lo, fLo, hi, fHi);
    }
  }
  return { lo, hi };
}

/**
 * The largest card width (and then the largest fan room, from `fanMin` up) of one arrangement that fits
 * `avail`, and the bracket it was found in (`lo`, `hi`). `atLeast`: a card width below which
 * the arrangement is of no use; if it does not fit there, the search stops and says so
 * (`short`; `w` is then below `atLeast`). `plainOnly`: stop before the fan room when the
 * cards come out small (they are searched again with short captions). `near`: a bracket
 * where the answer is likely (the one with long captions), looked at first.
 */
function solve(table, avail, maxW, fanMin, { atLeast = MIN_CARD_W, plainOnly = false, near = null } = {}) {
  // How far the table is inside the space across and down (negative: how far it is over).
  const room = (w, k) => {
    setSize(table, w, k);
    const size = contentSize(table);
    return { across: avail.width + 0.5 - size.width, down: avail.height + 0.5 - size.height };
  };
  const seen = new Map();
  const slack = (w) => {
    const r = room(w, fanMin);
    seen.set(w, r);
    return Math.min(r.across, r.down);
  };
  if (atLeast > maxW) return { w: MIN_CARD_W, k: fanMin, short: true };
  let lo = Math.max(atLeast, MIN_CARD_W);
  let fLo = null;
  if (near && near.lo > lo) {
    const f = slack(near.lo);
    if (f >= 0) [lo, fLo] = [near.lo, f];
  }
  if (fLo === null) {
    fLo = slack(lo);
    if (fLo < 0) return { w: MIN_CARD_W, k: fanMin, short: lo > MIN_CARD_W };
  }
  let hi = maxW;
  let fHi = null;
  if (near && near.hi > lo && near.hi < maxW) {
    const f = slack(near.hi);
    if (f < 0) [hi, fHi] = [near.hi, f];
    else [lo, fLo] = [near.hi, f];
  }
  if (fHi === null) {
    fHi = slack(maxW);
    if (fHi >= 0) [lo, fLo] = [maxW, fHi];
  }
  if (fHi < 0) ({ lo, hi } = largestFitting(slack, lo, fLo, hi, fHi, CARD_W_TOLERANCE));
  const w = lo;
  if (plainOnly && w < SMALL_CARD_W) return { w, k: fanMin, lo, hi };
  // Height to spare: the fans get it (up to FAN_ROOM_MAX), so tall side stacks squeeze less.
  // The fan room changes only the height: the search follows the room down.
  const down = (k) => {
    const r = room(w, k);
    return r.across >= 0 ? r.down : Math.min(r.across, r.down);
  };
  let k = FAN_ROOM_MAX;
  const fTop = down(FAN_ROOM_MAX);
  if (fTop < 0) {
    const fBottom = seen.has(w) ? seen.get(w).down : down(fanMin);
    const tol = (FAN_ROOM_MAX - fanMin) / 256;
    k = fBottom < 0 ? fanMin : largestFitting(down, fanMin, fBottom, FAN_ROOM_MAX, fTop, tol).lo;
  }
  return { w, k, lo, hi };
}

/** The arrangement's solution, with the short captions of small cards (see fitTable). */
function solveWithCaptions(table, avail, maxW, fanMin, atLeast) {
  delete table.dataset.small;
  const plain = solve(table, avail, maxW, fanMin, { atLeast: Math.min(atLeast, SMALL_CARD_W), plainOnly: true });
  if (plain.w >= SMALL_CARD_W) return plain;
  // Small cards get short captions (data-small), which leaves them a little more room.
  table.dataset.small = "";
  const near = plain.short ? null : plain;
  return { ...solve(table, avail, maxW, fanMin, { atLeast, near }), small: true };
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
  table.dataset.layout = "stacked";
  results.stacked = solveWithCaptions(table, avail, maxW, fanMin, MIN_CARD_W);
  // The stacked table reads best; another only when its cards are clearly larger: one that
  // cannot even fit cards that large is not searched further.
  const enough = results.stacked.w * 1.08;
  for (const other of ["wide", "flat"]) {
    table.dataset.layout = other;
    results[other] = solveWithCaptions(table, avail, maxW, fanMin, enough);
  }
  // The flat table needs clearly larger cards than the wide one too: that takes the wide
  // table's own size.
  if (results.wide.short && !results.flat.short) {
    table.dataset.layout = "wide";
    results.wide = solveWithCaptions(table, avail, maxW, fanMin, MIN_CARD_W);
  }
  const other = results.flat.w > results.wide.w * 1.04 ? "flat" : "wide";
  const layout = results[other].w > enough ? other : "stacked";
  table.dataset.layout = layout;
  if (results[layout].small) table.dataset.small = "";
  else delete table.dataset.small;
  setSize(table, results[layout].w, results[layout].k);
  table.classList.remove("is-fitting");
  return results[layout].w;
}

/**
 * Keep `table` fitted while its wrapper changes size; returns a function that stops it.
 * A window's resize is told twice (its resize event, then the wrapper's resize observer, a
 * frame later): the table is fitted once for each new size of the wrapper and the window.
 */
export function keepFitted(table) {
  let frame = 0;
  let fittedTo = "";
  const fit = () => {
    const wrap = table.parentElement;
    const size = wrap
      ? `${wrap.clientWidth}x${wrap.clientHeight} ${innerWidth}x${innerHeight} ${document.body.className}`
      : "";
    if (size === fittedTo) return;
    if (fitTable(table) > 0) fittedTo = size;
  };
  const schedule = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(fit);
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
