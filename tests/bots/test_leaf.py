"""Expert's learned leaf evaluation: the shipped weights load and give the answers a player
knows on positions whose result is plain (R4.1, R4.2), and Expert's search scores with it."""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from bench import bots_leaf, bots_leaf_explore
from bench.bots_leaf import play_deal
from spite_malice.bots import ExpertBot
from spite_malice.bots.baselines import Expert1Bot
from spite_malice.bots.expert import EXPERT_SETTINGS, _choose, _edge
from spite_malice.bots.leaf import (
    FEATURES,
    LeafEvaluation,
    LeafFeatures,
    LeafModel,
    draw_model,
    shipped_model,
)
from spite_malice.bots.planning import Ending, Plan
from spite_malice.bots.sampling import sample_game
from spite_malice.engine import Game, Move

from .positions import position

TWENTY = ["2C", "3C", "4C", "6C", "7C", "8C", "9C", "TC", "JC", "QC"]
TWENTY += ["2D", "3D", "4D", "6D", "7D", "8D", "9D", "TD", "JD", "QD"]


def game(payoffs: tuple[list[str], list[str]], hands: tuple[list[str], list[str]]) -> Game:
    center = [["AH", "2H", "3H", "4H"], [], []]
    return Game.from_position(
        position(payoffs=payoffs, hands=hands, center=center, to_move=0), seed=1
    )


def test_the_shipped_weights_load_with_our_features() -> None:
    model = shipped_model()
    assert set(model.features) <= set(FEATURES)
    assert all(scale > 0 for scale in model.scale)
    assert LeafModel.from_json(model.to_json()) == model


def test_weights_for_other_features_are_refused() -> None:
    data = json.loads(shipped_model().to_json())
    data["features"][0] = "something else"
    with pytest.raises(ValueError, match="features"):
        LeafModel.from_json(json.dumps(data))


def test_one_card_left_and_playable_is_nearly_a_win() -> None:
    # R4.1: seat 0 to move has one pay-off card, a 5, and a center stack at 4
    g = game((["5H"], TWENTY[:15]), (["9S", "9D", "JH", "QH", "2S"], ["3S", "6S", "7S"]))
    leaf = LeafEvaluation()
    assert leaf.win_probability(g, 0) > 0.95
    assert leaf.win_probability(g, 1) < 0.05
    assert leaf.win_probability(g, 0) + leaf.win_probability(g, 1) == pytest.approx(1.0)


def test_far_ahead_is_likely_a_win_and_far_behind_a_loss() -> None:
    # nothing plays now (a 9 on the center's 4 would need 5 to 8): only the cards left differ
    hands = (["9S", "9D", "JH", "QH", "2S"], ["3S", "6S", "7S"])
    ahead = game((["9H", *TWENTY[:2]], TWENTY[2:20]), hands)
    behind = game((["9H", *TWENTY[:17]], TWENTY[17:20]), hands)
    even = game((["9H", *TWENTY[:9]], TWENTY[9:19]), hands)
    leaf = LeafEvaluation()
    p_ahead, p_even, p_behind = (leaf.win_probability(g, 0) for g in (ahead, even, behind))
    assert p_ahead > 0.8
    assert p_behind < 0.2
    assert p_behind < p_even < p_ahead


def test_finished_games_score_their_result() -> None:
    g = game((["5H"], TWENTY[:15]), (["9S", "9D", "JH", "QH", "2S"], ["3S", "6S", "7S"]))
    g.play(next(move for move in g.legal_moves() if move.is_from_payoff))
    assert g.outcome is not None and g.outcome.winner == 0
    leaf = LeafEvaluation()
    assert leaf.win_probability(g, 0) == 1.0
    assert leaf.win_probability(g, 1) == 0.0


