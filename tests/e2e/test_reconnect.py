"""End to end: a dropped connection reconnects to the same seat, after a reload of the page
and after the server is killed in the middle of a game and started again."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e


def play_turns(player: Player, turns: int) -> None:
    for _ in range(turns):
        if player.wait_phase("mine", "over") == "over":
            return
        player.play_greedy_turn()
    player.wait_phase("mine", "over")


def test_reload_reconnects_to_the_same_seat(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), server.url, "reloader")
    me.configure(payoff_size=20, speed="off")
    room = me.start_computer_game("easy")
    play_turns(me, 1)
    before = me.snapshot()
    log_before = me.page.inner_text("#move-log")

    me.page.reload()
    me.wait_phase("mine", "over")
    assert me.room == room
    assert me.snapshot() == before
    assert me.page.inner_text("#move-log") == log_before
    expect(me.page.locator("#connection")).to_have_attribute("data-status", "open")

    # The seat still plays.
    moves = me.moves_played
    me.play_greedy_turn()
    me.wait_phase("mine", "over")
    assert me.moves_played > moves
    assert me.errors == []


def test_friend_reload_keeps_the_seat(server: ServerProcess, new_context: ContextFactory) -> None:
    host = Player.open(new_context(), server.url, "host")
    host.configure(payoff_size=20, speed="off")
    link = host.create_friend_room()
    guest = Player.open(new_context(), server.url, "guest")
    guest.configure(speed="off")
    guest.page.goto(link)
    guest.wait_phase("mine", "theirs")
    host.wait_phase("mine", "theirs")
    guest_view = guest.snapshot()

    # The guest's page goes away: the host sees the friend offline.
    presence = host.page.locator("#opponent-name")
    expect(presence).to_have_attribute("data-presence", "online")
    guest.page.goto("about:blank")
    expect(presence).to_have_attribute("data-presence", "offline")
    expect(presence).to_contain_text("offline")

    # Opening the invite link again does not join twice: the held token gets the same seat.
    guest.page.goto(link)
    guest.page.wait_for_url("**/#/game/*")
    guest.wait_phase("mine", "theirs")
    assert guest.snapshot() == guest_view
    expect(guest.page.locator(".seat-opponent .seat-name")).to_contain_text(host.name)
    expect(guest.page.locator("#join-error")).to_have_count(0)
    expect(presence).to_have_attribute("data-presence", "online")
    assert host.errors == [] and guest.errors == []


def test_server_restart_mid_game_resumes_where_it_was(
    own_server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), own_server.url, "survivor")
    me.configure(payoff_size=20, speed="off")
    room = me.start_computer_game("easy")
    # three turns, not one: a server killed as the table has just drawn fails the page's
    # fetches still under way (a console error, which the test counts)
    play_turns(me, 3)
    before = me.snapshot()
    assert int(before["moves"]) > 0

    own_server.kill()
    expect(me.page.locator("#connection")).to_have_attribute("data-status", "reconnecting")

    own_server.start()
    expect(me.page.locator("#connection")).to_have_attribute("data-status", "open")
    me.wait_phase("mine", "over")
    assert me.room == room
    assert me.snapshot() == before

    moves = me.moves_played
    me.play_greedy_turn()
    me.wait_phase("mine", "over")
    assert me.moves_played > moves
    assert me.errors == []
