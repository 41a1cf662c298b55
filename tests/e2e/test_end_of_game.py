"""End to end: the end of a game (issue 17, item 7, the part the page can do now): who won
and why, the points, and the game's figures (turns, cards built, discards, stacks
completed), counted from the game's public events and checked against its move count."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e


def test_the_game_over_screen_says_why_and_counts_the_game(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), server.url, "finisher")
    me.configure(payoff_size=5, speed="off")
    me.start_computer_game("easy")
    for _ in range(200):
        if me.wait_phase("mine", "over") == "over":
            break
        me.play_greedy_turn()
    page = me.page
    dialog = page.locator("#game-over")
    expect(dialog).to_be_visible()
    text = dialog.inner_text()
    if "A draw" not in text:
        assert "emptied" in text and "pay-off pile" in text, text
    figures = dialog.locator("#game-figures")
    expect(figures).to_be_visible()
    cells = figures.locator("tbody td").all_inner_texts()
    turns_me, turns_opp, built_me, built_opp, discards_me, discards_opp = map(int, cells)
    # Every move of the game is a build or a discard: the figures add up to the move count.
    assert built_me + built_opp + discards_me + discards_opp == me.moves_played
    # A turn ends with a discard, except the winner's last turn.
    assert turns_me == discards_me and turns_opp == discards_opp
    assert built_me + built_opp >= 5
    assert me.errors == []