def test_the_features_are_those_named() -> None:
    g = game((["5H"], TWENTY[:15]), (["9S", "9D", "JH", "QH", "2S"], ["3S", "6S", "7S"]))
    values = dict(zip(FEATURES, LeafFeatures()(g), strict=True))
    assert values["left"] == pytest.approx(1 / 20)
    assert values["opp_left"] == pytest.approx(15 / 20)
    assert values["chance_now"] == 1.0  # the 5 goes on the center's 4 (R3.1)
    assert values["win_now"] == 1.0
    assert values["opp_hand"] == 3.0


def test_the_features_see_both_hands_and_the_distances() -> None:
    # center values (4, 0, 0): the 5 on top of seat 0's pay-off pile fits now; seat 1's 7
    # needs a 5 and a 6 first (R3.1)
    payoffs = (["5H"], TWENTY[:15])
    hands = (["9S", "9D", "JH", "QH", "2S"], ["5S", "6S", "7S"])
    values = dict(zip(FEATURES, LeafFeatures()(game(payoffs, hands)), strict=True))
    assert values["distance"] == 0.0
    assert values["opp_distance"] == pytest.approx(2 / 11)
    assert values["playable"] == 0.0  # nothing in seat 0's hand takes a 4 or an empty stack
    assert values["opp_playable"] == 1.0  # the 5 of spades
    assert values["opp_chance_next"] == 1.0  # it holds the 5 and the 6 it needs
    assert values["opp_hand_kings"] == 0.0
    hands = (["9S", "9D", "JH", "QH", "2S"], ["3S", "6S", "KS"])
    values = dict(zip(FEATURES, LeafFeatures()(game(payoffs, hands)), strict=True))
    assert values["opp_chance_next"] == 1.0  # the King stands in for the 5 (R3.1)
    assert values["opp_hand_kings"] == 1.0
    hands = (["9S", "9D", "JH", "QH", "2S"], ["3S", "6S", "7S"])
    values = dict(zip(FEATURES, LeafFeatures()(game(payoffs, hands)), strict=True))
    # a 5 or a King must come in its two draws (R2.1)
    assert 0.0 < values["opp_chance_next"] < 0.5


def test_a_model_reads_its_own_features_by_name() -> None:
    payoffs_ahead = (["9H", *TWENTY[:2]], TWENTY[2:20])
    hands = (["9S", "9D", "JH", "QH", "2S"], ["3S", "6S", "7S"])
    g = game(payoffs_ahead, hands)
    # the more pay-off cards the other player has left, the better for the player to move
    model = LeafModel(("opp_left", "left"), (0.0, 0.0), (1.0, 1.0), (4.0, -4.0), 0.0)
    leaf = LeafEvaluation(model)
    assert leaf.win_probability(g, 0) == pytest.approx(1 / (1 + math.exp(-4 * (18 - 3) / 20)))


def test_a_perceptron_computes_its_hidden_layer() -> None:
    # two rectified units: max(0, x - y) and max(0, y - x + 1); output 2 h1 - h2 + 0.5
    layer = (((1.0, -1.0), (-1.0, 1.0)), (0.0, 1.0))
    model = LeafModel(("left", "lead"), (0.0, 0.0), (1.0, 1.0), (2.0, -1.0), 0.5, (layer,))
    assert model.logit([3.0, 1.0]) == pytest.approx(2 * 2 - 0 + 0.5)
    assert model.logit([1.0, 3.0]) == pytest.approx(0 - 3 + 0.5)
    assert LeafModel.from_json(model.to_json()) == model
    data = json.loads(model.to_json())
    data["layers"][0]["bias"] = [0.0]
    with pytest.raises(ValueError, match="layers"):
        LeafModel.from_json(json.dumps(data))
    data = json.loads(model.to_json())
    data["coef"] = [1.0]
    with pytest.raises(ValueError, match="output"):
        LeafModel.from_json(json.dumps(data))


def test_self_play_rows_carry_the_result_for_the_player_to_move() -> None:
    rows = play_deal(1_000_000)
    assert len(rows) > 20
    assert all(len(x) == len(FEATURES) for x, _ in rows)
    results = {y for _, y in rows}
    # a decided game: the two players' positions carry opposite results, turn by turn
    assert results == {0.0, 1.0}
    assert [y for _, y in rows[:4]] in ([1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0])


