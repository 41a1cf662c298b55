"""End to end: two players in two browser contexts play a whole game through a room."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .player import ContextFactory, Player, keep_game_socket
from .server import ServerProcess

pytestmark = pytest.mark.e2e

MAX_TURNS = 600


def test_online_game_between_two_browser_contexts(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    host_context = new_context()
    keep_game_socket(host_context)
    host = Player.open(host_context, server.url, "host")
    host.configure(payoff_size=5, match_target=50, speed="off")
    link = host.create_friend_room()
    assert link.startswith(server.url) and "/#/join/" in link
    host.wait_phase("waiting")
    expect(host.page.locator("#turn-banner")).to_contain_text("Waiting for your friend")

    # The friend plays on a phone-sized screen and opens the invite link.
    guest_context = new_context(width=390, height=844)
    keep_game_socket(guest_context)
    guest = Player.open(guest_context, server.url, "guest")
    guest.configure(speed="off")
    guest.page.goto(link)
    guest.page.wait_for_url("**/#/game/*")
    assert guest.room == host.room

    for player in (host, guest):
        player.wait_phase("mine", "theirs")
    expect(host.page.locator(".seat-opponent .seat-name")).to_contain_text(guest.name)
    expect(guest.page.locator(".seat-opponent .seat-name")).to_contain_text(host.name)
    expect(host.page.locator("#invite")).to_be_hidden()
    # Hint and undo are for games against the computer only.
    expect(host.page.locator("#hint-button")).to_be_hidden()
    expect(guest.page.locator("#undo-button")).to_be_hidden()
    assert sorted([host.phase, guest.phase]) == ["mine", "theirs"]
    # Each sees its own hand face up and the other's as card backs.
    for player in (host, guest):
        expect(player.page.locator(".seat-me .hand-card[data-card]")).to_have_count(5)
        expect(player.page.locator(".seat-opponent .opp-hand .card")).to_have_count(5)
        expect(player.page.locator(".seat-opponent .opp-hand [data-card]")).to_have_count(0)
    # The phone-sized table fits the screen's width.
    overflow = guest.page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert overflow <= 0

    clicked: set[str] = set()
    for _ in range(MAX_TURNS):
        active, waiting = (host, guest) if host.phase == "mine" else (guest, host)
        assert active.phase == "mine"
        if active.name in clicked:
            # the game's other turns reach its end sooner: each move goes through the
            # socket as the page's own message (the page draws it all the same)
            active.play_greedy_turn(send=True)
        else:
            active.play_greedy_turn()  # each player's first turn is clicked
            clicked.add(active.name)
        phase = waiting.wait_phase("mine", "over")
        active.wait_phase("theirs", "over")
        # Both see the same cards on the table: the mover's side stacks, seen from both seats.
        assert waiting.side_cards("opponent") == active.side_cards("me")
        if phase == "over":
            break
    else:
        pytest.fail(f"the game did not end within {MAX_TURNS} turns")

    for player in (host, guest):
        expect(player.page.locator("#game-over")).to_be_visible()
    host_text = host.page.inner_text("#game-over")
    guest_text = guest.page.inner_text("#game-over")
    if "draw" not in host_text.lower():
        assert ("You win the game" in host_text) != ("You win the game" in guest_text)

    # Either player deals the next game; both tables show it.
    host.page.click("#dialog-next-game")
    for player in (host, guest):
        player.page.wait_for_function(
            "() => document.querySelector('#table').dataset.game === '2'", polling=100
        )
        player.wait_phase("mine", "theirs")
    assert host.errors == [] and guest.errors == []
