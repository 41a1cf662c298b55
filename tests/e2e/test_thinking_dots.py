"""End to end: the banner's dots show while the computer plays its turn, and go when the
turn comes back (issue 13: the server no longer sends a ``thinking`` message before a quick
computer's turn, whose moves follow at once; the page shows the dots from the state's
``thinking``, which every state and update carries)."""

from __future__ import annotations

import pytest

from .player import ContextFactory, Player, keep_game_socket
from .server import ServerProcess

pytestmark = pytest.mark.e2e

WATCH_JS = """
window.__dots = [];
new MutationObserver(() => {
  const banner = document.querySelector('#turn-banner');
  if (!banner) return;
  const dots = banner.dataset.thinking === 'true';
  if (window.__dots.at(-1) !== dots) window.__dots.push(dots);
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-thinking'] });
"""


def test_the_dots_show_through_every_computer_turn(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    context = new_context()
    context.add_init_script(WATCH_JS)
    keep_game_socket(context)  # my turns go as the page's own move messages (not the subject)
    me = Player.open(context, server.url, "dots")
    me.configure(payoff_size=20, speed="fast")
    me.start_computer_game("easy")
    page = me.page
    turns = 0
    for _ in range(4):
        me.wait_phase("mine")
        page.evaluate("() => { window.__dots = []; }")
        me.play_greedy_turn(send=True)
        me.wait_phase("mine", "over")
        if me.phase == "over":
            break
        turns += 1
        dots: list[bool] = page.evaluate("() => window.__dots")
        # shown while the computer played, and gone now that it is my turn again
        assert dots == [True, False], dots
        banner = "() => document.querySelector('#turn-banner').dataset.thinking"
        assert page.evaluate(banner) is None
    assert turns >= 2
    assert me.errors == []
