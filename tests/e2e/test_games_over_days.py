"""End to end (issue 47): the Play page starts a game over days (3 days a move) and lists it
with the time left in days and hours; Settings shows the Notifications box, which asks the
browser nothing until it is turned on (here the browser refuses it: the page says so), and
no Daily e-mail box while the server has no SMTP server set up."""

from __future__ import annotations

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


def test_settings_offer_notifications_and_hide_the_e_mail_without_smtp(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), server.url, "notify")
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
