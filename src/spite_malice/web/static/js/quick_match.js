// "Play someone" in the lobby: wait in a quick-match pool until a wave pairs you with a
// stranger, then open the game (web-protocol 3.8).

import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { _ } from "./i18n.js";
import { saveRoomTicket } from "./store.js";

const POOLS = [
  { id: "standard", label: () => _("Standard"), note: () => _("20 cards to pay off, 1:30 a turn") },
  { id: "quick", label: () => _("Quick"), note: () => _("10 cards to pay off, 1:00 a turn") },
];

/** The lobby's box: a pool choice, the button, and the waiting view with its cancel. */
export function quickMatchBox(status) {
  let pool = "standard";
  let waiting = false;
  let started = 0;
  let ticker = null;

  const choices = h("div", { class: "level-picker pool-picker", role: "radiogroup", "aria-label": _("Pool") },
    POOLS.map((p) => h("label", { class: "level-option", for: `pool-${p.id}` },
      h("input", {
        type: "radio", name: "pool", value: p.id, id: `pool-${p.id}`, checked: p.id === pool,
        onchange: () => (pool = p.id),
      }),
      h("span", {}, p.label()),
      h("small", { class: "muted" }, " " + p.note()))));
  const playButton = h("button", { class: "btn btn-primary", id: "play-someone", type: "button" }, _("Play someone"));
  const cancelButton = h("button", { class: "btn", id: "cancel-pool", type: "button" }, _("Cancel"));
  const waitLine = h("p", { class: "pool-wait", id: "pool-wait", role: "status", "aria-live": "polite" });
  const waitView = h("div", { class: "pool-waiting", id: "pool-waiting", hidden: true }, waitLine, cancelButton);
  const chooser = h("div", { class: "pool-choose" }, choices, playButton);

  const show = (isWaiting) => {
    waiting = isWaiting;
    chooser.hidden = isWaiting;
    waitView.hidden = !isWaiting;
    clearInterval(ticker);
    ticker = null;
    if (isWaiting) {
      started = performance.now();
      const tick = () => {
        const seconds = Math.round((performance.now() - started) / 1000);
        waitLine.textContent = _("Looking for an opponent… {n} s", { n: seconds });
      };
      tick();
      ticker = setInterval(tick, 1000);
    }
  };

  const open = (ticket) => {
    show(false);
    saveRoomTicket(ticket);
    location.hash = `#/game/${ticket.room}`;
  };

  const wait = async () => {
    while (waiting) {
      let news;
      try {
        news = await api.poolNews(20);
      } catch (error) {
        status.textContent = error.message;
        await new Promise((resolve) => setTimeout(resolve, 2000));
        continue;
      }
      if (!waiting) return;
      if (news.status === "paired") return open(news);
      if (news.status === "none") return show(false);
    }
  };

  playButton.addEventListener("click", async () => {
    playButton.disabled = true;
    status.textContent = "";
    try {
      const answer = await api.joinPool(pool);
      if (answer.status === "paired") return open(answer);
      show(true);
      wait();
    } catch (error) {
      status.textContent = error.message;
    } finally {
      playButton.disabled = false;
    }
  });
  cancelButton.addEventListener("click", async () => {
    try {
      const answer = await api.leavePool();
      if (answer.status === "paired") return open(answer);
      show(false);
      status.textContent = _("You left the pool.");
    } catch (error) {
      status.textContent = error.message;
    }
  });

  const box = h("section", { class: "card-box quick-match", id: "quick-match" });
  replaceChildren(box,
    h("h2", {}, _("Play someone")),
    // the link inside the sentence: running text, not a control of its own
    h("p", { class: "muted" }, _("Play a stranger of about your rating: a rated game with a clock on every turn."), " ",
      h("a", { href: "#/rules/strangers", id: "strangers-help" }, _("How pairing, the clock and bans work"))),
    chooser, waitView);
  // a page left while waiting: leave the pool too (the server also drops a silent place)
  window.addEventListener("hashchange", () => {
    if (waiting && !location.hash.startsWith("#/game/")) {
      waiting = false;
      clearInterval(ticker);
      api.leavePool().catch(() => {});
    }
  }, { once: true });
  return box;
}