def test_expert_with_the_leaf_scores_probabilities() -> None:
    bot = ExpertBot(3, budget=1e6, max_samples=8, settings=replace(EXPERT_SETTINGS, leaf=True))
    assert bot.leaf is not None
    g = Game.new(11, recording=False)
    bot.new_game(g.to_move)
    observation = g.observation(g.to_move)
    plan = bot.best_plan(observation, float("inf"))
    assert plan.committed
    world = sample_game(observation, random.Random(1))
    score = bot._rollout(world, plan, observation.seat)
    assert 0.0 <= score <= 1.0


def test_with_the_leaf_a_value_counts_as_its_worth_in_probability() -> None:
    # two plans 100 apart (a pay-off card) whose samples are alike: the prior alone decides
    candidates = [
        Plan((Move.discard(5, 0),), 1, 150.0, Ending.DISCARD),
        Plan((Move.discard(6, 0),), 1, 50.0, Ending.DISCARD),
    ]
    results = [[0.5, 0.6, 0.4, 0.5], [0.52, 0.61, 0.42, 0.51]]
    edge, _ = _edge(candidates, results, 1, prior=0.05 / 100)
    assert edge == pytest.approx(-0.05 + 0.015)
    assert _choose(candidates, results, [1], prior=0.05 / 100) == 0
    # with no prior the samples alone decide, and they favour the second plan every time
    assert _choose(candidates, results, [1], prior=0.0) == 1


def test_the_shipped_expert_scores_with_the_leaf_and_expert_1_does_not() -> None:
    assert EXPERT_SETTINGS.leaf
    assert ExpertBot(1).leaf is not None
    assert Expert1Bot(1).leaf is None


