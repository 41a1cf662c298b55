"""Turn views of seeded reference games, for tests that compare words over many plans."""

from __future__ import annotations

from spite_malice.bots import reference_move
from spite_malice.bots.view import TurnView, view_from_observation
from spite_malice.engine import Game, Rules


def turn_views(games: int, turns: int, payoff_size: int) -> list[TurnView]:
    """The seat to move's view at the start of the first ``turns`` turns of ``games`` seeded
    games played by the reference policy (small pay-off piles: wins and refills come often)."""
    views = []
    for seed in range(games):
        game = Game.new(seed, Rules(payoff_size=payoff_size))
        for _ in range(turns):
            if game.is_over:
                break
            views.append(view_from_observation(game.observation(game.to_move)))
            mover = game.to_move
            while not game.is_over and game.to_move == mover:
                game.play(reference_move(game))
    return views
