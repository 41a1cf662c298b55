"""End to end: the tutorial in the browser. Offered on the first visit, each lesson played
through by clicks with a wrong move explained, progress kept by the server, and the
practice game against Easy."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from spite_malice.tutorial import LESSONS, lesson_named

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e

TABLE = "#tutorial-table"
PANEL = ".tutorial-panel"


def _answers(page: Page) -> int:
    return int(page.locator(PANEL).get_attribute("data-answers") or "0")


def _click_move(page: Page, move: str) -> None:
    """Pick the move's card, then its place, as a person does; wait for the server's answer."""
    before = _answers(page)
    source, target = move.split("-")
    page.locator(f"{TABLE} [data-source='{source}']").first.click()
    if target.startswith("C"):
        page.locator(f"{TABLE} .center-stack[data-target='{target}']").click()
    else:
        page.locator(f"{TABLE} .side-stack[data-target='{target}']").click()
    expect(page.locator(PANEL)).to_have_attribute("data-answers", str(before + 1))


def test_the_first_visit_offers_the_tutorial_once(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), server.url, "newcomer")
    me.goto("play")
    offer = me.page.locator("#tutorial-offer")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("New to Spite & Malice?")
    me.page.click("#tutorial-offer-yes")
    me.page.wait_for_url("**/#/tutorial")
    expect(me.page.locator("#tutorial-list li")).to_have_count(len(LESSONS))
    expect(offer).to_be_hidden()
    me.goto("play")
    me.page.reload()
    expect(me.page.locator("#start-computer")).to_be_visible()
    me.page.wait_for_load_state("networkidle")
    expect(offer).to_be_hidden()  # answered once: never offered again
    assert me.errors == []


@pytest.mark.parametrize("key", [lesson.key for lesson in LESSONS])
def test_each_lesson_is_played_by_clicks_with_a_wrong_move_explained(
    server: ServerProcess, new_context: ContextFactory, key: str
) -> None:
    lesson = lesson_named(key)
    me = Player.open(new_context(), server.url, "learner")
    me.goto("tutorial")
    page = me.page
    page.click(f"#tutorial-list li[data-lesson='{key}'] a")
    page.wait_for_url(f"**/#/tutorial/{key}")
    expect(page.locator(PANEL)).to_have_attribute("data-answers", "1")
    expect(page.locator("#tutorial-say")).to_contain_text(lesson.steps[0].say)
    # A legal move that is not the lesson's goal: refused, explained, nothing played.
    game = lesson.start()
    step = lesson.steps[0]
    wrong = next(m for m in game.legal_moves() if not step.goal(game, m))
    _click_move(page, wrong.notation)
    feedback = page.locator("#tutorial-feedback")
    expect(feedback).to_have_text(step.wrong(game, wrong))
    expect(feedback).to_have_class("tutorial-feedback is-wrong")
    expect(page.locator(PANEL)).to_have_attribute("data-step", "0")
    for example in lesson.examples:
        _click_move(page, example)
        expect(feedback).not_to_have_class("tutorial-feedback is-wrong")
    expect(page.locator(PANEL)).to_have_attribute("data-finished", "yes")
    expect(page.locator("#tutorial-onward")).to_be_visible()
    page.click("#tutorial-back")
    expect(page.locator(f"#tutorial-list li[data-lesson='{key}']")).to_have_class(
        "tutorial-item is-done"
    )
    assert me.errors == []


def test_an_illegal_move_gets_the_reason_and_the_lesson_can_restart(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(width=390, height=844), server.url, "phone")
    me.goto("tutorial/payoff")
    page = me.page
    expect(page.locator(PANEL)).to_have_attribute("data-answers", "1")
    _click_move(page, "H8-C1")  # an 8 on an empty center stack
    expect(page.locator("#tutorial-feedback")).to_contain_text("Center 1 needs an Ace.")
    page.click("#tutorial-show")
    expect(page.locator("#tutorial-feedback")).to_have_text(
        "Show me: build the Ace of spades from your pay-off pile on center 1."
    )
    expect(page.locator(f"{TABLE} [data-source='P'].is-hint")).to_have_count(1)
    expect(page.locator(f"{TABLE} .center-stack[data-target='C1'].is-hint")).to_have_count(1)
    _click_move(page, "P-C1")
    expect(page.locator(PANEL)).to_have_attribute("data-step", "1")
    page.click("#tutorial-restart")
    expect(page.locator(PANEL)).to_have_attribute("data-step", "0")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert overflow <= 0
    assert me.errors == []


def test_the_practice_game_starts_against_easy(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), server.url, "practiser")
    me.goto("tutorial")
    me.page.click("#tutorial-practice")
    me.page.wait_for_url("**/#/game/*")
    me.wait_started()
    expect(me.page.locator("#opponent-name")).to_contain_text("Easy")
    assert me.errors == []


def test_a_lesson_takes_the_games_keys(server: ServerProcess, new_context: ContextFactory) -> None:
    me = Player.open(new_context(), server.url, "typist")
    me.goto("tutorial/payoff")
    page = me.page
    expect(page.locator(PANEL)).to_have_attribute("data-answers", "1")
    page.keyboard.press("1")  # a hand card (an 8) ...
    page.keyboard.press("c")
    page.keyboard.press("1")  # ... on the empty center 1: explained by the server
    expect(page.locator(PANEL)).to_have_attribute("data-answers", "2")
    expect(page.locator("#tutorial-feedback")).to_contain_text("Center 1 needs an Ace.")
    for answers in ("3", "4"):  # the Ace, then the 2, on center 2
        for key in ("p", "c", "2"):
            page.keyboard.press(key)
        expect(page.locator(PANEL)).to_have_attribute("data-answers", answers)
    expect(page.locator(PANEL)).to_have_attribute("data-finished", "yes")
    page.keyboard.press("h")  # a finished lesson has nothing to show
    expect(page.locator("#tutorial-onward")).to_be_visible()
    assert me.errors == []
