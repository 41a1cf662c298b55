"""The turn planner: every distinct sequence of builds that ends a turn, best first.

A turn is any number of builds then one discard (R2.2, R2.3), or a win (R2.4). The planner
walks the builds the player to move can make with the cards it knows (its hand, its side
stacks, its pay-off top), merging sequences that reach the same state, and scores each way of
ending the turn with an :class:`Evaluator`.

Two builds bring new information, so a plan cannot fix the moves after them (chance, in the
OpenSpiel sense): building the pay-off top turns up an unknown card (R3.4(a)), and emptying
the hand draws five unknown cards (R3.4(c)). After a pay-off build the planner goes on with
the known cards only, to value the rest of the turn; after a refill the plan ends. A plan's
:attr:`Plan.commit` says how many of its moves may be played before the bot must look again.
A completed stack (R3.4(b)) reshuffles only the hidden stock, so planning goes on through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Protocol

from ..engine.cards import KING
from ..engine.moves import Move
from ..engine.stacks import built, fits, taken_by
from .view import Ranks, TurnView

WIN_VALUE = 1e9
"""The value of a plan that empties the pay-off pile (R4.1): better than anything else."""

DEFAULT_MAX_STATES = 1500
"""How many distinct states the planner expands before it stops looking further."""


class Evaluator(Protocol):
    """Scores the ways a turn can end, for one :class:`TurnView` at a time."""

    def begin(self, view: TurnView) -> None:
        """Prepare for planning the turn of ``view`` (precompute what does not change)."""

    def state_value(
        self, center: Ranks, hand: Ranks, side: tuple[Ranks, ...], payoff_left: int, refill: bool
    ) -> float:
        """The value of the builds made so far (higher is better); ``refill`` when the last
        build emptied the hand (R3.4(c))."""

    def best_discard(
        self, center: Ranks, hand: Ranks, side: tuple[Ranks, ...]
    ) -> tuple[float, Move]:
        """The best discard (R3.3) in this state and what it adds to the state's value."""


class Ending(StrEnum):
    """How a plan ends the turn (the values are the words records and tests use)."""

    DISCARD = "discard"
    """R2.3: a discard ends the turn."""
    WIN = "win"
    """R3.4(a), R4.1: the last pay-off card is played."""
    REFILL = "refill"
    """R3.4(c): the hand was emptied; draw five and plan again."""


@dataclass(frozen=True, slots=True)
class Plan:
    """One way to end the turn: its moves, how many may be played at once, and its value."""

    moves: tuple[Move, ...]
    commit: int
    """How many leading moves can be played before new cards are seen (at least one)."""
    value: float
    ending: Ending
    """How the plan ends the turn."""

    @property
    def committed(self) -> tuple[Move, ...]:
        """The moves to play now."""
        return self.moves[: self.commit]


def _targets(center: Ranks, rank: int, king_can_start: bool) -> Sequence[int]:
    """The center stacks that take ``rank`` (R3.1, R3.2), one per distinct stack value."""
    if rank == KING:
        out: list[int] = []
        values: set[int] = set()
        for i, value in enumerate(center):
            if value not in values and fits(KING, value, king_can_start):
                values.add(value)
                out.append(i)
        return out
    value = taken_by(rank)
    return (center.index(value),) if value in center else ()


def _build(center: Ranks, i: int) -> Ranks:
    """R3.1, R3.4(b): the stacks after a build on stack ``i`` (a complete one is cleared and
    usable at once)."""
    return (*center[:i], built(center[i]), *center[i + 1 :])


CenterMoves = tuple[Ranks, tuple[tuple[tuple[int, Ranks, Ranks], ...], ...]]
"""What the planner needs of one set of center stacks (see :func:`center_moves`)."""


@lru_cache(maxsize=1 << 15)
def center_moves(center: Ranks, king_can_start: bool) -> CenterMoves:
    """The center stacks' values sorted (the stacks are interchangeable, so states that
    differ only in their order are one), and for each rank 0..13 the builds a card of that
    rank can make on them: ``(stack, the stacks after, those sorted)``, one per distinct stack
    value
    (:func:`_targets`, :func:`_build`). It depends on the values only, and the planner's
    states share a few sets of them, so it is worked out once for each."""
    builds = tuple(
        tuple(
            (i, after, tuple(sorted(after)))
            for i in _targets(center, rank, king_can_start)
            for after in (_build(center, i),)
        )
        if rank
        else ()
        for rank in range(KING + 1)
    )
    return tuple(sorted(center)), builds


def _without(hand: Ranks, rank: int) -> Ranks:
    i = hand.index(rank)
    return hand[:i] + hand[i + 1 :]


_TurnEnd = tuple[float, tuple[Move, ...], int, Ending]
"""A plan before it is made a :class:`Plan`: value, moves, commit, ending."""


