"""Expert's choice among sampled plans: which plans it drops, which it picks, and how it
shares out its rollouts."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest

from spite_malice.bot_registry import make_bot
from spite_malice.bots import ExpertBot
from spite_malice.bots.baselines import EXPERT_1_SETTINGS
from spite_malice.bots.expert import EXPERT_SETTINGS, MIN_SAMPLES, _choose, _edge, _trails
from spite_malice.bots.planning import Ending, Plan
from spite_malice.engine import Game, Move, Observation


def plan(value: float) -> Plan:
    return Plan((Move.discard(5, 0),), 1, value, Ending.DISCARD)


def test_hard_choice_stays_when_nothing_beats_it_beyond_the_noise() -> None:
    candidates = [plan(50.0), plan(45.0)]
    # the second plan does 10 better on average, with a spread far larger than that
    results = [[0.0, 0.0, 0.0, 0.0], [200.0, -180.0, 190.0, -170.0]]
    assert _choose(candidates, results, [1]) == 0
    assert not _trails(candidates, results, 1)  # it could still turn out better


def test_a_plan_clearly_better_in_every_sample_takes_over() -> None:
    candidates = [plan(50.0), plan(45.0), plan(40.0)]
    results = [
        [0.0, 100.0, 0.0, 100.0],
        [100.0, 200.0, 100.0, 210.0],  # +102.5 on average, a prior of -5
        [0.0, 100.0, 0.0, 100.0],  # the same as Hard's choice, a prior of -10
    ]
    assert _choose(candidates, results, [1, 2]) == 1
    assert _edge(candidates, results, 1) == pytest.approx((97.5, 2.5))
    # a dropped plan is never chosen, however it did
    assert _choose(candidates, results, [2]) == 0


def test_the_values_count_beside_the_samples() -> None:
    # the samples show no difference: the plan of higher value wins, and a lower one trails
    results = [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    assert _choose([plan(50.0), plan(40.0)], results, [1]) == 0
    assert _trails([plan(50.0), plan(40.0)], results, 1)
    assert _choose([plan(50.0), plan(55.0)], results, [1]) == 1
    assert not _trails([plan(50.0), plan(55.0)], results, 1)


def test_a_dropped_plan_is_compared_on_the_samples_it_took() -> None:
    candidates = [plan(0.0), plan(0.0)]
    # the first plan went on to four more samples after the second was dropped
    results = [[0.0, 10.0, 0.0, 10.0, 500.0, 500.0, 500.0, 500.0], [20.0, 30.0, 20.0, 30.0]]
    assert _edge(candidates, results, 1) == pytest.approx((20.0, 0.0))


class ScriptedExpert(ExpertBot):
    """Expert whose rollouts score each candidate (known by its value) by a fixed rule: its
    score, plus or minus its swing in turn, and counts them."""

    def __init__(
        self, scores: dict[float, float], max_samples: int, swing: dict[float, float] | None = None
    ) -> None:
        super().__init__(1, budget=600.0, max_samples=max_samples)
        self.scores = scores
        self.swing = swing or {}
        self.rollouts: dict[float, int] = dict.fromkeys(scores, 0)

    def _rollout(self, game: Game, plan: Plan, seat: int) -> float:
        self.rollouts[plan.value] += 1
        sign = 1.0 if self.rollouts[plan.value] % 2 else -1.0
        return self.scores[plan.value] + sign * self.swing.get(plan.value, 0.0)


def search(bot: ExpertBot, values: list[float]) -> Plan:
    observation = Game.new(5, recording=False).observation(0)
    deadline = time.perf_counter() + 600.0
    return bot._search(observation, [plan(v) for v in values], deadline, deadline)


def test_plans_that_clearly_trail_are_dropped_and_the_close_ones_get_their_rollouts() -> None:
    # values 50, 49, 48, 47: the last two do far worse in the samples; the second does as
    # well as the first on average, but too unevenly to tell them apart
    scores = {50.0: 0.0, 49.0: 0.0, 48.0: -400.0, 47.0: -400.0}
    bot = ScriptedExpert(scores, max_samples=16, swing={49.0: 30.0})
    assert search(bot, [50.0, 49.0, 48.0, 47.0]).value == 50.0
    assert bot.rollouts[48.0] == bot.rollouts[47.0] == MIN_SAMPLES  # dropped at the first look
    # never more rollouts than 16 samples of each candidate; the close pair got the rest
    assert sum(bot.rollouts.values()) <= 16 * 4
    assert bot.rollouts[50.0] == bot.rollouts[49.0] == bot.last_samples
    assert bot.last_samples == MIN_SAMPLES + (16 * 4 - 4 * MIN_SAMPLES) // 2


def test_a_plan_that_wins_in_the_samples_is_chosen() -> None:
    bot = ScriptedExpert({50.0: 0.0, 49.0: 0.0, 48.0: 300.0}, max_samples=16, swing={48.0: 50.0})
    assert search(bot, [50.0, 49.0, 48.0]).value == 48.0
    assert sum(bot.rollouts.values()) <= 16 * 3


def test_the_search_stops_once_every_other_plan_is_dropped() -> None:
    bot = ScriptedExpert({50.0: 0.0, 49.0: -500.0, 48.0: -500.0}, max_samples=100)
    assert search(bot, [50.0, 49.0, 48.0]).value == 50.0
    assert bot.last_samples == MIN_SAMPLES
    assert sum(bot.rollouts.values()) == 3 * MIN_SAMPLES


def test_in_a_real_game_the_search_drops_plans_and_stops_early() -> None:
    samples = []
    game = Game.new(5, recording=False)
    bot = ExpertBot(5, budget=600.0, max_samples=40)
    bot.new_game(0)
    while game.outcome is None and game.turn < 30:
        observation = game.observation(game.to_move)
        if game.to_move == 0:
            move = bot.choose(observation)
            if bot.last_samples:
                samples.append(bot.last_samples)
        else:
            move = observation.legal_moves[-1]
        game.apply(move)
    assert samples, "Expert searched at least once"
    assert min(samples) >= MIN_SAMPLES
    assert any(n < 40 for n in samples)  # every other plan was dropped: stopped early


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
        refused = bot.refused if evaluator.weights.reads_refusals else ()
        view = view_from_observation(observation, refused)
        expected = best_plan(view, evaluator).committed[0]
        assert move == expected
        game.apply(move)
    assert searched, "some turns had plans to search"


def test_expert_takes_24_samples_by_default() -> None:
    from spite_malice.bot_registry import make_bot

    assert ExpertBot().max_samples == 24
    assert make_bot("expert", 1).max_samples == 24  # type: ignore[attr-defined]
    assert make_bot("expert:0.5", 1).max_samples == 24  # type: ignore[attr-defined]
    assert ExpertBot(max_samples=None).max_samples is None
    with pytest.raises(ValueError, match="max_samples must be at least 1"):
        ExpertBot(max_samples=0)


def _searched_positions(seed: int) -> Iterator[tuple[ExpertBot, Observation, list[Plan]]]:
    """The positions of game ``seed`` (played by Hard) where Expert has at least two
    candidates to search, none of them ending at new cards; the bot and its candidates."""
    from spite_malice.bots.planning import plan_turn
    from spite_malice.bots.view import view_from_observation

    game = Game.new(seed, recording=False)
    bot = ExpertBot(1, budget=600.0)
    hard = make_bot("hard", 1)
    for seat in (0, 1):
        hard.new_game(seat)
    while game.outcome is None and game.turn < 60:
        observation = game.observation(game.to_move)
        view = view_from_observation(observation)
        plans = plan_turn(view, bot.evaluator)
        close = [p for p in plans[: bot.candidates] if p.value >= plans[0].value - bot.margin]
        if len(close) >= 2 and all(p.commit == len(p.moves) for p in close):
            yield bot, observation, close
        game.apply(hard.choose(observation))


def test_the_static_prior_leaves_out_the_guesses_about_the_next_turns() -> None:
    # a plan's value without the danger and our own chance next turn is what the planner
    # gives the same moves when those weights are 0
    from spite_malice.bots.evaluation import AwareEvaluator
    from spite_malice.bots.planning import plan_turn
    from spite_malice.bots.view import view_from_observation

    checked = changed = 0
    for bot, observation, candidates in _searched_positions(11):
        view = view_from_observation(observation)
        plan_turn(view, bot.evaluator)  # the evaluator as the search leaves it
        no_guesses = {"danger": 0.0, "danger_per_card": 0.0, "danger_near_win": 0.0}
        blind = AwareEvaluator(replace(bot.evaluator.weights, own_chance=0.0, **no_guesses))
        blind_values = {p.moves: p.value for p in plan_turn(view, blind)}
        for candidate in candidates:
            static = bot._static_value(view, candidate)
            assert static == pytest.approx(blind_values[candidate.moves])
            checked += 1
            changed += static != pytest.approx(candidate.value)
    assert checked > 10
    assert changed, "the guesses count in some candidate's value"


def test_each_round_of_the_look_ahead_plays_the_opponent_and_our_next_turn() -> None:
    from spite_malice.bots.sampling import sample_game

    _, observation, candidates = next(_searched_positions(11))
    turns = {}
    for rounds in (1, 2, 3):
        bot = ExpertBot(1, budget=600.0, settings=replace(EXPERT_SETTINGS, rounds=rounds))
        game = sample_game(observation, random.Random(4))
        start = game.turn
        bot._rollout(game, candidates[0], observation.seat)
        assert game.outcome is None
        turns[rounds] = game.turn - start
    assert turns == {1: 3, 2: 5, 3: 7}  # ours (its rest), then two turns a round


def test_the_evaluation_lists_every_discard_its_choice_first() -> None:
    from spite_malice.bots.planning import replay_ranks
    from spite_malice.bots.view import view_from_observation

    checked = 0
    for bot, observation, candidates in _searched_positions(11):
        view = view_from_observation(observation)
        bot.evaluator.begin(view)
        for candidate in candidates:
            center, hand, side = replay_ranks(view, candidate.moves[:-1])
            options = bot.evaluator.discards(center, hand, side)
            assert options[0] == bot.evaluator.best_discard(center, hand, side)
            assert [score for score, _ in options] == sorted(
                (score for score, _ in options), reverse=True
            )
            # R3.3: any hand card on any side stack; stacks with the same top are one choice
            tops = {pile[-1] if pile else 0 for pile in side}
            assert len(options) == len(set(hand)) * len(tops)
            assert all(move.is_discard for _, move in options)
            checked += 1
    assert checked > 10


def _searched_candidates(bot: ExpertBot, observation: Observation) -> list[Plan]:
    """The candidates ``bot`` searches in ``observation`` (its search not run)."""
    seen: list[list[Plan]] = []

    def record(
        observation: Observation, candidates: list[Plan], deadline: float, hard_deadline: float
    ) -> Plan:
        seen.append(candidates)
        return candidates[0]

    bot._search = record  # type: ignore[method-assign]
    bot.best_plan(observation, float("inf"))
    assert len(seen) == 1
    return seen[0]


def test_expert_searches_the_candidates_it_lists_the_evaluation_choice_first() -> None:
    from spite_malice.bots.planning import plan_turn
    from spite_malice.bots.view import view_from_observation

    game = Game.new(11, recording=False)
    bot = ExpertBot(1, budget=600.0, max_samples=8)
    hard = make_bot("hard", 1)
    for seat in (0, 1):
        hard.new_game(seat)
    searched = alone = 0
    while game.outcome is None and game.turn < 40:
        observation = game.observation(game.to_move)
        listed = bot.search_candidates(observation)
        assert listed[0] == plan_turn(view_from_observation(observation), bot.evaluator)[0]
        if len(listed) > 1:
            assert _searched_candidates(bot, observation) == listed
            searched += 1
        else:  # nothing to compare it with: the evaluation's choice, no sample taken
            fresh = ExpertBot(1, budget=600.0, max_samples=8)
            assert fresh.best_plan(observation, float("inf")) == listed[0]
            assert fresh.last_samples == 0
            alone += 1
        game.apply(hard.choose(observation))
    assert searched > 5 and alone > 1


def test_expert_searches_other_discards_of_the_evaluation_choice() -> None:
    from spite_malice.bots.planning import plan_turn
    from spite_malice.bots.view import view_from_observation

    added = 0
    for _, observation, candidates in _searched_positions(11):
        wide = ExpertBot(
            1, budget=600.0, settings=replace(EXPERT_SETTINGS, discards=3, discard_plans=1)
        )
        view = view_from_observation(observation)
        best = plan_turn(view, wide.evaluator)[0]
        others = wide._other_discards(view, best, candidates)
        assert len(others) <= 3
        taken = {p.moves for p in candidates}
        for other in others:
            # the same builds, another discard to end the turn (R2.3), never worth more
            assert other.moves[:-1] == best.moves[:-1]
            assert other.moves[-1].is_discard and other.moves[-1] != best.moves[-1]
            assert other.moves not in taken
            assert best.value - wide.margin <= other.value <= best.value
            assert other.commit == len(other.moves)
        assert [p.value for p in others] == sorted((p.value for p in others), reverse=True)
        added += len(others)
        # the bot searches them beside the evaluation's best plans
        searched = _searched_candidates(wide, observation)
        assert len(searched) == len(candidates) + len(others)
    assert added > 10
    # the shipped Expert searches four other discards; expert-1 only the evaluation's plans
    assert EXPERT_SETTINGS.discards == 4
    assert EXPERT_1_SETTINGS.discards == 0


class DiscardLover(ExpertBot):
    """Expert whose sampled games favour one plan (by its moves) and score the rest alike."""

    def __init__(self, discards: int) -> None:
        settings = replace(EXPERT_SETTINGS, discards=discards)
        super().__init__(1, budget=600.0, max_samples=16, settings=settings)
        self.favourite: tuple[Move, ...] = ()

    def _rollout(self, game: Game, plan: Plan, seat: int) -> float:
        return 0.9 if plan.moves == self.favourite else 0.4


def test_a_discard_the_samples_favour_is_played_instead_of_the_evaluation_choice() -> None:
    from spite_malice.bots.planning import plan_turn
    from spite_malice.bots.view import view_from_observation

    for _, observation, candidates in _searched_positions(11):
        bot = DiscardLover(discards=4)
        view = view_from_observation(observation)
        best = plan_turn(view, bot.evaluator)[0]
        others = bot._other_discards(view, best, candidates)
        if not others:
            continue
        bot.favourite = others[-1].moves
        assert bot.best_plan(observation, float("inf")).moves == bot.favourite
        # without the other discards the search cannot reach it
        blind = DiscardLover(discards=0)
        blind.favourite = bot.favourite
        assert blind.best_plan(observation, float("inf")).moves != bot.favourite
        return
    raise AssertionError("no position with another discard to search")


def test_other_discards_of_the_second_plan_are_searched_with_discard_plans() -> None:
    found = 0
    for _, observation, candidates in _searched_positions(11):
        one = _searched_candidates(
            ExpertBot(1, budget=600.0, settings=replace(EXPERT_SETTINGS, discard_plans=1)),
            observation,
        )
        two = _searched_candidates(
            ExpertBot(1, budget=600.0, settings=replace(EXPERT_SETTINGS, discard_plans=2)),
            observation,
        )
        assert [p.moves for p in two[: len(one)]] == [p.moves for p in one]
        second = candidates[1]
        for extra in two[len(one) :]:
            # the second plan's builds, another discard (R2.3), within the margin of the best
            assert extra.moves[:-1] == second.moves[:-1]
            assert extra.moves[-1].is_discard and extra.moves[-1] != second.moves[-1]
            assert extra.value >= candidates[0].value - EXPERT_SETTINGS.margin
            assert extra.moves not in {p.moves for p in one}
        found += len(two) - len(one)
    assert found > 5
    assert EXPERT_SETTINGS.discard_plans == 2


def test_the_switch_threshold_is_how_many_standard_errors_a_switch_needs() -> None:
    candidates = [plan(0.0), plan(0.0)]
    # the second plan is 10 better on average, 1.73 standard errors of 5.77
    results = [[0.0, 0.0, 0.0, 0.0], [0.0, 20.0, 0.0, 20.0]]
    assert _edge(candidates, results, 1) == pytest.approx((10.0, 10.0 / 3**0.5))
    assert _choose(candidates, results, [1]) == 1  # the shipped threshold: one
    assert _choose(candidates, results, [1], switch_z=1.7) == 1
    assert _choose(candidates, results, [1], switch_z=1.8) == 0


def test_the_search_switches_by_its_settings_threshold() -> None:
    # the second plan does 10 better a sample, about 2.6 standard errors over 16 samples
    def expert(switch_z: float) -> ScriptedExpert:
        bot = ScriptedExpert({50.0: 0.0, 49.0: 10.0}, max_samples=16, swing={49.0: 15.0})
        bot.settings = replace(bot.settings, switch_z=switch_z)
        return bot

    assert EXPERT_SETTINGS.switch_z == EXPERT_1_SETTINGS.switch_z == 1.0
    assert search(expert(1.0), [50.0, 49.0]).value == 49.0
    assert search(expert(2.5), [50.0, 49.0]).value == 49.0
    assert search(expert(2.7), [50.0, 49.0]).value == 50.0
