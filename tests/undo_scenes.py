"""Seeded scenes for the undo-barrier tests: found by playing, not hard-coded, so they hold
whatever the deal of a seed is. Both seats play the reference policy; the person sits in
seat 0 and the computer (level ``reference``) in seat 1."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spite_malice.bots import reference_move
from spite_malice.engine import Rules
from spite_malice.engine import events as ev
from spite_malice.table import COMPUTER, PERSON, Seat, Table

RULES = Rules(payoff_size=5, match_target=8)


@dataclass(frozen=True)
class Scene:
    """A seed and the moves (both seats', in order) up to and including the person's move
    that showed a hidden card."""

    seed: int
    moves: tuple[str, ...]


def new_table(seed: int) -> Table:
    seats = (Seat(PERSON, "Ann", "ann"), Seat(COMPUTER, "Reference"))
    table = Table.new(RULES, seats, level="reference", seed=seed)
    table.apply(table.check_deal())
    return table


def play(table: Table, move: str) -> list[ev.Event]:
    return table.apply(table.check_move(table.game.to_move, move)).events


def _find(revealing: Callable[[ev.Event], bool], *, payoff: bool) -> Scene:
    for seed in range(500):
        table = new_table(seed)
        moves: list[str] = []
        while not table.is_game_over and len(moves) < 400:
            game = table.game
            mover = game.to_move
            move = reference_move(game)
            events = play(table, str(move))
            moves.append(str(move))
            if mover != 0 or table.is_game_over or move.is_discard:
                continue
            if move.is_from_payoff != payoff:
                continue
            if any(revealing(event) for event in events):
                return Scene(seed, tuple(moves))
    raise AssertionError("no seed shows the scene")


def payoff_turned() -> Scene:
    """The person builds a pay-off card and the next one is turned up (R3.4(a))."""
    return _find(lambda e: isinstance(e, ev.PayoffTurned) and e.player == 0, payoff=True)


def hand_emptied() -> Scene:
    """The person builds the last card of the hand and draws five (R3.4(c))."""
    return _find(lambda e: isinstance(e, ev.CardsDrawn) and e.player == 0, payoff=False)
