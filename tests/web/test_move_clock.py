"""The stranger rooms' move clock (web/move_clock.py): a turn counted from when it began,
and, for a room loaded again from the store, from its match's last stored step."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from spite_malice.table import Table
from spite_malice.web.move_clock import DEAL_SECONDS, MoveClock


def table(game: int = 1, turns: int = 0, over: bool = False) -> Table:
    """What the clock reads of a table: its game, the turns ended in it, whether it is over."""
    fake: Any = SimpleNamespace(game_number=game, turns=turns, is_game_over=over)
    return cast(Table, fake)


def test_a_turn_is_counted_from_when_it_began() -> None:
    moment = [1000.0]
    clock = MoveClock(90.0, now=lambda: moment[0])
    assert clock.left(table()) == 90.0
    moment[0] += 30
    assert clock.left(table()) == 60.0
    assert clock.left(table(turns=1)) == 90.0  # the next turn starts afresh
    moment[0] += 91
    assert clock.expired(table(turns=1))
    assert clock.left(table(turns=1, over=True)) == DEAL_SECONDS  # the pause between games


def test_a_room_loaded_again_goes_on_counting_its_turn() -> None:
    """An instance that loads a stranger room (a restart, a failover) counts the turn from the
    match's last stored step: the player to move gets no new turn from it."""
    moment = [1000.0]
    clock = MoveClock(90.0, now=lambda: moment[0], since=1000.0 - 70)
    assert clock.left(table(turns=5)) == 20.0
    moment[0] += 21
    assert clock.expired(table(turns=5))
    assert clock.left(table(turns=6)) == 90.0  # later turns are counted from when they began
    late = MoveClock(90.0, now=lambda: moment[0], since=moment[0] + 500)  # a clock ahead
    assert late.left(table()) == 90.0  # never more than a whole turn