def test_the_training_command_writes_weights_the_bot_loads(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    out = tmp_path / "leaf.json"
    data = tmp_path / "positions.npz"
    argv = ["--deals", "6", "--holdout", "3", "--out", str(out), "--data", str(data)]
    assert bots_leaf.main(argv) == 0
    model = LeafModel.from_json(out.read_text(encoding="utf-8"))
    assert model.features == FEATURES  # every feature, by default
    assert data.exists()
    # the positions kept are read back: the same fit again
    assert bots_leaf.main(argv) == 0
    assert LeafModel.from_json(out.read_text(encoding="utf-8")) == model


def test_the_training_command_fits_a_perceptron_the_bot_loads(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    out = tmp_path / "leaf.json"
    argv = ["--deals", "6", "--holdout", "3", "--hidden", "4", "--out", str(out)]
    assert bots_leaf.main(argv) == 0
    model = LeafModel.from_json(out.read_text(encoding="utf-8"))
    assert len(model.layers) == 1
    weights, bias = model.layers[0]
    assert len(bias) == 4 and all(len(row) == len(FEATURES) for row in weights)
    g = game((["5H"], TWENTY[:15]), (["9S", "9D", "JH", "QH", "2S"], ["3S", "6S", "7S"]))
    assert 0.0 < LeafEvaluation(model).win_probability(g, 0) < 1.0


def test_the_explore_command_fits_a_perceptron_on_every_feature(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    out = tmp_path / "leaf.json"
    argv = ["--deals", "4", "--holdout", "2", "--features", "all", "--hidden", "3"]
    assert bots_leaf_explore.main([*argv, "--out", str(out)]) == 0
    model = LeafModel.from_json(out.read_text(encoding="utf-8"))
    assert model.features == FEATURES
    weights, bias = model.layers[0]
    assert len(bias) == 3 and all(len(row) == len(FEATURES) for row in weights)
    g = game((["5H"], TWENTY[:15]), (["9S", "9D", "JH", "QH", "2S"], ["3S", "6S", "7S"]))
    assert 0.0 < LeafEvaluation(model).win_probability(g, 0) < 1.0


def test_the_training_command_fits_the_draw_model(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    import numpy as np

    # positions kept as the command keeps them: the draws (a half) where the stock is low
    rng = np.random.default_rng(18)
    xs = rng.random((600, len(FEATURES)))
    low = xs[:, FEATURES.index("low_stock")]
    ys = np.where(low > 0.8, 0.5, rng.integers(0, 2, 600).astype(float))
    data = tmp_path / "positions.npz"
    np.savez_compressed(data, train_x=xs[:400], train_y=ys[:400], test_x=xs[400:], test_y=ys[400:])
    out, draws = tmp_path / "leaf.json", tmp_path / "draws.json"
    argv = ["--data", str(data), "--out", str(out), "--draws-out", str(draws)]
    assert bots_leaf.main(argv) == 0
    model = LeafModel.from_json(draws.read_text(encoding="utf-8"))
    assert model.features == FEATURES
    x = [0.5] * len(FEATURES)
    late = list(x)
    late[FEATURES.index("low_stock")] = 0.95
    assert model.probability(late) > 0.5 > model.probability(x)


def test_the_draw_model_sees_a_stalled_game() -> None:
    """The chance of a draw (R4.2: the stock runs out) is higher late in a game with many
    pay-off cards left on both sides than early, or late with few left."""
    model = draw_model()
    assert set(model.features) <= set(FEATURES)
    g = game((["9H", *TWENTY[:9]], TWENTY[9:19]), (["9S", "9D", "JH", "QH", "2S"], ["3S"]))
    early = dict(zip(FEATURES, LeafFeatures()(g), strict=True))

    def chance(**changes: float) -> float:
        values = {**early, **changes}
        return model.probability([values[name] for name in model.features])

    stalled = {"stock": 0.04, "low_stock": 26 / 30, "lead_low_stock": 0.0}
    many = {"left": 0.5, "opp_left": 0.5, "inv_left": 0.1, "inv_opp_left": 0.1, "lead": 0.0}
    few = {"left": 0.1, "opp_left": 0.1, "inv_left": 0.5, "inv_opp_left": 0.5, "lead": 0.0}
    assert chance(**stalled, **many) > chance(**many)
    assert chance(**stalled, **many) > chance(**stalled, **few)


def test_contempt_makes_a_draw_worth_less_than_a_half() -> None:
    g = game((["9H", *TWENTY[:9]], TWENTY[9:19]), (["9S", "9D", "JH", "QH", "2S"], ["3S"]))
    plain, contempt = LeafEvaluation(), LeafEvaluation(contempt=0.25)
    assert plain.score(g, 0) == plain.win_probability(g, 0)
    values = LeafFeatures()(g)
    draw = draw_model().probability([values[FEATURES.index(n)] for n in draw_model().features])
    assert 0.0 < draw < 1.0
    for seat in (0, 1):
        assert contempt.score(g, seat) == contempt.win_probability(g, seat) - 0.25 * draw
    # a game drawn (R4.2) scores a quarter with this contempt; a win and a loss as before
    drawn = cast(Game, SimpleNamespace(outcome=SimpleNamespace(winner=None)))
    won = cast(Game, SimpleNamespace(outcome=SimpleNamespace(winner=1)))
    assert (contempt.score(drawn, 0), plain.score(drawn, 0)) == (0.25, 0.5)
    assert (contempt.score(won, 1), contempt.score(won, 0)) == (1.0, 0.0)
    with pytest.raises(ValueError, match="contempt"):
        LeafEvaluation(contempt=0.6)


def test_expert_takes_its_contempt_from_its_settings() -> None:
    bot = ExpertBot(1, settings=replace(EXPERT_SETTINGS, contempt=0.25))
    assert bot.leaf is not None and bot.leaf.contempt == 0.25
    shipped = ExpertBot(1)
    assert shipped.leaf is not None and shipped.leaf.contempt == EXPERT_SETTINGS.contempt
