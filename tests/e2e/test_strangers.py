"""End to end: two strangers in two browser contexts press Play someone, are paired by a
wave and meet at one table; the move clock counts down for the player to move and shows the
opponent's time to the other; the game is aborted before both moved, then the opponent is
blocked from the end screen. A player alone in the pool cancels."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .player import ContextFactory, Player, keep_game_socket
from .server import ServerProcess

CLOCK_SHOWN = re.compile(r"Your time: [01]:[0-5]\d")
"""The 90 s move clock in minutes and seconds, however far it has run on a loaded machine
(it counts from 1:30)."""

pytestmark = pytest.mark.e2e


def play_someone(player: Player, pool: str = "quick") -> None:
    player.goto("play")
    player.page.click(f"label[for=pool-{pool}]")
    player.page.click("#play-someone")


def test_two_strangers_meet_see_the_clock_abort_and_block(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    ann = Player.open(new_context(), server.url, "ann")
    bob = Player.open(new_context(), server.url, "bob")
    for player in (ann, bob):
        player.configure()
        play_someone(player)
    for player in (ann, bob):
        player.page.wait_for_url("**/#/game/*", timeout=60_000)
        player.wait_started()
    assert ann.room == bob.room
    mover, other = (ann, bob) if ann.wait_phase("mine", "theirs") == "mine" else (bob, ann)
    expect(mover.page.locator("#move-clock")).to_contain_text(CLOCK_SHOWN)
    expect(other.page.locator("#move-clock")).to_contain_text(f"{mover.name}'s time:")
    for player in (ann, bob):
        expect(player.page.locator("#abort-button")).to_be_visible()
    other.page.click("#abort-button")
    other.page.click("#confirm-yes")
    for player in (ann, bob):
        expect(player.page.locator("#turn-banner")).to_contain_text("aborted")
        expect(player.page.locator("#move-clock")).to_be_hidden()
    block = other.page.locator("#block-button")
    expect(block).to_have_text(f"Block {mover.name}")
    block.click()
    other.page.click("#confirm-yes")
    expect(other.page.locator("#message")).to_contain_text(f"You blocked {mover.name}")
    expect(block).to_be_hidden()
    assert ann.errors == [] and bob.errors == []


RATINGS_JS = """async () => {
  const { api } = await import("/static/js/api.js");
  return (await api.ratings()).pools;
}"""


def test_two_strangers_play_a_rated_game_to_a_resignation(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    """Both move (the abort goes), the clock follows the turn, one resigns: the game is rated
    for both, as their ratings say. The two turns go as the page's own move messages (they
    only get the game on)."""
    contexts = [new_context(), new_context()]
    for context in contexts:
        keep_game_socket(context)
    ann = Player.open(contexts[0], server.url, "ann")
    bob = Player.open(contexts[1], server.url, "bob")
    for player in (ann, bob):
        player.configure()
        play_someone(player)
    for player in (ann, bob):
        player.page.wait_for_url("**/#/game/*", timeout=60_000)
        player.wait_started()
    first, second = (ann, bob) if ann.wait_phase("mine", "theirs") == "mine" else (bob, ann)
    first.play_greedy_turn(send=True)
    # emptying a pay-off pile of 10 in the first turn is all but impossible: the second turn comes
    assert second.wait_phase("mine") == "mine"
    expect(second.page.locator("#move-clock")).to_contain_text(CLOCK_SHOWN)
    second.play_greedy_turn(send=True)
    assert first.wait_phase("mine") == "mine"
    for player in (ann, bob):
        expect(player.page.locator("#abort-button")).to_be_hidden()
    first.page.click("#resign-button")
    first.page.click("#confirm-yes")
    expect(first.page.locator("#turn-banner")).to_have_text("You resigned the match")
    expect(second.page.locator("#turn-banner")).to_contain_text("resigned: you win the match")
    for player in (ann, bob):
        player.wait_phase("over")
        pools = player.page.evaluate(RATINGS_JS)
        assert [pool["pool"] for pool in pools] == ["quick"], pools
        assert pools[0]["games"] == 1 and pools[0]["provisional"] is True
    assert ann.errors == [] and bob.errors == []


def test_a_player_alone_in_the_pool_cancels(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    cat = Player.open(new_context(), server.url, "cat")
    cat.configure()
    play_someone(cat, "standard")
    expect(cat.page.locator("#pool-waiting")).to_be_visible()
    expect(cat.page.locator("#pool-wait")).to_contain_text("Looking for an opponent")
    cat.page.click("#cancel-pool")
    expect(cat.page.locator("#pool-waiting")).to_be_hidden()
    expect(cat.page.locator("#play-someone")).to_be_visible()
    assert cat.errors == []
