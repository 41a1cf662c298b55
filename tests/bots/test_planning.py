"""The turn planner and the sampler."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from spite_malice.bots import reference_move
from spite_malice.bots.evaluation import AwareEvaluator, ProgressEvaluator, has_rank_odds
from spite_malice.bots.planning import plan_turn
from spite_malice.bots.sampling import sample_game, unseen_cards
from spite_malice.bots.view import view_from_game, view_from_observation
from spite_malice.engine import Game

from .positions import position


def test_plans_end_in_a_discard_a_win_or_a_refill_and_replay_legally() -> None:
    for seed in range(6):
        game = Game.new(seed)
        for _ in range(seed * 15):
            game.play(reference_move(game))
        view = view_from_observation(game.observation(game.to_move))
        plans = plan_turn(view, AwareEvaluator())
        assert plans == sorted(plans, key=lambda p: -p.value)
        for plan in plans[:10]:
            assert plan.ending in ("discard", "win", "refill")
            assert plan.moves[-1].is_discard == (plan.ending == "discard")
            assert all(m.is_build for m in plan.moves[:-1])
            copy = Game.from_position(game.to_position(), seed=1)
            for move in plan.committed:  # known cards only: every committed move is legal
                copy.play(move)


def test_r4_1_planner_finds_the_winning_sequence() -> None:
    game = Game.from_position(
        position(
            payoffs=(["7D"], ["4H", "9S"]),
            hands=(["KS", "9H", "9D", "4S", "5S"], ["AH", "5D", "6D", "QC", "JC"]),
            center=[["AS", "2H", "3D"], [], []],
        ),
        seed=1,
    )
    best = plan_turn(view_from_game(game), ProgressEvaluator())[0]
    assert best.ending == "win"
    assert [str(m) for m in best.moves][-1] == "P-C1"
    for move in best.moves:
        game.play(move)
    assert game.winner == 0


def test_r3_4_c_an_emptied_hand_ends_the_plan() -> None:
    game = Game.from_position(
        position(
            payoffs=(["9D", "QD"], ["4H", "9S"]),
            hands=(["AS", "2S"], ["AH", "5D", "6D", "QC", "JC"]),
        ),
        seed=1,
    )
    best = plan_turn(view_from_game(game), ProgressEvaluator())[0]
    assert best.ending == "refill"
    assert [str(m) for m in best.moves] == ["HA-C1", "H2-C1"]


def test_sampled_game_matches_the_observation_and_holds_every_card() -> None:
    game = Game.new(8)
    for _ in range(70):
        game.play(reference_move(game))
    seat = game.to_move
    observation = game.observation(seat)
    for k in range(3):
        world = sample_game(observation, random.Random(k))
        assert world.observation(seat) == replace(observation, history=())
        cards: Counter[int] = Counter(world.stock)
        for stack in world.center:
            cards.update(stack)
        for player in world.players:
            cards.update(player.payoff)
            cards.update(player.hand)
            for pile in player.side:
                cards.update(pile)
        assert cards == Counter({card: 2 for card in range(52)})
    assert len(unseen_cards(observation)) == 104 - len(observation.visible_cards())


def test_rank_odds_draw_without_replacement() -> None:
    assert has_rank_odds(0, 50, 5) == 0.0
    assert has_rank_odds(8, 8, 1) == 1.0
    assert abs(has_rank_odds(1, 10, 1) - 0.1) < 1e-12
    assert abs(has_rank_odds(2, 10, 2) - (1 - 8 / 10 * 7 / 9)) < 1e-12
