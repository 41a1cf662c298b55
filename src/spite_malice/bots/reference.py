"""The reference first-fit policy: a fixed, simple way to play, used to compare speeds.

If the pay-off top can be built, build it on the lowest-numbered center stack that takes it;
otherwise make the first legal build in this order: side stack tops 1 to 4, then hand cards
by ascending rank with Kings last, each onto the lowest-numbered center stack that takes it;
when no build is left, discard the highest non-King hand card (a King only if the hand holds
nothing else) onto the first empty side stack, else onto side stack 1.
"""

from __future__ import annotations

from ..engine.cards import KING, RANK_OF
from ..engine.game import Game
from ..engine.moves import Move


def reference_move(game: Game) -> Move:
    """The reference policy's move for the player to move in ``game`` (not over)."""
    me = game.players[game.to_move]
    center = game.center
    king_start = game.rules.king_can_start_stack
    needs = [len(stack) + 1 for stack in center]

    def target(rank: int) -> int:
        if rank == KING:
            for i, need in enumerate(needs):
                if need > 1 or king_start:
                    return i
            return -1
        return needs.index(rank) if rank in needs else -1

    if me.payoff:
        i = target(RANK_OF[me.payoff[-1]])
        if i >= 0:
            return Move.build_from_payoff(i)
    for side, pile in enumerate(me.side):
        if pile:
            i = target(RANK_OF[pile[-1]])
            if i >= 0:
                return Move.build_from_side(side, i)
    ranks = sorted({RANK_OF[card] for card in me.hand})  # Kings (13) sort last
    for rank in ranks:
        i = target(rank)
        if i >= 0:
            return Move.build_from_hand(rank, i)
    plain = [rank for rank in ranks if rank != KING]
    rank = plain[-1] if plain else KING
    side = next((s for s, pile in enumerate(me.side) if not pile), 0)
    return Move.discard(rank, side)
