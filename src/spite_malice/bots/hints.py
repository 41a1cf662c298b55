"""Hints: the best turn for the seat to move, as moves and a reason a player understands.

A hint sees what the player sees and nothing more (R6.3): it is the whole-turn plan of the
Hard level (:mod:`.planning` with :class:`~.evaluation.AwareEvaluator`), computed from the
player's observation in milliseconds, deterministic, and explained by the same things that
chose it. The moves run to the end of the turn: a discard or a win. Two
things are unknown when the hint is given, and the hint says so: the pay-off card turned up
after a pay-off build (R3.4(a)) may change the best way on, and a hand emptied by builds
draws five new cards (R3.4(c)), after which the hint ends and a new one can be asked for.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.cards import KING, RANK_NAMES, a_rank
from ..engine.moves import Move
from ..engine.observation import Observation
from ..engine.stacks import built, needs
from .evaluation import AwareEvaluator
from .planning import Ending, Plan, plan_turn, replay_ranks
from .view import TurnView, view_from_observation


@dataclass(frozen=True, slots=True)
class Hint:
    """The recommended rest of the turn and why."""

    moves: tuple[Move, ...]
    """Builds, then a discard or the winning build (or the build that empties the hand)."""
    reason: str

    def __str__(self) -> str:
        return f"{' '.join(str(m) for m in self.moves)}: {self.reason}"


def hint(observation: Observation, seed: int = 0) -> Hint:
    """The best turn for ``observation.seat``, which must be the seat to move.

    ``seed`` is part of the interface for hints that sample; this one is deterministic and the
    same position always gets the same hint."""
    if not observation.is_my_turn:
        raise ValueError("a hint is for the seat to move, and it is not this seat's turn")
    view = view_from_observation(observation)
    plan = plan_turn(view, AwareEvaluator())[0]
    return Hint(plan.moves, explain(view, plan))


def _word(value: int) -> str:
    return RANK_NAMES[value - 1]


def explain(view: TurnView, plan: Plan) -> str:
    """A short reason for ``plan`` in the player's words."""
    center = list(view.center)
    hand = list(view.hand)
    clauses: list[str] = []
    kings_as: list[int] = []
    payoff_clause = ""
    builds = 0
    for move in plan.moves:
        if move.is_discard:
            break
        builds += 1
        value = needs(center[move.center])  # the rank the card stands for (R3.1)
        if move.is_from_payoff:
            rank = view.payoff_top
            shown = f"King (as {a_rank(value)})" if rank == KING else _word(rank)
            if plan.ending is Ending.WIN:
                payoff_clause = f"wins the game with your last pay-off card, the {shown}"
            else:
                payoff_clause = f"plays your pay-off {shown}"
            if kings_as:
                payoff_clause += ", using the King as " + " and ".join(a_rank(v) for v in kings_as)
            kings_as = []
        else:
            rank = move.hand_rank if move.is_from_hand else view.side[move.side_source][-1]
            if move.is_from_hand:
                hand.remove(rank)
            if rank == KING and not payoff_clause:
                kings_as.append(value)
        center[move.center] = built(center[move.center])
    if payoff_clause:
        clauses.append(payoff_clause)
    if plan.ending is Ending.REFILL:
        clauses.append("empties your hand so you draw five new cards; ask again after")
    danger = _danger_clause(view, center)
    if danger:
        clauses.append(danger)
    last = plan.moves[-1]
    if last.is_discard and len(clauses) < 2:
        side = replay_ranks(view, plan.moves[:-1])[2]
        clauses.append(_discard_clause(side, last, builds, bool(payoff_clause)))
    return "; ".join(clauses)


def _danger_clause(view: TurnView, center: list[int]) -> str:
    """Say how the turn keeps the opponent from its pay-off card, when it does."""
    need = view.opp_top
    if not need or need == KING:
        return ""
    below = need - 1
    if below in center:
        return ""
    if below in view.center:
        i = view.center.index(below)
        if center[i] != below:
            return (
                f"blocks center {i + 1}, which was ready for the {_word(need)} your opponent needs"
            )
    # a center one card short of the danger, when the player held that card and kept it back
    mine = set(view.hand) | {pile[-1] for pile in view.side if pile}
    if below in mine:
        for i, value in enumerate(center):
            if value == below - 1:
                return f"keeps center {i + 1} away from the {_word(need)} your opponent needs"
    return ""


def _discard_clause(
    side: tuple[tuple[int, ...], ...], move: Move, builds: int, played_payoff: bool
) -> str:
    pile = side[move.side_target]
    rank = move.hand_rank
    if not pile:
        where = f"onto empty side stack {move.side_target + 1}"
    elif rank in (pile[-1], pile[-1] - 1):
        where = f"onto the {_word(pile[-1])} on side stack {move.side_target + 1}, in order"
    else:
        where = f"onto side stack {move.side_target + 1}"
    text = f"discards the {_word(rank)} {where}"
    if builds and not played_payoff:
        text = f"builds {builds} card{'s' if builds > 1 else ''}, then " + text
    return text
