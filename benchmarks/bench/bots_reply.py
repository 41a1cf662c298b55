"""How well Expert's model of the opponent's reply matches what Hard really plays.

Expert's rollouts play the opponent's turns with Hard's planner (:mod:`spite_malice.bots.rollout`),
but not exactly as the Hard level plays them: a rollout plans from the simulated game
(:func:`~spite_malice.bots.view.view_from_game`, which knows nothing of the refusals Hard
reads from the game's history) and with a smaller planner (200 states, against Hard's 1,500).
This benchmark plays games of a bot against Hard and, at the start of each of Hard's turns,
plans Hard's turn with the true cards as each reply model would, and counts how often the
model's moves (the committed moves of its plan) are the ones Hard then chose. The models are
given the true hand, so the figures measure the policy alone, not the sampling of hands.

With ``--hands``, it measures the sampling of hands instead: at the start of each turn of
Hard against Hard after the first, it deals the opponent's hand as Expert's sampler does
(uniform, agreeing with the refusals, with the last discard, or both) and counts the share of
the true hand's ranks the dealt hand holds, averaged over ``--samples`` deals a position.

    .venv/bin/python benchmarks/bots_reply.py --opponent hard --deals 20 --seed 42000
    .venv/bin/python benchmarks/bots_reply.py --hands --deals 6 --seed 42000
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from dataclasses import replace

from spite_malice.arena.games import bot_seed
from spite_malice.bot_registry import make_bot
from spite_malice.bots.evaluation import HARD_WEIGHTS, AwareEvaluator
from spite_malice.bots.planning import DEFAULT_MAX_STATES, best_plan
from spite_malice.bots.planning_bot import PlanningBot
from spite_malice.bots.sampling import HandCheck, discard_check, sample_game
from spite_malice.bots.view import Ranks, view_from_game
from spite_malice.engine.cards import RANK_OF
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


SAMPLERS = ("uniform", "refusals read", "last discard read", "both")


def hand_overlap(deals: int, seed: int, samples: int) -> tuple[int, dict[str, float]]:
    """The positions measured in Hard's self-play and, for each way of dealing the
    opponent's hand (:data:`SAMPLERS`), the mean share of the true hand's ranks that a dealt
    hand holds (a rank held twice counts twice when dealt twice)."""
    rng = random.Random(seed)
    total = dict.fromkeys(SAMPLERS, 0.0)
    positions = 0
    for deal in range(seed, seed + deals):
        game = Game.new(deal, recording=False)
        bots = [PlanningBot(bot_seed(deal, "A")), PlanningBot(bot_seed(deal, "B"))]
        for seat, bot in enumerate(bots):
            bot.new_game(seat)
        turn = -1
        while game.outcome is None:
            seat = game.to_move
            observation = game.observation(seat)
            kept = Counter(RANK_OF[c] for c in game.players[1 - seat].hand)
            if game.turn != turn and observation.history and kept:
                turn = game.turn
                positions += 1
                refused = tuple(len(stack) for stack in observation.center)
                check = discard_check(observation, HARD_WEIGHTS)
                ways: dict[str, tuple[Ranks, HandCheck | None]] = {
                    "uniform": ((), None),
                    "refusals read": (refused, None),
                    "last discard read": ((), check),
                    "both": (refused, check),
                }
                for name, (refusals, hand_check) in ways.items():
                    held = 0
                    for _ in range(samples):
                        world = sample_game(observation, rng, refusals, hand_check)
                        dealt = Counter(RANK_OF[c] for c in world.players[1 - seat].hand)
                        held += (dealt & kept).total()
                    total[name] += held / (samples * kept.total())
            game.apply(bots[seat].choose(observation))
    return positions, {name: value / max(1, positions) for name, value in total.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="hard", help="the bot that plays Hard (hard)")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=42000)
    parser.add_argument("--hands", action="store_true", help="measure the sampling of hands")
    parser.add_argument("--samples", type=int, default=20, help="deals a position (--hands)")
    args = parser.parse_args(argv)
    if args.hands:
        positions, shares = hand_overlap(args.deals, args.seed, args.samples)
        print(f"Hard against Hard, {args.deals} games from deal {args.seed}, {positions} turns:")
        for name, share in shares.items():
            print(f"  {name}: {share:.1%} of the true hand's ranks dealt")
        return 0
    turns, agree = measure(args.opponent, args.deals, args.seed)
    print(f"Hard's turns against {args.opponent}, {2 * args.deals} games from deal {args.seed}:")
    for name, count in agree.items():
        print(f"  {name}: {count} of {turns} turns the same ({count / max(1, turns):.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
