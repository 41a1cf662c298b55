"""End to end: "where did I lose" (issue 14 item 3): asked after a game, the analysis runs on
the server with its progress shown, and the report appears with the better turn on the table."""

from __future__ import annotations

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
    report = page.locator("#analysis-report")
    expect(report).to_be_visible(timeout=ANALYSIS_TIMEOUT_MS)
    expect(page.locator("#analysis-total")).to_contain_text("your")
    turns = page.locator("#analysis-worst .analysis-turn")
    if turns.count():
        first = turns.first
        expect(first.locator(".analysis-reason")).to_contain_text("Why: ")
        first.locator("button[data-show]").click()
        expect(page.locator("#table")).to_have_attribute("data-frame", "analysis")
        expect(page.locator("#table .is-hint").first).to_be_visible()
        expect(page.locator("#replay-move")).to_contain_text("Better: ")
    assert me.errors == []
