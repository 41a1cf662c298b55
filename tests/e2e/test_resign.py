"""End to end: resigning a match (issue 17, item 8, with the server's `resign` of
web-protocol 4.2): asked first, then the match is over for both seats and only a new match
goes on."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e


def test_resign_against_the_computer(server: ServerProcess, new_context: ContextFactory) -> None:
    me = Player.open(new_context(), server.url, "quitter")
    me.configure(payoff_size=20, speed="off")
    me.start_computer_game("easy")
    me.wait_phase("mine")
    page = me.page
    moves = me.moves_played
    page.click("#resign-button")
    expect(page.locator("dialog[open]")).to_contain_text("counts as lost")
    page.click("#confirm-no")
    assert me.phase == "mine" and me.moves_played == moves
    page.click("#resign-button")
    page.click("#confirm-yes")
    me.wait_phase("over")
    expect(page.locator("#turn-banner")).to_have_text("You resigned the match")
    expect(page.locator("#resign-button")).to_be_hidden()
    expect(page.locator("#new-match-button")).to_be_visible()
    # The end screen says so too, and its New match deals afresh.
    expect(page.locator("#game-over")).to_contain_text("counts as lost")
    page.click("#dialog-new-match")
    me.wait_phase("mine", "theirs")
    expect(page.locator("#scoreboard")).to_contain_text("Game 1")
    assert me.errors == []


def test_resign_in_a_friend_game(server: ServerProcess, new_context: ContextFactory) -> None:
    host = Player.open(new_context(), server.url, "host")
    host.configure(payoff_size=20, speed="off")
    link = host.create_friend_room()
    friend = Player.open(new_context(), server.url, "friend")
    friend.configure(payoff_size=20, speed="off")
    friend.page.goto(link)
    friend.wait_started()
    host.wait_phase("mine", "theirs")
    # On a phone the button is in the More sheet; here, at a desktop size, in the panel.
    friend.page.click("#resign-button")
    friend.page.click("#confirm-yes")
    friend.wait_phase("over")
    host.wait_phase("over")
    expect(friend.page.locator("#turn-banner")).to_have_text("You resigned the match")
    expect(host.page.locator("#turn-banner")).to_contain_text("resigned: you win the match")
    expect(host.page.locator("#new-match-button")).to_be_visible()
    assert host.errors == [] and friend.errors == []
