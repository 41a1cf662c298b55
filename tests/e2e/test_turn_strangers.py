"""End to end (issue 47): two strangers look for an opponent over days from the lobby (3
days a move); one cancels and looks again; a wave of the server pairs them while their
pages wait; the game comes into both lobbies' lists of games over days, opens from there,
and shows the time for the move in days (no live move clock), with abort before both
moved."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import APIResponse, Route, expect

from waiting import wait_for

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e

PAIRED_JS = """async () => {
  const answer = await fetch("/api/turn-pool");
  return answer.ok && (await answer.json()).games.length > 0;
}"""


def look_for_an_opponent(player: Player) -> None:
    page = player.page
    player.goto("play")
    expect(page.locator("#turn-pool h3")).to_have_text("Play a stranger over days")
    page.select_option("#turn-pool-days", "3")
    page.click("#join-turn-pool")
    expect(page.locator("#turn-pool-wait")).to_have_text(
        "Looking for an opponent over days, 3 days a move. You may close the page: the game "
        "will be in your list when it starts."
    )
    expect(page.locator("#join-turn-pool")).to_be_hidden()


def test_two_strangers_are_paired_over_days_from_the_lobby(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    ann = Player.open(new_context(), server.url, "ann")
    bob = Player.open(new_context(), server.url, "bob")
    for player in (ann, bob):
        player.configure()
    look_for_an_opponent(ann)
    ann.page.click("#leave-turn-pool")
    expect(ann.page.locator("#turn-games-status")).to_have_text(
        "You are no longer looking for an opponent over days."
    )
    expect(ann.page.locator("#join-turn-pool")).to_be_visible()
    look_for_an_opponent(ann)
    ann.page.reload()  # the wait needs no page: it is still there after a reload
    expect(ann.page.locator("#turn-pool-waiting")).to_be_visible()
    look_for_an_opponent(bob)
    rooms = []
    for player, other in ((ann, bob), (bob, ann)):
        # the server's waves run every 2 seconds; the lobby looks every 30: ask the server
        wait_for(lambda p=player: p.page.evaluate(PAIRED_JS), 60, every=0.5, what="the pairing")
        player.page.reload()
        item = player.page.locator("#turn-games li")
        expect(item).to_have_count(1)
        expect(item).to_contain_text(re.compile(f"vs {other.name} · (your|their) turn, "))
        expect(player.page.locator("#turn-pool-waiting")).to_be_hidden()
        rooms.append(item.get_attribute("data-room"))
    assert rooms[0] == rooms[1]
    for player in (ann, bob):
        player.page.click("#turn-games li a")
        player.page.wait_for_url(f"**/#/game/{rooms[0]}")
        player.wait_started()
    for player in (ann, bob):
        mine = "Your move" if player.phase == "mine" else "Their move"
        expect(player.page.locator("#turn-clock")).to_have_text(
            re.compile(f"^{mine}: (3 days|2 days and 23 hours) left\\.$")
        )
        expect(player.page.locator("#move-clock")).to_be_hidden()
        expect(player.page.locator("#abort-button")).to_be_visible()
    assert ann.errors == [] and bob.errors == []


def test_the_lobbys_first_look_coming_late_does_not_undo_a_wait(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    """A slow network: the lobby's first look at the pool comes back after the player has
    started waiting. The page keeps showing the wait (the newest answer), not the chooser."""
    me = Player.open(new_context(), server.url, "hasty-waiter")
    me.configure()
    page = me.page
    held: list[tuple[Route, APIResponse]] = []

    def hold_the_first_look(route: Route) -> None:
        if route.request.method == "GET" and not held:
            held.append((route, route.fetch()))  # the server answers now; the page, later
        else:
            route.continue_()

    page.context.route("**/api/turn-pool", hold_the_first_look)  # the service worker asks too
    me.goto("play")
    expect(page.locator("#join-turn-pool")).to_be_visible()
    for _ in range(300):  # Playwright calls the route while it waits on the page
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the lobby never looked at the pool"
    page.select_option("#turn-pool-days", "3")
    page.click("#join-turn-pool")
    expect(page.locator("#turn-pool-waiting")).to_be_visible()
    with page.expect_event("requestfinished", lambda r: r.method == "GET"):
        route, answer = held[0]
        route.fulfill(response=answer)  # "not waiting": the server answered before the click
    page.evaluate("() => new Promise(r => setTimeout(() => requestAnimationFrame(r), 0))")
    expect(page.locator("#turn-pool-waiting")).to_be_visible()
    expect(page.locator("#join-turn-pool")).to_be_hidden()
    page.click("#leave-turn-pool")  # out of the pool again, for the other tests of this file
    expect(page.locator("#join-turn-pool")).to_be_visible()
    assert me.errors == []
