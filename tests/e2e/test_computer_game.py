"""End to end: a whole match against the computer, played by clicking in a real browser, with
its sounds (issue 17, item 4), and a few turns against every level."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .player import ContextFactory, Player
from .server import ServerProcess
from .test_sound_and_signals import AUDIO_JS, LISTEN_JS, played

pytestmark = pytest.mark.e2e

MAX_TURNS = 400
"""A bound on my turns in one game, so a broken page fails instead of hanging."""


def test_whole_game_against_easy_by_clicking(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    """A match of one game won, played by clicking to its end, with sound on (the default):
    the sounds of the deal, the moves, the turn and the game's end are played."""
    context = new_context()
    context.add_init_script(LISTEN_JS)  # the sounds played, heard from inside the page
    me = Player.open(context, server.url, "clicker")
    me.configure(payoff_size=5, match_target=1, speed="fast")
    me.start_computer_game("easy")
    page = me.page

    expect(page.locator(".seat-opponent .seat-name")).to_have_text("Easy")
    first_card = page.locator(".seat-me .hand-card").first
    expect(first_card).to_have_attribute("aria-label", re.compile(r"^\w+ of \w+, hand card 1$"))

    # A drawn game (R4.2: the stock ran out, about 1 game in 1,000 of 5 pay-off cards) is won
    # by nobody, leaves the match going on and has no win or lose sound: then the next game.
    dialog = page.locator("#game-over")
    for games in range(1, 6):
        for _ in range(MAX_TURNS):
            phase = me.wait_phase("mine", "over")
            if phase == "over":
                break
            me.play_greedy_turn()
        else:
            pytest.fail(f"the game did not end within {MAX_TURNS} of my turns")
        expect(dialog).to_be_visible()
        assert page.get_attribute("#table", "data-phase") == "over"
        log = page.inner_text("#move-log")
        if "draw" not in dialog.inner_text().lower():
            assert "wins the game" in log or "win the game" in log
            break
        assert "The game is a draw" in log
        dialog.locator("#dialog-next-game").click()
        page.wait_for_function(
            f"() => document.querySelector('#table').dataset.game === '{games + 1}'",
            polling=100,
        )
    else:
        pytest.fail("five drawn games in a row")

    # The game's sounds, the win or the loss last.
    page.wait_for_function(
        "() => window.__played.some(n => n === 'win' || n === 'lose')", polling=100
    )
    sounds = set(played(me))
    assert {"shuffle", "place", "draw", "turn"} <= sounds, (
        sounds,
        page.evaluate("() => window.__failed"),
        page.evaluate(AUDIO_JS),
    )
    # Served from the package: every sound's file answers.
    for name in ("place", "draw", "shuffle", "turn", "win", "lose"):
        answer = page.request.get(f"{server.url}/static/sounds/{name}.wav")
        assert answer.ok and answer.body()[:4] == b"RIFF", name

    # The match target is 1 point, so the first game won ends the match.
    assert dialog.locator("h2").inner_text() == "Match over"
    expect(dialog).to_contain_text("the match")
    dialog.locator("#dialog-new-match").click()
    expect(page.locator(".score-me .score-points")).to_have_text("0")
    expect(page.locator(".score-opp .score-points")).to_have_text("0")
    expect(page.locator("#scoreboard")).to_contain_text("Game 1")
    expect(dialog).to_have_count(0)

    me.goto("stats")
    row = page.locator("#stats-table tbody tr[data-level=easy]")
    expect(row).to_be_visible()
    expect(row.locator("td[data-col=games]")).to_have_text(str(games))
    assert me.errors == []


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_every_level_plays_its_turns(
    server: ServerProcess, new_context: ContextFactory, level: str
) -> None:
    me = Player.open(new_context(), server.url, level)
    me.configure(payoff_size=20, speed="off")
    me.start_computer_game(level)
    expect(me.page.locator(".seat-opponent .seat-name")).to_contain_text(level.capitalize())
    for _ in range(3):
        if me.wait_phase("mine", "over") == "over":
            break
        me.play_greedy_turn()
    me.wait_phase("mine", "over")
    log = me.page.inner_text("#move-log")
    assert f"{level.capitalize()} discards" in log
    assert me.errors == []
