"""End to end: the daily deal (issue 14 item 4; issue 43 item 5): chosen level, played in
the page, one a day; its table says so and has no "New match"; the try is spent by the
first move, not by opening it, and leaving after that move asks first."""

from __future__ import annotations

import re
from datetime import UTC, datetime

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
    # The table says it is the daily deal, with today's date; no "New match" there.
    day = datetime.now(UTC)
    expect(page.locator("#daily-label")).to_have_text(
        re.compile(rf"^Daily deal · .*\b{day.day}\b.*{day.year}$")
    )
    expect(page.locator("#new-match-button")).to_be_hidden()
    # Opened, not played: leaving asks nothing, and the try is not spent.
    page.click(".nav a[data-route=play]")
    page.wait_for_url("**/#/play")
    me.goto("daily")
    expect(page.locator("#daily-opened")).to_contain_text("your try is not spent")
    page.click("#daily-play")
    page.wait_for_url(f"**/#/game/{room}")
    me.wait_phase("mine")
    me.play_move(me.greedy_choice(me.legal_moves()))
    me.wait_phase("mine", "theirs")
    # After the first move, leaving asks first and says the day's try is spent.
    page.click(".nav a[data-route=play]")
    question = page.locator("dialog[open]")
    expect(question).to_contain_text("Today's try is spent")
    page.click("#confirm-no")
    assert page.url.endswith(f"#/game/{room}")
    # The browser's Back asks the same, and staying keeps the table.
    page.go_back()
    expect(question).to_contain_text("Today's try is spent")
    page.click("#confirm-no")
    expect(page.locator("#table")).to_have_attribute("data-phase", re.compile("mine|theirs"))
    assert page.url.endswith(f"#/game/{room}")
    page.click(".nav a[data-route=tutorial]")
    expect(question).to_contain_text("Leave the daily deal?")
    page.click("#confirm-yes")
    page.wait_for_url("**/#/tutorial")
    me.goto("daily")
    started = page.locator("#daily-started")
    expect(started).to_contain_text("You have started today's deal.")
    started.get_by_role("link", name="Go on with it").click()
    page.wait_for_url(f"**/#/game/{room}")
    me.wait_phase("mine", "theirs")
    me.wait_phase("mine")
    page.click("#resign-button")
    page.click("#confirm-yes")
    me.wait_phase("over")
    # The end screen leads back to the daily deal's page, not to a new match.
    expect(page.locator("#dialog-new-match")).to_have_text("Back to the daily deal")
    page.click("#dialog-new-match")
    page.wait_for_url("**/#/daily")
    expect(page.locator("#daily-done")).to_contain_text("Today: You lost.")
    expect(page.locator('#daily-stats [data-figure="days_played"] .daily-value')).to_have_text("1")
    expect(page.locator("#daily-play")).to_have_count(0)
    me.goto("stats")
    expect(page.locator('#stats-table tr[data-level="daily"] th')).to_have_text("Daily deal")
    assert me.errors == []