def _turn_ends(view: TurnView, evaluator: Evaluator, max_states: int) -> list[_TurnEnd]:
    """The best way to end the turn for each distinct committed prefix, in the order the
    prefixes were first found (which breaks ties between equal values)."""
    evaluator.begin(view)
    state_value = evaluator.state_value
    best_discard = evaluator.best_discard
    king_can_start = view.king_can_start
    seen: set[tuple[object, ...]] = set()
    best: dict[tuple[Move, ...], _TurnEnd] = {}
    left = max_states

    def record(path: tuple[Move, ...], commit: int, value: float, ending: Ending) -> None:
        commit = commit or len(path)
        prefix = path[:commit]
        old = best.get(prefix)
        if old is None or value > old[0]:
            best[prefix] = (value, path, commit, ending)

    def visit(
        center: Ranks,
        hand: Ranks,
        side: tuple[Ranks, ...],
        payoff_top: int,
        payoff_left: int,
        path: tuple[Move, ...],
        commit: int,
    ) -> None:
        """Expand a state not seen before (the caller checks ``seen`` and adds its key:
        ``(sorted center values, hand, side, payoff_left)``; payoff_top is left out, as it
        is the view's until a pay-off build, then unknown, 0)."""
        nonlocal left
        left -= 1
        builds = center_moves(center, king_can_start)[1]
        base = state_value(center, hand, side, payoff_left, False)
        extra, discard = best_discard(center, hand, side)
        moves = (*path, discard)
        if commit:
            record(moves, commit, base + extra, Ending.DISCARD)
        else:  # nothing else records a prefix that ends in a discard: no rival to check
            best[moves] = (base + extra, moves, len(moves), Ending.DISCARD)
        if left <= 0:
            return
        depth = len(path) + 1
        if payoff_top:
            for i, after, order in builds[payoff_top]:
                move = Move.build_from_payoff(i)
                if payoff_left == 1:  # R3.4(a): the last pay-off card wins at once
                    record((*path, move), commit or depth, WIN_VALUE, Ending.WIN)
                    return
                # R3.4(a): the next pay-off card is unknown until it is turned up
                key = (order, hand, side, payoff_left - 1)
                if key not in seen:
                    seen.add(key)
                    visit(after, hand, side, 0, payoff_left - 1, (*path, move), commit or depth)
        # most cards fit no stack: their builds are none
        for s, pile in enumerate(side):
            if pile:
                targets = builds[pile[-1]]
                if not targets:
                    continue
                rest = (*side[:s], pile[:-1], *side[s + 1 :])
                for i, after, order in targets:
                    key = (order, hand, rest, payoff_left)
                    if key not in seen:
                        seen.add(key)
                        move = Move.build_from_side(s, i)
                        visit(after, hand, rest, payoff_top, payoff_left, (*path, move), commit)
        previous = 0
        for rank in hand:
            if rank == previous:
                continue
            previous = rank
            targets = builds[rank]
            if not targets:
                continue
            kept = _without(hand, rank)
            for i, after, order in targets:
                move = Move.build_from_hand(rank, i)
                if not kept:  # R3.4(c): the hand is empty, five unknown cards come
                    value = state_value(after, kept, side, payoff_left, True)
                    record((*path, move), commit or depth, value, Ending.REFILL)
                else:
                    key = (order, kept, side, payoff_left)
                    if key not in seen:
                        seen.add(key)
                        visit(after, kept, side, payoff_top, payoff_left, (*path, move), commit)

    seen.add((center_moves(view.center, king_can_start)[0], view.hand, view.side, view.payoff_left))
    visit(view.center, view.hand, view.side, view.payoff_top, view.payoff_left, (), 0)
    return list(best.values())


def plan_turn(
    view: TurnView, evaluator: Evaluator, *, max_states: int = DEFAULT_MAX_STATES
) -> list[Plan]:
    """The best plan for each distinct committed prefix, best first (never empty).

    Deterministic: the same view gives the same plans in the same order. Pay-off builds are
    tried first, so among equal plans the one that turns up the next pay-off card soonest wins.
    """
    plans = [
        Plan(moves, commit, value, ending)
        for value, moves, commit, ending in _turn_ends(view, evaluator, max_states)
    ]
    plans.sort(key=lambda plan: -plan.value)
    return plans


def best_plan(
    view: TurnView, evaluator: Evaluator, *, max_states: int = DEFAULT_MAX_STATES
) -> Plan:
    """The single best plan for ``view``: ``plan_turn(...)[0]``, without making and sorting
    the others (the rollouts of :mod:`.rollout` want only this one)."""
    ends = _turn_ends(view, evaluator, max_states)
    first = ends[0]
    for end in ends:
        if end[0] > first[0]:  # the first of equal values, as plan_turn's stable sort
            first = end
    value, moves, commit, ending = first
    return Plan(moves, commit, value, ending)


def replay_ranks(view: TurnView, moves: Sequence[Move]) -> tuple[Ranks, Ranks, tuple[Ranks, ...]]:
    """Centers, hand and side stacks after ``moves`` (builds of known cards) from ``view``."""
    center, hand, side = view.center, view.hand, view.side
    for move in moves:
        if move.is_discard:
            s = move.side_target
            side = (*side[:s], (*side[s], move.hand_rank), *side[s + 1 :])
            hand = _without(hand, move.hand_rank)
            continue
        if move.is_from_hand:
            hand = _without(hand, move.hand_rank)
        elif move.is_from_side:
            s = move.side_source
            side = (*side[:s], side[s][:-1], *side[s + 1 :])
        center = _build(center, move.center)
    return center, hand, side
