"""End to end: "where did I lose": asked after a game, the analysis runs on the server with
its progress shown, and the report appears, in plain words (the costliest turns, numbered as
the player counts them, in whole pay-off cards), with the better turn on the table."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Route, expect

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e

ANALYSIS_TIMEOUT_MS = 300_000
"""The analysis at the default setting takes seconds of CPU; a loaded CI gets minutes."""

WORKING_OUT = "Working out the time left…"
ABOUT = re.compile(r"About \d+ (second|minute)s? left\.")
"""The time left as js/analysis.js says it in English, before and after a decision is done."""
RUNNING_STATUS = {"state": "running", "done": 0, "total": 10}
"""An analysis's status while it runs (web-protocol 2.8)."""

WATCH_ETA_JS = """() => {
  window.etaSeen = [];
  const note = () => {
    const state = document.getElementById('analysis-state');
    const eta = document.getElementById('analysis-eta');
    if (!state || !eta) return;
    const seen = [state.textContent, eta.textContent];
    const last = window.etaSeen[window.etaSeen.length - 1];
    if (!last || last[0] !== seen[0] || last[1] !== seen[1]) window.etaSeen.push(seen);
  };
  new MutationObserver(note).observe(document.body,
    { childList: true, subtree: true, characterData: true });
}"""


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
    # Every text the time left shows while the analysis runs, kept (it changes with every
    # poll). A game this short is analysed between two polls of the page, so the page's
    # first two polls get a running analysis's status (none done, then 4 of 10), to see
    # what it says then; the polls after them get the server's.
    page.evaluate(WATCH_ETA_JS)
    running_status = iter([RUNNING_STATUS, {**RUNNING_STATUS, "done": 4}])

    def poll(route: Route) -> None:
        status = next(running_status, None) if route.request.method == "GET" else None
        if status is None:
            route.continue_()
        else:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(status))

    page.context.route(re.compile(r".*/api/games/[^/]+/analysis$"), poll)
    page.locator("#replay-list a[data-analyse]").first.click()
    page.wait_for_url("**/#/replay/*")
    expect(page.locator("#analysis-state")).to_be_visible()  # the progress, while it runs
    report = page.locator("#analysis-report")
    expect(report).to_be_visible(timeout=ANALYSIS_TIMEOUT_MS)
    shown: list[list[str]] = page.evaluate("() => window.etaSeen")
    running = [eta for state, eta in shown if state.startswith("Looking at your turns: ")]
    # While the decisions are counted the time left is said, never an empty line: "Working
    # out" until a decision is done, then "About N seconds left."
    assert running[:1] == [WORKING_OUT], f"time left shown: {shown}"
    assert any(ABOUT.fullmatch(eta) for eta in running), f"time left shown: {shown}"
    assert all(eta == WORKING_OUT or ABOUT.fullmatch(eta) for eta in running), shown
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
