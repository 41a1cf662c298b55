"""Expert's choice among sampled plans, and its early stop once the choice is settled."""

from __future__ import annotations

import pytest

from spite_malice.bots import ExpertBot
from spite_malice.bots.expert import MIN_SAMPLES, _compare
from spite_malice.bots.planning import Plan
from spite_malice.engine import Game, Move


def plan(value: float) -> Plan:
    return Plan((Move.discard(5, 0),), 1, value, "discard")


def test_hard_choice_stays_when_nothing_beats_it_beyond_the_noise() -> None:
    candidates = [plan(50.0), plan(45.0)]
    # the second plan does 10 better on average, with a spread far larger than that
    results = [[0.0, 0.0, 0.0, 0.0], [200.0, -180.0, 190.0, -170.0]]
    best, settled = _compare(candidates, results)
    assert best == 0
    assert not settled  # it could still turn out better


def test_a_plan_clearly_better_in_every_sample_takes_over_at_the_end() -> None:
    candidates = [plan(50.0), plan(45.0), plan(40.0)]
    results = [
        [0.0, 100.0, 0.0, 100.0],
        [100.0, 200.0, 100.0, 210.0],  # +102.5 on average, a prior of -5
        [0.0, 100.0, 0.0, 100.0],  # the same as Hard's choice, a prior of -10
    ]
    best, settled = _compare(candidates, results)
    assert best == 1
    assert not settled  # a switch never stops the search early (no optional stopping)


def test_the_values_count_beside_the_samples() -> None:
    # the samples show no difference: the plan of higher value stays chosen, and is settled
    results = [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    assert _compare([plan(50.0), plan(40.0)], results) == (0, True)
    assert _compare([plan(50.0), plan(55.0)], results) == (1, False)


def test_the_search_stops_early_once_the_choice_is_settled() -> None:
    samples = []
    game = Game.new(5, recording=False)
    bot = ExpertBot(5, budget=600.0, max_samples=400)
    bot.new_game(0)
    while game.outcome is None and game.turn < 40:
        observation = game.observation(game.to_move)
        if game.to_move == 0:
            move = bot.choose(observation)
            if bot.last_samples:
                samples.append(bot.last_samples)
        else:
            move = observation.legal_moves[-1]
        game.apply(move)
    assert samples, "Expert searched at least once"
    assert min(samples) >= MIN_SAMPLES or min(samples) < 2
    assert any(n < 400 for n in samples)


def test_with_too_few_samples_the_evaluation_choice_stands() -> None:
    from spite_malice.bots.evaluation import EXPERT_WEIGHTS, AwareEvaluator
    from spite_malice.bots.expert import MIN_SWITCH_SAMPLES
    from spite_malice.bots.planning import best_plan
    from spite_malice.bots.view import view_from_observation

    game = Game.new(8, recording=False)
    evaluator = AwareEvaluator(EXPERT_WEIGHTS)
    searched = 0
    while game.outcome is None and game.turn < 30:
        observation = game.observation(game.to_move)
        bot = ExpertBot(3, budget=600.0, max_samples=MIN_SWITCH_SAMPLES - 1)
        bot.new_game(game.to_move)
        move = bot.choose(observation)
        searched += bot.last_samples > 0
        expected = best_plan(view_from_observation(observation), evaluator).committed[0]
        assert move == expected
        game.apply(move)
    assert searched, "some turns had plans to search"


def test_expert_takes_sixteen_samples_by_default() -> None:
    from spite_malice.bots import make_bot

    assert ExpertBot().max_samples == 16
    assert make_bot("expert", 1).max_samples == 16  # type: ignore[attr-defined]
    assert make_bot("expert:0.5", 1).max_samples == 16  # type: ignore[attr-defined]
    assert ExpertBot(max_samples=None).max_samples is None
    with pytest.raises(ValueError, match="max_samples must be at least 1"):
        ExpertBot(max_samples=0)
