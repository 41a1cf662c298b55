"""End to end (issue 47): the Play page starts a game over days (3 days a move) and lists it
with the time left in days and hours; Settings shows the Notifications box, which asks the
browser nothing until it is turned on (here the browser refuses it: the page says so), and
no Daily e-mail box while the server has no SMTP server set up."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e


def test_a_game_over_days_is_started_and_listed(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), server.url, "days")
    me.configure()
    me.goto("play")
    page = me.page
    expect(page.locator("#turn-games-box h2")).to_have_text("Games over days")
    page.select_option("#turn-days", "3")
    page.click("#create-turn-game")
    page.wait_for_url("**/#/game/*")
    room = page.url.rsplit("/", 1)[-1]
    me.goto("play")
    item = page.locator(f"#turn-games li[data-room='{room}']")
    expect(item).to_contain_text("waiting for a friend")
    assert me.errors == []


def test_the_game_page_shows_the_time_for_the_move_and_offers_no_claim(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    """A game over days, the friend seated: both pages show the time left for the move (3
    days a move, in days and hours); the friend leaves, and no claim is offered (the time
    for a move runs out instead)."""
    host = Player.open(new_context(), server.url, "daysh")
    host.configure()
    host.goto("play")
    page = host.page
    page.select_option("#turn-days", "3")
    page.click("#create-turn-game")
    page.wait_for_url("**/#/game/*")
    expect(page.locator("#turn-clock")).to_be_hidden()  # the clock starts with the friend
    friend = Player.open(new_context(), server.url, "daysf")
    friend.configure()
    friend.page.goto(f"{server.url}/#/join/{host.room}")
    friend.wait_started()
    host.wait_phase("mine", "theirs")
    for player in (host, friend):
        mine = "Your move" if player.phase == "mine" else "Their move"
        expect(player.page.locator("#turn-clock")).to_have_text(
            re.compile(f"^{mine}: (3 days|2 days and 23 hours) left\\.$")
        )
    friend.page.close()
    expect(page.locator("#opponent-name")).to_have_attribute("data-presence", "offline")
    expect(page.locator("#claim-note")).to_be_hidden()
    expect(page.locator("#claim-button")).to_be_hidden()
    assert host.errors == []


def test_settings_offer_notifications_and_hide_the_e_mail_without_smtp(
    server: ServerProcess, new_full_context: ContextFactory
) -> None:
    me = Player.open(new_full_context(), server.url, "notify")
    me.configure()
    me.goto("settings")
    page = me.page
    expect(page.locator("#push-setting h2")).to_have_text("Notifications")
    expect(page.locator("#email-setting")).to_be_hidden()
    box = page.locator("#push-notify")
    expect(box).to_be_enabled()
    expect(box).not_to_be_checked()
    box.check()  # the test browser was granted no permission: it is refused
    expect(page.locator("#push-status")).to_have_text(
        "Notifications are blocked for this site in the browser's settings."
    )
    expect(box).not_to_be_checked()
    assert me.errors == []
