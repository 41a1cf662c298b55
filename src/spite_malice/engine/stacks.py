"""The center stacks' rules in rank space: the one source that every fast path derives from.

A center stack is read as its *value*, the rank its top card stands for (0 when empty; it
is the stack's length, since a King stands for the rank it replaces). These are the rules
of R3.1, R3.2 and R3.4(b) on values and ranks (1..13, 13 the King), with no cards and no
game: the engine's checked and unchecked paths, the bots' planner, hints and evaluators and
the research encoders all build on them. ``tests/test_rule_mirrors.py`` lists every place
that still states one of these rules itself, and why.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .cards import KING, QUEEN

COMPLETE = QUEEN
"""R3.4(b): a stack whose value reaches a Queen is complete and leaves the table."""


def needs(value: int) -> int:
    """R3.1: the rank a stack of ``value`` takes next (besides a King): one more."""
    return value + 1


def left_to_complete(value: int) -> int:
    """R3.4(b): how many more cards a stack of ``value`` takes before it completes (1: the
    next build completes it and it leaves the table)."""
    return COMPLETE - value


def taken_by(rank: int) -> int:
    """R3.1: the value of the stacks a card of ``rank`` (not a King) fits on: one less."""
    return rank - 1


def fits(rank: int, value: int, king_can_start: bool) -> bool:
    """R3.1, R3.2: whether a card of ``rank`` may be built on a stack of ``value``: the next
    rank, or a King (on an empty stack only when the rules let a King start one)."""
    if rank == KING:
        return bool(value) or king_can_start
    return rank == value + 1


def built(value: int) -> int:
    """R3.1, R3.4(b): the value of a stack of ``value`` after one build (a King standing for
    the rank needed): one more, or 0 when that completes it and it leaves the table."""
    value += 1
    return 0 if value == COMPLETE else value


def fit_masks(values: Sequence[int], king_can_start: bool) -> tuple[int, ...]:
    """For each rank 0..13, the bitmask of the stacks (by position) that take a card of that
    rank: the table the engine's move generation reads."""
    masks = [0] * (KING + 1)
    for i, value in enumerate(values):
        masks[needs(value)] |= 1 << i
        if fits(KING, value, king_can_start):
            masks[KING] |= 1 << i
    return tuple(masks)


_LOWEST: dict[tuple[tuple[int, ...], bool], tuple[int, ...]] = {}


def lowest_fits(values: tuple[int, ...], king_can_start: bool) -> tuple[int, ...]:
    """For each rank 0..13, the lowest-numbered stack that takes it, or -1 when none does
    (kept once worked out: there are at most 2 * 12**4 stack values and rules)."""
    key = (values, king_can_start)
    found = _LOWEST.get(key)
    if found is None:
        masks = fit_masks(values, king_can_start)
        found = _LOWEST[key] = tuple((mask & -mask).bit_length() - 1 for mask in masks)
    return found


@cache
def ranks_to_reach(value: int, target: int) -> tuple[int, ...]:
    """The ranks to build, in order, to take a stack of ``value`` up to just below
    ``target`` (a rank 1..12), so that a card of ``target`` fits next; past a Queen the stack
    completes (R3.4(b)) and starts again from an Ace."""
    if target > value:
        return tuple(range(value + 1, target))
    return (*range(value + 1, COMPLETE), *range(1, target))


__all__ = [
    "COMPLETE",
    "built",
    "fit_masks",
    "fits",
    "left_to_complete",
    "lowest_fits",
    "needs",
    "ranks_to_reach",
    "taken_by",
]
