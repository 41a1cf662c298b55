"""End to end: replays (issue 14 item 2) on a phone held upright. (A finished game replaying
to its final table, stepping back and forth, its record downloaded, opened again, and a bad
file refused: test_end_of_game, on the game played to its end there.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e


def test_the_replay_controls_work_on_a_phone_held_upright(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(390, 844), server.url, "upright")
    # A long pay-off pile: with 5 cards one greedy turn could win the game on some deals, and
    # the resign button is hidden once the game is over.
    me.configure(payoff_size=20, speed="off")
    me.start_computer_game("easy")
    me.wait_phase("mine")
    me.play_greedy_turn()
    page = me.page
    page.click("#more-button")  # on a phone the resign button is in the sheet
    page.click("#resign-button")
    page.click("#confirm-yes")
    me.wait_phase("over")
    me.goto("replays")
    page.locator("#replay-list a[data-game]").first.click()
    table = page.locator("#table[data-frames]")
    expect(table).to_have_attribute("data-frame", "0")
    frames = int(table.get_attribute("data-frames") or 0)
    page.click("#replay-end")  # the panel under the table, whole: nothing covers its buttons
    expect(table).to_have_attribute("data-frame", str(frames - 1))
    page.click("#replay-back")
    expect(table).to_have_attribute("data-frame", str(frames - 2))
    expect(page.locator("#replay-move")).not_to_be_empty()
    assert me.errors == []
