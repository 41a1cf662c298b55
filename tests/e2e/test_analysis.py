"""End to end: "where did I lose": asked after a game, the analysis runs on the server with
its progress shown, and the report appears, in plain words (the costliest turns, numbered as
the player counts them, in whole pay-off cards), with the better turn on the table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e

ANALYSIS_TIMEOUT_MS = 300_000
"""The analysis at the default setting takes seconds of CPU; a loaded CI gets minutes."""


def test_the_report_appears_after_a_game(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), server.url, "analysed")
    me.configure(payoff_size=5, speed="off")
    me.start_computer_game("easy")
    for _ in range(200):
        if me.wait_phase("mine", "over") == "over":
            break
        me.play_greedy_turn()
    page = me.page
    page.click("#dialog-replays")  # from the end-of-game box to the list of replays
    page.wait_for_url("**/#/replays")
    page.locator("#replay-list a[data-analyse]").first.click()
    page.wait_for_url("**/#/replay/*")
    expect(page.locator("#analysis-state")).to_be_visible()  # the progress, while it runs
    expect(page.locator("#analysis-eta")).to_be_attached()  # and the time left
    report = page.locator("#analysis-report")
    expect(report).to_be_visible(timeout=ANALYSIS_TIMEOUT_MS)
    expect(page.locator("#analysis-total")).to_contain_text("your")
    expect(report).not_to_contain_text(re.compile(r"\d[.,]\d"))  # never a fraction
    expect(report).not_to_contain_text("expected")
    turns = page.locator("#analysis-worst .analysis-turn")
    if turns.count():
        own_turns = int(re.findall(r"of your (\d+) turns", report.inner_text())[0])
        expect(page.locator("#analysis-worst-title")).to_contain_text("costliest turn")
        for number in turns.evaluate_all("items => items.map(i => Number(i.dataset.turn))"):
            assert 1 <= number <= own_turns  # the player's own count, not both players'
        first = turns.first
        expect(first).to_contain_text("Your turn ")
        expect(first.locator(".analysis-cost")).to_contain_text("pay-off card")
        expect(first.locator(".analysis-reason")).to_contain_text("Why: ")
        first.locator("button[data-show]").click()
        expect(page.locator("#table")).to_have_attribute("data-frame", "analysis")
        expect(page.locator("#table .is-hint").first).to_be_visible()
        expect(page.locator("#replay-move")).to_contain_text("Better: ")
    assert me.errors == []
