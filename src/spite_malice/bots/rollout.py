"""Playing turns inside a bot's private simulation, with a planning policy.

Look-ahead needs sensible play on both sides: random play never finishes a game under our
rules (the stock always runs out first), so simulated turns are played by the turn planner
with an evaluator, re-planning whenever new cards appear. Only ever used on sampled games
(:mod:`.sampling`), on the engine's unchecked fast path.
"""

from __future__ import annotations

from ..engine.game import Game
from .planning import Evaluator, best_plan
from .view import Ranks, view_from_game

MAX_PLANS_PER_TURN = 12
"""A safety net: a turn of a simulated game re-plans at most this often, then discards."""


def centers(game: Game) -> Ranks:
    """The values of ``game``'s center stacks: at the start of a turn, what the player to
    move reads as the other player's refusals."""
    return tuple(len(stack) for stack in game.center)


def finish_turn(
    game: Game, evaluator: Evaluator, *, max_states: int = 200, refused: Ranks = ()
) -> None:
    """Play the rest of the current turn of ``game`` for the player to move. ``refused``:
    the center values the other player left at the end of its turn (the values at the start
    of this one, :attr:`~.view.TurnView.refused`), for an evaluator that reads them as the
    Hard level does; empty, none are read."""
    player = game.to_move
    turn = game.turn
    for _ in range(MAX_PLANS_PER_TURN):
        plan = best_plan(view_from_game(game, refused), evaluator, max_states=max_states)
        for move in plan.committed:
            game.apply(move)
            if game.outcome is not None:
                return
        if game.to_move != player or game.turn != turn:
            return
    while game.outcome is None and game.to_move == player and game.turn == turn:
        legal = game.legal_moves()
        game.apply(next((m for m in legal if m.is_discard), legal[0]))
