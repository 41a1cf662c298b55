"""End to end: after rated games against the computer, the statistics page shows the
rating against the computer as provisional ("1340?"), its history as a chart drawn by the
page (an SVG point per rated game), how ratings work with the levels' fixed ratings, and
the leaderboards, empty while everyone is provisional."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from spite_malice.ratings.policy import POOLS

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e

GIVE_UP = """async () => {
  const secret = JSON.parse(localStorage.getItem('spite-malice.player-record')).secret;
  const headers = {'X-Player-Secret': secret, 'Content-Type': 'application/json'};
  const made = await (await fetch('/api/rooms', {method: 'POST', headers,
    body: JSON.stringify({mode: 'computer', level: 'medium', preset: 'quick'})})).json();
  const gone = await fetch(`/api/rooms/${made.room}/give-up`, {method: 'POST',
    headers: {'X-Seat-Token': made.token}});
  return gone.status;
}"""


def test_the_statistics_page_charts_the_rating_and_marks_it_provisional(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    player = Player.open(new_context(), server.url, "rated")
    page = player.page
    player.goto("stats")
    expect(page.locator("#no-ratings")).to_have_text("No rated game yet.")
    # one a pool: standard, quick, turn-based (games over days) and the computer's
    expect(page.locator("#leaderboards .leaderboard")).to_have_count(len(POOLS))
    for _ in range(2):
        assert page.evaluate(GIVE_UP) == 200
    page.reload()
    pool = page.locator("#ratings .rating-pool[data-pool=computer]")
    expect(pool.locator(".rating-shown")).to_have_text(re.compile(r"^1\d{3}\?$"))
    expect(pool).to_contain_text("2 rated games")
    chart = pool.locator("svg.rating-chart")
    expect(chart).to_have_attribute("data-points", "2")
    expect(chart.locator("circle.rating-point")).to_have_count(2)
    board = page.locator("#leaderboards .leaderboard[data-pool=computer]")
    expect(board).to_contain_text("Nobody is on this leaderboard yet.")
    expect(page.locator("#leaderboards")).to_contain_text("in the last 30 days")
    page.click("#ratings-help summary")  # how ratings work, with the levels' figures
    expect(page.locator("#ratings-help")).to_contain_text("Medium 1532, Hard 1814")
    assert not player.errors
