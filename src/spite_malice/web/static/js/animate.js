// The opponent's moves, played back one at a time: a card flies from where it was to where
// it goes, at the chosen speed, and the whole queue can be skipped.

import { cardBack, cardFace } from "./cards.js";

/** Milliseconds of one card's flight, and the pause after it, per speed setting. */
export const SPEEDS = {
  off: { fly: 0, pause: 0 },
  fast: { fly: 220, pause: 90 },
  normal: { fly: 450, pause: 220 },
  slow: { fly: 850, pause: 450 },
};

export function speedOf(name) {
  return SPEEDS[name] ?? SPEEDS.normal;
}

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

/**
 * Fly a copy of `card` (a card code, or null for a back) from one place to another; a place
 * is a pile's node (its shown card counts) or a rectangle measured before a redraw.
 */
export function flyCard(card, fromPlace, toPlace, ms) {
  if (!fromPlace || !toPlace || ms <= 0 || reducedMotion()) return Promise.resolve();
  const from = placeRect(fromPlace);
  const to = placeRect(toPlace);
  const svg = card ? cardFace(card) : cardBack();
  svg.setAttribute("aria-hidden", "true");
  const flyer = document.createElement("div");
  flyer.className = "card flyer";
  flyer.append(svg);
  Object.assign(flyer.style, {
    left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`, height: `${from.height}px`,
    transformOrigin: "0 0",
  });
  document.body.append(flyer);
  const dx = to.left - from.left;
  const dy = to.top - from.top;
  const scale = to.width / from.width;
  const animation = flyer.animate(
    [
      { transform: "translate(0, 0) scale(1)", boxShadow: "0 2px 6px rgba(0,0,0,.3)" },
      {
        transform: `translate(${dx / 2}px, ${dy / 2 - 24}px) scale(${((1 + scale) / 2) * 1.08})`,
        boxShadow: "0 14px 26px rgba(0,0,0,.35)",
        offset: 0.5,
      },
      { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, boxShadow: "0 2px 6px rgba(0,0,0,.3)" },
    ],
    { duration: ms, easing: "ease-in-out", fill: "forwards" },
  );
  const done = animation.finished.catch(() => {}).then(() => flyer.remove());
  flyer.cancelFlight = () => animation.finish();
  activeFlyers.add(flyer);
  done.then(() => activeFlyers.delete(flyer));
  return done;
}

const activeFlyers = new Set();

/** Finish every flight at once (the player skipped the animation). */
export function finishFlights() {
  for (const flyer of activeFlyers) flyer.cancelFlight();
}

function placeRect(place) {
  return place instanceof Element ? cardRect(place) : place;
}

/** The rectangle of the card a pile shows (a fan's top card, a pile's face). */
function cardRect(node) {
  const card = node.classList.contains("card")
    ? node
    : node.querySelector(".fan-top") ?? node.querySelector(".card:last-of-type") ?? node;
  const rect = card.getBoundingClientRect();
  if (node.matches(".fan") && node.querySelector(".fan-top")) {
    // A discard lands one fan step below the current top card.
    const cards = node.querySelectorAll(".card");
    const step = cards.length > 1
      ? cards[1].getBoundingClientRect().top - cards[0].getBoundingClientRect().top
      : rect.height * 0.21;
    return { left: rect.left, top: rect.top + step, width: rect.width, height: rect.height };
  }
  return rect;
}
