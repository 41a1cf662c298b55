"""The tutorial in the terminal, driven by key presses through Textual's pilot: offered at
the first start, each lesson played through with a wrong move explained, progress kept."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from textual.pilot import Pilot

from spite_malice.engine.moves import parse_move
from spite_malice.tui.app import SpiteMaliceApp
from spite_malice.tui.persistence import NoPersistence, Persistence
from spite_malice.tui.places import keys_for
from spite_malice.tui.screens import GameScreen, TableSettings
from spite_malice.tui.screens.tutorial import LessonScreen, TutorialOfferScreen, TutorialScreen
from spite_malice.tui.session import MatchSetup
from spite_malice.tui.store_link import StorePersistence
from spite_malice.tui.widgets import MessageLine, PileView
from spite_malice.tutorial import LESSONS, PRACTICE_LEVEL, PRACTICE_SEED, Progress

from .driver import SHORT, make_app, session, settle


class FirstStart(NoPersistence):
    """A player who has never started the game: the tutorial is not offered yet."""

    def __init__(self) -> None:
        super().__init__()
        self.progress = Progress()


def _first_start(persistence: Persistence) -> SpiteMaliceApp:
    """The app as ``spite-malice play`` starts it: it offers the tutorial once."""
    return SpiteMaliceApp(
        MatchSetup(rules=SHORT, level="reference", seed=7),
        settings=TableSettings(move_delay=0.0),
        persistence=persistence,
        offer_tutorial=True,
    )


def _message(screen: LessonScreen) -> tuple[str, str]:
    line = screen.query_one("#message", MessageLine)
    return str(line.render()), line.tone


async def _press_move(pilot: Pilot[None], screen: LessonScreen, notation: str) -> None:
    await pilot.press(*keys_for(parse_move(notation), screen.hand()))
    await pilot.pause()


@pytest.mark.parametrize("number", range(1, len(LESSONS) + 1))
async def test_each_lesson_is_played_through_with_a_wrong_move_explained(number: int) -> None:
    lesson = LESSONS[number - 1]
    persistence = FirstStart()
    app = _first_start(persistence)
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TutorialOfferScreen)  # offered at the first start
        assert persistence.progress.offered
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, TutorialScreen)
        await pilot.press(str(number))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LessonScreen) and screen.lesson is lesson
        step = screen.run.step
        assert step is not None
        wrong = next(m for m in screen.run.legal_moves() if not step.goal(screen.run.game, m))
        explanation = step.wrong(screen.run.game, wrong)
        await _press_move(pilot, screen, wrong.notation)
        assert _message(screen) == (explanation, "error")
        assert screen.run.index == 0 and screen.run.moves == []  # nothing was played
        for example in lesson.examples:
            await _press_move(pilot, screen, example)
            text, tone = _message(screen)
            assert tone == "info", text
        assert screen.run.is_finished
        assert persistence.progress.is_finished(lesson.key)


async def test_an_illegal_move_is_refused_with_the_reason_and_a_tip() -> None:
    app = make_app()
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        assert not isinstance(app.screen, TutorialOfferScreen)  # not a first start
        await pilot.press("t", "1")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        await pilot.press("1", "z")  # an 8 from the hand on an empty center stack
        await pilot.pause()
        text, tone = _message(screen)
        assert tone == "error" and text.startswith("Center 1 needs an Ace.")
        await pilot.press("h")  # show me: outlined, in words, with the keys
        await pilot.pause()
        assert _message(screen) == (
            "Show me: build the Ace of spades from your pay-off pile on center 1. Keys: p then z.",
            "hint",
        )
        outlined = {view.pile_id for view in screen.query(PileView) if view.has_class("-hinted")}
        assert outlined == {"payoff", "center-0"}
        await pilot.press("p", "z", "p", "z")
        await pilot.pause()
        assert screen.run.is_finished
        await pilot.press("n")  # straight on to lesson 2
        await pilot.pause()
        assert isinstance(app.screen, LessonScreen) and app.screen.lesson is LESSONS[1]
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, TutorialScreen)
        assert "[done] Building from your pay-off pile" in str(
            app.screen.query_one("#tutorial-list").render()
        )


async def test_the_offer_is_made_once_and_can_be_declined() -> None:
    persistence = FirstStart()
    app = _first_start(persistence)
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TutorialOfferScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
    again = _first_start(persistence)
    async with again.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        assert isinstance(again.screen, GameScreen)


async def test_the_practice_game_is_a_seeded_game_against_easy() -> None:
    app = make_app()
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t", "g")
        await settle(pilot)
        practice = session(app)
        assert practice.level == PRACTICE_LEVEL
        assert practice.match.seed == PRACTICE_SEED
        assert practice.table.meta.practice  # kept out of the ordinary statistics
        assert practice.rules.payoff_size == 10


def test_the_store_keeps_tutorial_progress(tmp_path: Path) -> None:
    database = str(tmp_path / "games.db")
    first = StorePersistence.open(database)
    try:
        assert first.tutorial_progress() == Progress()
        first.save_tutorial_progress(Progress().with_offered().with_finished("kings"))
    finally:
        first.close()
    second = StorePersistence.open(database)
    try:
        kept = second.tutorial_progress()
        assert kept.offered and kept.finished == ("kings",)
        assert second.store.settings(second.player) is None  # the player's settings untouched
    finally:
        second.close()


async def test_a_start_without_a_store_does_not_offer_the_tutorial() -> None:
    app = _first_start(NoPersistence())
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)


async def test_a_lesson_fits_the_smallest_terminal() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("t", "6")  # the lesson with the longest step text
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LessonScreen) and screen.has_class("-short")
        message = screen.query_one("#message", MessageLine).region
        for pile in ("hand-4", "payoff", "center-0", "opp-payoff"):
            region = screen.query_one(f"#{pile}", PileView).region
            assert region.height >= 3 and region.bottom <= message.y, pile  # all on screen
        text = screen.query_one("#lesson-text")
        step = f"Step 1 of 2: {screen.run.instruction}"
        assert text.region.height >= len(textwrap.wrap(step, text.content_size.width))


def test_spite_malice_play_offers_the_tutorial(monkeypatch: pytest.MonkeyPatch) -> None:
    from spite_malice.cli import errors, main

    started: list[SpiteMaliceApp] = []
    monkeypatch.setattr(SpiteMaliceApp, "run", lambda self, *a, **k: started.append(self))
    monkeypatch.setattr(errors, "stdout_is_a_terminal", lambda: True)
    assert main(["play", "--no-db"]) == 0
    assert len(started) == 1 and started[0].offer_tutorial
