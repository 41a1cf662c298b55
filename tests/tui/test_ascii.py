"""``--ascii`` draws nothing above character 127 on any screen: the table, every dialog (the
welcome, the game over, help, log, statistics, new match, language, the tutorial and a
lesson) and the replay, with its turn box. The one exception is the language picker's
names of the languages, each written in its own alphabet ("Русский"): words, not drawing."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

import pytest
from textual.app import App
from textual.pilot import Pilot

from spite_malice.bots import reference_move
from spite_malice.engine import Game, GameRecord, Rules
from spite_malice.i18n import LANGUAGE_NAMES
from spite_malice.replay import replay_frames
from spite_malice.tui.app import SpiteMaliceApp
from spite_malice.tui.replay_app import ReplayApp
from spite_malice.tui.screens import TableSettings
from spite_malice.tui.session import MatchSetup

from .driver import QUICK_WIN, make_app, play_to_the_end, settle
from .test_snapshots import FixedStats
from .test_tutorial import FirstStart


def screen_text(app: App[None]) -> str:
    """Every character the screen draws now, line by line."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def above_127(text: str, *, words: Sequence[str] = ()) -> set[str]:
    for word in words:
        text = text.replace(word, "")
    return {char for char in text if ord(char) > 127}


@pytest.mark.parametrize(
    "presses",
    [
        [],
        ["question_mark"],
        ["l"],
        ["i"],
        ["m"],
        ["t"],
        ["t", "enter"],  # the first lesson
        ["h"],  # a hint
        ["1"],  # a picked card and its targets
        ["p", "x"],  # an illegal attempt explained
    ],
)
@pytest.mark.parametrize("size", [(80, 24), (124, 36)])
async def test_no_character_above_127_on_the_table_and_its_dialogs(
    presses: list[str], size: tuple[int, int]
) -> None:
    app = make_app(seed=7, rules=Rules.QUICK, ascii_only=True, persistence=FixedStats())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for key in presses:
            await pilot.press(key)
            await pilot.pause()
        assert above_127(screen_text(app)) == set(), presses


async def test_the_language_picker_draws_in_ascii_but_its_own_names() -> None:
    app = make_app(seed=7, ascii_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("g")
        await pilot.pause()
        names = list(LANGUAGE_NAMES.values())
        assert above_127(screen_text(app), words=names) == set()
        left = {c for name in names for c in name if ord(c) > 127}
        assert all(unicodedata.category(c).startswith("L") for c in left)  # letters only


async def test_the_welcome_and_the_game_over_in_ascii() -> None:
    app = SpiteMaliceApp(
        MatchSetup(rules=Rules(payoff_size=5), level="reference", seed=QUICK_WIN),
        settings=TableSettings(ascii_only=True, move_delay=0.0),
        persistence=FirstStart(),
        offer_tutorial=True,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert type(app.screen).__name__ == "TutorialOfferScreen"
        assert above_127(screen_text(app)) == set()
        await pilot.press("escape")  # play now
        await settle(pilot)
        await play_to_the_end(pilot)
        await settle(pilot)
        assert type(app.screen).__name__ == "GameOverScreen"
        assert above_127(screen_text(app)) == set()


async def _replay_screen(pilot: Pilot[None], presses: Sequence[str]) -> str:
    await pilot.pause()
    for key in presses:
        await pilot.press(key)
    await pilot.pause()
    return screen_text(pilot.app)


@pytest.mark.parametrize("presses", [[], ["end"], ["t"], ["right", "right", "space"]])
@pytest.mark.parametrize("size", [(80, 24), (100, 30), (124, 36)])
async def test_no_character_above_127_in_the_replay(
    presses: list[str], size: tuple[int, int]
) -> None:
    game = Game.new(3, Rules(payoff_size=8))
    while not game.is_over:
        game.apply(reference_move(game))
    record = GameRecord.from_game(game, ("Ann", "Bob"))
    app = ReplayApp(replay_frames(record), record.players, ascii_only=True)
    async with app.run_test(size=size) as pilot:
        assert above_127(await _replay_screen(pilot, presses)) == set(), presses
