"""The turns Expert plays in its sampled games (:mod:`spite_malice.bots.rollout`): with the
opponent's refusals read, a rollout plays a turn as the Hard level does (R2, R3.1)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from spite_malice.arena.games import bot_seed
from spite_malice.bots import ExpertBot, PlanningBot
from spite_malice.bots import expert as expert_module
from spite_malice.bots.evaluation import HARD_WEIGHTS, AwareEvaluator
from spite_malice.bots.expert import EXPERT_SETTINGS
from spite_malice.bots.planning import plan_turn
from spite_malice.bots.rollout import centers, finish_turn
from spite_malice.bots.sampling import sample_game
from spite_malice.bots.view import Ranks, view_from_observation
from spite_malice.engine import Game, Move

DEAL, TURN = 42000, 23
"""Hard against Hard on this deal: at the start of this turn (three empty center stacks, the
opponent has just left them so) Hard only discards, where a planner that ignores the refusal
starts a center stack with its Ace first."""


def hard_game_at_turn(deal: int, turn: int) -> tuple[Game, PlanningBot]:
    """Hard against Hard (the arena's seeds) up to the start of ``turn``; the Hard of the
    seat to move, having played its earlier turns."""
    game = Game.new(deal, recording=False)
    bots = [PlanningBot(bot_seed(deal, "A")), PlanningBot(bot_seed(deal, "B"))]
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    while game.turn < turn:
        seat = game.to_move
        game.apply(bots[seat].choose(game.observation(seat)))
    return game, bots[game.to_move]


def hard_turn(game: Game, bot: PlanningBot) -> list[Move]:
    """The moves the Hard level plays for the rest of the current turn of ``game``."""
    seat, turn, played = game.to_move, game.turn, []
    while game.outcome is None and game.to_move == seat and game.turn == turn:
        move = bot.choose(game.observation(seat))
        game.apply(move)
        played.append(move)
    return played


def test_a_rollout_turn_with_the_refusals_read_is_the_hard_level_turn() -> None:
    game, bot = hard_game_at_turn(DEAL, TURN)
    start = len(game.moves)
    assert centers(game) == (0, 0, 0)
    hard = hard_turn(game.copy(rng=random.Random(1)), bot)
    reading = game.copy(rng=random.Random(1))
    finish_turn(reading, AwareEvaluator(HARD_WEIGHTS), refused=centers(game))
    blind = game.copy(rng=random.Random(1))
    finish_turn(blind, AwareEvaluator(HARD_WEIGHTS))
    assert [str(move) for move in hard] == ["H6-S2"]
    assert reading.moves[start:] == hard
    assert [str(move) for move in blind.moves[start:]] == ["HA-C1", "H6-S2"]


def test_expert_rollouts_pass_each_turn_its_refusals_with_the_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, _ = hard_game_at_turn(DEAL, TURN)
    observation = game.observation(game.to_move)
    calls: list[tuple[int, Ranks, Ranks]] = []

    def spy(game: Game, evaluator: AwareEvaluator, *, refused: Ranks = ()) -> None:
        calls.append((game.to_move, refused, centers(game)))
        finish_turn(game, evaluator, refused=refused)

    monkeypatch.setattr(expert_module, "finish_turn", spy)
    for reads in (True, False):
        settings = replace(EXPERT_SETTINGS, rollout_refusals=reads)
        expert = ExpertBot(1, budget=600.0, settings=settings)
        expert.new_game(observation.seat)
        expert.refused = centers(game)  # as choose() reads them at the start of the turn
        view = view_from_observation(observation, expert.refused)
        plan = plan_turn(view, expert.evaluator)[0]
        calls.clear()
        expert._rollout(sample_game(observation, random.Random(3)), plan, observation.seat)
        seats = [seat for seat, _, _ in calls]
        assert seats[-2:] == [1 - observation.seat, observation.seat]  # the reply, our next turn
        expected = [at_start if reads else () for _, _, at_start in calls]
        if len(calls) == 3:  # the rest of our turn: the refusals of the real turn
            expected[0] = expert.refused if reads else ()
        assert [refused for _, refused, _ in calls] == expected
        assert not reads or any(expected)
