"""How well Expert's model of the opponent's reply matches what Hard really plays.

Expert's rollouts play the opponent's turns with Hard's planner (:mod:`spite_malice.bots.rollout`),
but not exactly as the Hard level plays them: a rollout plans from the simulated game
(:func:`~spite_malice.bots.view.view_from_game`, which knows nothing of the refusals Hard
reads from the game's history) and with a smaller planner (200 states, against Hard's 1,500).
This benchmark plays games of a bot against Hard and, at the start of each of Hard's turns,
plans Hard's turn with the true cards as each reply model would, and counts how often the
model's moves (the committed moves of its plan) are the ones Hard then chose. The models are
given the true hand, so the figures measure the policy alone, not the sampling of hands.

    .venv/bin/python benchmarks/bots_reply.py --opponent hard --deals 20 --seed 42000
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from spite_malice.arena.games import bot_seed
from spite_malice.bot_registry import make_bot
from spite_malice.bots.evaluation import HARD_WEIGHTS, AwareEvaluator
from spite_malice.bots.planning import DEFAULT_MAX_STATES, best_plan
from spite_malice.bots.planning_bot import PlanningBot
from spite_malice.bots.view import view_from_game
from spite_malice.engine.game import Game

MODELS = {
    "rollout (200 states, no refusals)": (200, False),
    "200 states, refusals read": (200, True),
    "1,500 states, no refusals": (DEFAULT_MAX_STATES, False),
    "1,500 states, refusals read (the Hard level)": (DEFAULT_MAX_STATES, True),
}
"""Each reply model: the planner's states and whether it reads the opponent's refusals."""


def measure(opponent: str, deals: int, seed: int) -> tuple[int, dict[str, int]]:
    """Hard's turns played in the games of ``opponent`` against Hard (both seats of each
    deal), and for each reply model the turns on which its plan's committed moves were
    Hard's choice."""
    agree = dict.fromkeys(MODELS, 0)
    turns = 0
    evaluator = AwareEvaluator(HARD_WEIGHTS)
    for deal in range(seed, seed + deals):
        for hard_seat in (0, 1):
            game = Game.new(deal, recording=False)
            hard = PlanningBot(bot_seed(deal, "B"))
            other = make_bot(opponent, bot_seed(deal, "A"))
            hard.new_game(hard_seat)
            other.new_game(1 - hard_seat)
            turn = -1
            while game.outcome is None:
                seat = game.to_move
                observation = game.observation(seat)
                bot = hard if seat == hard_seat else other
                if seat == hard_seat and game.turn != turn:
                    turn = game.turn
                    refused = tuple(len(stack) for stack in game.center) if game.moves else ()
                    models = {}
                    for name, (states, reads) in MODELS.items():
                        view = view_from_game(game)
                        if reads:
                            view = replace(view, refused=refused)
                        plan = best_plan(view, evaluator, max_states=states)
                        models[name] = plan.committed
                    move = hard.choose(observation)
                    chosen = (move, *hard.queued)  # the committed moves of its plan
                    turns += 1
                    for name, moves in models.items():
                        agree[name] += moves == chosen
                else:
                    move = bot.choose(observation)
                game.apply(move)
    return turns, agree


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="hard", help="the bot that plays Hard (hard)")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=42000)
    args = parser.parse_args(argv)
    turns, agree = measure(args.opponent, args.deals, args.seed)
    print(f"Hard's turns against {args.opponent}, {2 * args.deals} games from deal {args.seed}:")
    for name, count in agree.items():
        print(f"  {name}: {count} of {turns} turns the same ({count / max(1, turns):.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
