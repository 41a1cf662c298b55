"""End to end: the daily deal (issue 14 item 4): chosen level, played in the page, one a day."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e


def test_the_daily_deal_is_played_once_a_day(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), server.url, "daily")
    me.configure(speed="off")
    page = me.page
    me.goto("daily")
    expect(page.locator("#daily-date")).to_contain_text("the same cards for every player today")
    expect(page.locator('#daily-stats [data-figure="days_played"] .daily-value')).to_have_text("0")
    page.click("label[for=daily-level-easy]")
    page.click("#daily-play")
    page.wait_for_url("**/#/game/*")
    me.wait_started()
    room = me.room
    me.goto("daily")
    started = page.locator("#daily-started")
    expect(started).to_contain_text("You have started today's deal.")
    started.get_by_role("link", name="Go on with it").click()
    page.wait_for_url(f"**/#/game/{room}")
    me.wait_phase("mine")
    page.click("#resign-button")
    page.click("#confirm-yes")
    me.wait_phase("over")
    me.goto("daily")
    expect(page.locator("#daily-done")).to_contain_text("Today: You lost.")
    expect(page.locator('#daily-stats [data-figure="days_played"] .daily-value')).to_have_text("1")
    expect(page.locator("#daily-play")).to_have_count(0)
    me.goto("stats")
    expect(page.locator('#stats-table tr[data-level="daily"] th')).to_have_text("Daily deal")
    assert me.errors == []
