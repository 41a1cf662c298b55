"""Snapshots of the main screens (pytest-textual-snapshot). The computer is the fixed reference
policy, the seed and the terminal size are fixed and nothing shows a clock, so the pictures are
the same on every run. Update them with ``pytest tests/tui --snapshot-update`` after a change
to the look, and check the new SVGs by eye."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import pytest
from textual.pilot import Pilot

from spite_malice.bots import reference_move
from spite_malice.engine import Rules
from spite_malice.store import LevelStats, PlayerStats
from spite_malice.tui.persistence import NoPersistence

from .driver import QUICK_WIN, keys_for, make_app, play_to_the_end, session, settle

SnapCompare = Callable[..., bool]
Before = Callable[[Pilot[None]], Awaitable[None]]


def keys(*presses: str, turns: int = 0) -> Before:
    """Settle, play ``turns`` whole turns of the person by the reference policy, press keys."""

    async def run(pilot: Pilot[None]) -> None:
        app: Any = pilot.app
        await settle(pilot)
        for _ in range(turns):
            turn = session(app).game.turn
            for _ in range(50):
                if not (session(app).is_human_turn and session(app).game.turn == turn):
                    break
                await pilot.press(*keys_for(app, reference_move(session(app).game)))
                await settle(pilot)
        for key in presses:
            await pilot.press(key)
            await settle(pilot)

    return run


async def to_game_over(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await play_to_the_end(pilot)


def snap(
    snap_compare: SnapCompare, before: Before, size: Sequence[int] = (100, 30), **kw: Any
) -> bool:
    app = make_app(seed=kw.pop("seed", 7), rules=kw.pop("rules", Rules.QUICK), **kw)
    return snap_compare(app, terminal_size=tuple(size), run_before=before)


def test_table_at_the_start(snap_compare: SnapCompare) -> None:
    assert snap(snap_compare, keys())


def test_table_after_some_turns(snap_compare: SnapCompare) -> None:
    assert snap(snap_compare, keys(turns=3))


def test_a_picked_card_and_its_legal_targets(snap_compare: SnapCompare) -> None:
    assert snap(snap_compare, keys("2", turns=3))


def test_an_illegal_attempt_explained(snap_compare: SnapCompare) -> None:
    assert snap(snap_compare, keys("p", "x", turns=3))


def test_wide_terminal_shows_the_move_log(snap_compare: SnapCompare) -> None:
    assert snap(snap_compare, keys(turns=2), size=(124, 36))


def test_smallest_terminal(snap_compare: SnapCompare) -> None:
    assert snap(snap_compare, keys("3", turns=2), size=(80, 24))


def test_terminal_too_small(snap_compare: SnapCompare) -> None:
    assert snap(snap_compare, keys(), size=(64, 18))


def test_ascii_mode(snap_compare: SnapCompare) -> None:
    assert snap(snap_compare, keys("1", turns=1), ascii_only=True)


def test_help_screen(snap_compare: SnapCompare) -> None:
    assert snap(snap_compare, keys("question_mark"))


def test_game_over(snap_compare: SnapCompare) -> None:
    assert snap(snap_compare, to_game_over, rules=Rules(payoff_size=5), seed=QUICK_WIN)


class FixedStats(NoPersistence):
    """Statistics that never change, for a stable picture."""

    description = "/home/ann/.local/share/spite-malice/spite-malice.db"

    def statistics(self) -> PlayerStats | None:
        easy = LevelStats("easy", 12, 9, 2, 1, 140, 35, 2, 2, 0, 3, 5, 1)
        hard = LevelStats("hard", 5, 2, 3, 0, 31, 44, 1, 0, 1, 0, 2, 0)
        total = LevelStats("all", 17, 11, 5, 1, 171, 79, 3, 2, 1, 0, 5, 1)
        return PlayerStats("ann", [easy, hard], total)


def test_statistics_screen(snap_compare: SnapCompare) -> None:
    assert snap(snap_compare, keys("i"), persistence=FixedStats())


def test_new_match_screen(snap_compare: SnapCompare) -> None:
    assert snap(snap_compare, keys("m", "2"))


@pytest.mark.parametrize("language", ["en", "it", "ru", "pt", "fr", "nl"])
def test_every_language_at_80x24(
    language: str, snap_compare: SnapCompare, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The smallest table in each language after a hint: title, status, key bar whole."""
    monkeypatch.setenv("LANG", f"{language}_XX.UTF-8")
    assert snap(snap_compare, keys("h", turns=1), size=(80, 24), level="medium")


def test_ascii_help_screen(snap_compare: SnapCompare) -> None:
    assert snap(snap_compare, keys("question_mark"), ascii_only=True)
