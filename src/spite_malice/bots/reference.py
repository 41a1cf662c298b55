"""The reference first-fit policy: a fixed, simple way to play, used to compare speeds.

If the pay-off top can be built, build it on the lowest-numbered center stack that takes it;
otherwise make the first legal build in this order: side stack tops 1 to 4, then hand cards
by ascending rank with Kings last, each onto the lowest-numbered center stack that takes it;
when no build is left, discard the highest non-King hand card (a King only if the hand holds
nothing else) onto the first empty side stack, else onto side stack 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cards import KING, RANK_OF, Card
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.observation import Observation
from ..engine.stacks import lowest_fits
from .base import Bot


def reference_move(game: Game) -> Move:
    """The reference policy's move for the player to move in ``game`` (not over)."""
    me = game.players[game.to_move]
    return first_fit(
        me.payoff[-1] if me.payoff else None,
        me.hand,
        me.side,
        tuple(map(len, game.center)),
        game.rules.king_can_start_stack,
    )


def first_fit(
    payoff_top: Card | None,
    hand: Sequence[Card],
    side: Sequence[Sequence[Card]],
    center_values: tuple[int, ...],
    king_can_start_stack: bool,
) -> Move:
    """The reference policy's move, from the cards the player to move can see."""
    # The lowest-numbered center stack that takes each rank, or -1 (R3.1, R3.2).
    lowest = lowest_fits(center_values, king_can_start_stack)

    if payoff_top is not None:
        i = lowest[RANK_OF[payoff_top]]
        if i >= 0:
            return Move.build_from_payoff(i)
    for number, pile in enumerate(side):
        if pile:
            i = lowest[RANK_OF[pile[-1]]]
            if i >= 0:
                return Move.build_from_side(number, i)
    # One pass over the hand: the lowest rank that builds (Kings, rank 13, come last) and
    # the highest non-King rank, the one to discard.
    build_rank, build_target, discard_rank = KING + 1, -1, 0
    for card in hand:
        rank = RANK_OF[card]
        if rank < build_rank:
            i = lowest[rank]
            if i >= 0:
                build_rank, build_target = rank, i
        if discard_rank < rank < KING:
            discard_rank = rank
    if build_target >= 0:
        return Move.build_from_hand(build_rank, build_target)
    for number, pile in enumerate(side):
        if not pile:
            return Move.discard(discard_rank or KING, number)
    return Move.discard(discard_rank or KING, 0)


class ReferenceBot(Bot):
    """The reference first-fit policy as a bot, working from its observation alone."""

    name = "Reference"

    def choose(self, observation: Observation) -> Move:
        me = observation.me
        return first_fit(
            me.payoff_top,
            observation.hand,
            me.side,
            tuple(map(len, observation.center)),
            observation.rules.king_can_start_stack,
        )
