"""End to end: motion that tells the story (issue 17, item 5).

The opponent's turn is replayed move by move in sentences, cards drawn fly from the stock,
what the opponent changed stays marked until I act, and the banner changes only when the
turn changes hands (no flicker between "plays" and "is thinking")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .player import TABLE, ContextFactory, Player, keep_game_socket
from .server import ServerProcess

pytestmark = pytest.mark.e2e

WATCH_JS = """
window.__flights = [];
window.__banner = [];
new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (node.classList?.contains('flyer')) {
        const stock = document.querySelector('[data-stock]')?.getBoundingClientRect();
        window.__flights.push({
          left: parseFloat(node.style.left), top: parseFloat(node.style.top),
          stock: stock ? { left: stock.left, top: stock.top } : null,
        });
      }
    }
    const banner = document.querySelector('#turn-banner');
    if (banner && banner.contains(record.target)) {
      const text = banner.textContent;
      if (window.__banner.at(-1) !== text) window.__banner.push(text);
    }
  }
}).observe(document, { childList: true, subtree: true, characterData: true });
"""


def test_the_opponents_turn_is_told_and_marked(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    context = new_context()
    context.add_init_script(WATCH_JS)
    keep_game_socket(context)  # my turns go as the page's own move messages (not the subject)
    me = Player.open(context, server.url, "viewer")
    me.configure(payoff_size=20, speed="fast")
    me.start_computer_game("easy")
    page = me.page
    from_stock = 0
    for _ in range(3):
        me.wait_phase("mine")
        page.evaluate("() => { window.__banner = []; window.__flights = []; }")
        me.play_greedy_turn(send=True)
        me.wait_phase("mine", "over")
        if me.phase == "over":
            break
        # The banner said whose turn it was, once a change: mine, theirs, mine again.
        banner: list[str] = page.evaluate("() => window.__banner")
        assert len(banner) <= 2, banner
        assert banner[-1] == "Your turn", banner
        # Cards drawn flew from the stock (the opponent's refill, and mine).
        flights = page.evaluate("() => window.__flights")
        from_stock += sum(
            1
            for f in flights
            if f["stock"]
            and abs(f["left"] - f["stock"]["left"]) < 3
            and abs(f["top"] - f["stock"]["top"]) < 3
        )
        # The opponent's move is told in words, and what it changed stays marked.
        expect(page.locator("#move-log li").last).to_be_attached()
        assert page.locator(f"{TABLE} .is-changed").count() > 0
    assert from_stock > 0, "no card flew from the stock"
    # Acting (a pick) clears the marks.
    me.wait_phase("mine")
    page.locator(f"{TABLE} .hand-card").first.click()
    expect(page.locator(f"{TABLE} .is-changed")).to_have_count(0)
    assert me.errors == []
