"""End to end (issue 17, items 4 and 8): an unknown game link says plainly that there is no
such game and offers the lobby, never a join button; the lobby's unfinished games can be
resumed or given up, and the page says that a give-up counts as a loss before it is done."""

from __future__ import annotations

from itertools import pairwise

import pytest
from playwright.sync_api import expect

from .player import ContextFactory, Player, keep_game_socket
from .server import ServerProcess

pytestmark = pytest.mark.e2e


def test_an_unknown_game_link_offers_the_lobby_and_no_join(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), server.url, "lost")
    me.configure()
    me.goto("game/ZZZZZZ")
    page = me.page
    expect(page.locator("#no-game h1")).to_have_text("There is no such game")
    assert page.locator("#view a[href*='join'], #view button").count() == 0
    assert "join" not in page.inner_text("#view").lower().replace("ask them for an invite", "")
    page.click("#no-game-lobby")
    page.wait_for_url("**/#/play")
    expect(page.locator("#start-computer")).to_be_visible()
    assert me.errors == []


def stats_row(me: Player, level: str) -> dict[str, int]:
    me.goto("stats")
    me.page.wait_for_selector(".stats")
    found: dict[str, int] = me.page.evaluate(
        """async (level) => {
          const secret = JSON.parse(localStorage.getItem('spite-malice.player-record')).secret;
          const answer = await fetch('/api/stats', { headers: { 'X-Player-Secret': secret } });
          const row = (await answer.json()).levels.find((r) => r.level === level);
          return row ? { games: row.games, losses: row.losses } : { games: 0, losses: 0 };
        }""",
        level,
    )
    return found


def test_the_lobby_resumes_or_gives_up_an_unfinished_game(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    context = new_context()
    keep_game_socket(context)  # my turn goes as the page's own move messages: it only gets on
    me = Player.open(context, server.url, "leaver")
    me.configure(payoff_size=20, speed="off")
    room = me.start_computer_game("easy")
    me.wait_phase("mine")
    me.play_greedy_turn(send=True)
    me.wait_phase("mine", "theirs")
    page = me.page
    before = stats_row(me, "easy")

    # Resume: the lobby lists the game and opens it where it was.
    me.goto("play")
    item = page.locator(f'.resume-item[data-room="{room}"]')
    expect(item).to_be_visible()
    item.locator("a.btn").click()
    page.wait_for_url(f"**/#/game/{room}")
    me.wait_phase("mine", "theirs")
    assert me.moves_played > 0

    # Give up: asked first, saying that it counts as a loss; "Keep it" changes nothing.
    me.goto("play")
    item.locator("button.give-up").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("counts as a loss")
    page.click("#confirm-no")
    expect(item).to_be_visible()
    item.locator("button.give-up").click()
    page.click("#confirm-yes")
    expect(item).to_have_count(0)
    expect(page.locator(".form-status")).to_contain_text("counts as a loss")
    page.reload()
    page.wait_for_selector("#start-computer")
    page.wait_for_load_state("networkidle")
    expect(page.locator(f'.resume-item[data-room="{room}"]')).to_have_count(0)
    after = stats_row(me, "easy")
    assert after == {"games": before["games"] + 1, "losses": before["losses"] + 1}
    assert me.errors == []


def test_the_picked_level_stays_picked_until_the_settings_are_saved(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    """A level picked in the lobby is the one played even if the lobby is drawn again before
    the start (another visit here); saving the settings brings back their level."""
    me = Player.open(new_context(), server.url, "picker")
    me.configure(level="easy")
    page = me.page
    me.goto("play")
    expect(page.locator("#level-easy")).to_be_checked()
    page.click("label[for=level-expert]")
    me.goto("rules")
    me.goto("play")
    expect(page.locator("#level-expert")).to_be_checked()
    page.click("#start-computer")
    page.wait_for_url("**/#/game/*")
    expect(page.locator(".seat-opponent .seat-name")).to_contain_text("Expert")
    me.configure(level="easy")
    me.goto("play")
    expect(page.locator("#level-easy")).to_be_checked()
    assert me.errors == []


def test_the_lobbys_cards_are_evenly_spaced_on_a_phone(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    """The lobby's cards, one above the other on a phone, are as far apart everywhere: no
    empty band where a message would go while there is none."""
    me = Player.open(new_context(width=390, height=844), server.url, "spacing")
    me.configure()
    me.goto("play")
    page = me.page
    expect(page.locator("#turn-games-box")).to_be_visible()
    boxes: list[list[float]] = page.evaluate(
        """() => [...document.querySelectorAll('.page.lobby > *')]
          .map((node) => node.getBoundingClientRect())
          .filter((box) => box.height > 0)
          .map((box) => [box.top, box.bottom])"""
    )
    gaps = [below[0] - above[1] for above, below in pairwise(boxes)]
    assert len(gaps) >= 3, boxes  # the computer, strangers, a friend, games over days
    assert max(gaps) - min(gaps) <= 2, (gaps, boxes)
    assert me.errors == []
