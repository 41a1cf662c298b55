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
from .base import Bot, register_bot


def reference_move(game: Game) -> Move:
    """The reference policy's move for the player to move in ``game`` (not over)."""
    me = game.players[game.to_move]
    return first_fit(
        me.payoff[-1] if me.payoff else None,
        me.hand,
        me.side,
        [len(stack) for stack in game.center],
        game.rules.king_can_start_stack,
    )


def first_fit(
    payoff_top: Card | None,
    hand: Sequence[Card],
    side: Sequence[Sequence[Card]],
    center_values: Sequence[int],
    king_can_start_stack: bool,
) -> Move:
    """The reference policy's move, from the cards the player to move can see."""
    needs = [value + 1 for value in center_values]

    def target(rank: int) -> int:
        if rank == KING:
            for i, need in enumerate(needs):
                if need > 1 or king_can_start_stack:
                    return i
            return -1
        return needs.index(rank) if rank in needs else -1

    if payoff_top is not None:
        i = target(RANK_OF[payoff_top])
        if i >= 0:
            return Move.build_from_payoff(i)
    for number, pile in enumerate(side):
        if pile:
            i = target(RANK_OF[pile[-1]])
            if i >= 0:
                return Move.build_from_side(number, i)
    ranks = sorted({RANK_OF[card] for card in hand})  # Kings (13) sort last
    for rank in ranks:
        i = target(rank)
        if i >= 0:
            return Move.build_from_hand(rank, i)
    plain = [rank for rank in ranks if rank != KING]
    rank = plain[-1] if plain else KING
    empty = next((number for number, pile in enumerate(side) if not pile), 0)
    return Move.discard(rank, empty)


class ReferenceBot(Bot):
    """The reference first-fit policy as a bot, working from its observation alone."""

    name = "Reference"

    def choose(self, observation: Observation) -> Move:
        me = observation.me
        return first_fit(
            me.payoff_top,
            observation.hand,
            me.side,
            [len(stack) for stack in observation.center],
            observation.rules.king_can_start_stack,
        )


register_bot("reference", ReferenceBot)
