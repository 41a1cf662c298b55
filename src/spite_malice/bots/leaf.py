"""A learned leaf evaluation: the chance that the player to move wins from a position.

Expert's look-ahead ends in positions where the game goes on; it scores them with this
model rather than by counting pay-off cards, so that every sampled game adds a probability
(a win is 1, a loss 0, a draw a half, R4.2) and no single sampled win decides a search.

The model is small: a logistic regression, or a perceptron with one hidden layer, on the
features of :class:`LeafFeatures`, fitted to positions of Hard's self-play labelled with the
final result (``benchmarks/bots_leaf.py``, outside the package). Its weights
ship in the package (``leaf_weights.json``) and it is evaluated in pure Python, cheaply
enough for the thousands of leaves of a search.

The features read the position of a (sampled) game: both sides' cards, how far each side's
pay-off top is from the center stacks, the cards each could play now, and the card counting
of Hard's evaluation (the danger that the opponent plays its pay-off card next turn, the
player's own chance to play its pay-off card now). Inside a search the game is one sampled
from the bot's observation (:mod:`.sampling`): the hidden cards in it are sampled, so this
reads nothing the bot could not see.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from operator import mul
from pathlib import Path

from ..engine.cards import KING, RANK_OF
from ..engine.game import Game
from ..engine.stacks import needs, ranks_to_reach
from .evaluation import (
    HARD_WEIGHTS,
    AwareEvaluator,
    odds_table,
    rank_mask,
    reach_route,
    route_odds,
)
from .view import Ranks, TurnView, draws_next_turn, side_supply, view_from_game

FEATURES = (
    "left",
    "opp_left",
    "lead",
    "inv_left",
    "inv_opp_left",
    "chance_now",
    "win_now",
    "danger",
    "opp_win_next",
    "stock",
    "low_stock",
    "lead_low_stock",
    "side_cards",
    "opp_side_cards",
    "empty_side",
    "opp_empty_side",
    "kings",
    "opp_side_kings",
    "opp_hand",
    "center_empty",
    "distance",
    "opp_distance",
    "playable",
    "opp_playable",
    "opp_chance_next",
    "opp_hand_kings",
    "supply",
    "opp_supply",
)
"""The names of the values :class:`LeafFeatures` computes, in order. A model uses some or
all of them, by name (its JSON lists them)."""

_FAR = 11
"""The most cards a center stack can need before it takes a pay-off card (R3.1, R3.4(b))."""


def _distance(center: Ranks, target: int) -> float:
    """How many cards the nearest center stack needs before it takes a pay-off card of
    ``target`` (0: it fits now, or it is a King, R3.1), as a fraction of the most it can be."""
    if not target or target == KING:
        return 0.0
    return min(len(ranks_to_reach(value, target)) for value in center) / _FAR


def _playable(center: Ranks, ranks: Iterable[int]) -> float:
    """How many of ``ranks`` (a hand and side-stack tops) fit a center stack now (R3.1)."""
    takes = {needs(value) for value in center}
    return float(sum(rank == KING or rank in takes for rank in ranks))


class LeafFeatures:
    """Computes the values named in :data:`FEATURES`; keeps one Hard evaluator for its card
    counting."""

    def __init__(self) -> None:
        self.evaluator = AwareEvaluator(HARD_WEIGHTS)

    def __call__(self, game: Game) -> list[float]:
        """The features of ``game``'s position for the player to move (see :data:`FEATURES`).

        Besides what the player to move sees, they read the other player's hand: a model's
        training games and the games a search samples are both whole games, and inside a
        search that hand is one Expert sampled or its own (:mod:`.sampling`)."""
        view = view_from_game(game)
        size = game.rules.payoff_size
        evaluator = self.evaluator
        evaluator.begin(view)
        left, opp_left = view.payoff_left, view.opp_payoff_left
        supply = side_supply(view.side)
        known = rank_mask(view.hand) | rank_mask(supply)
        kings = view.hand.count(KING) + (KING in supply)
        # the hand is full at a decision point (R2.1): the chance with the cards it holds
        chance = evaluator.own_chance(view.center, known, kings, 0) if view.payoff_top else 0.0
        danger = evaluator.danger(view.center)
        lead = (opp_left - left) / size
        low_stock = max(0.0, (30 - view.stock_count) / 30)
        me = game.players[game.to_move]
        opp = game.players[1 - game.to_move]
        opp_hand = tuple(RANK_OF[card] for card in opp.hand)
        opp_supply = side_supply(view.opp_side)
        tops = [pile[-1] for pile in view.side if pile]
        opp_tops = [pile[-1] for pile in view.opp_side if pile]
        return [
            left / size,
            opp_left / size,
            lead,
            1.0 / max(1, left),
            1.0 / max(1, opp_left),
            chance,
            chance if left == 1 else 0.0,
            danger,
            danger if opp_left == 1 else 0.0,
            view.stock_count / 100,
            low_stock,
            lead * low_stock,
            sum(map(len, me.side)) / 10,
            sum(map(len, opp.side)) / 10,
            float(sum(not pile for pile in me.side)),
            float(sum(not pile for pile in opp.side)),
            float(kings + sum(pile.count(KING) for pile in view.side)),
            float(sum(pile.count(KING) for pile in view.opp_side)),
            float(len(opp.hand)),
            float(sum(not value for value in view.center)),
            _distance(view.center, view.payoff_top),
            _distance(view.center, view.opp_top),
            _playable(view.center, (*view.hand, *tops)),
            _playable(view.center, (*opp_hand, *opp_tops)),
            _opp_chance_next(view, opp_hand, opp_supply),
            float(opp_hand.count(KING)),
            float(len(supply)),
            float(len(opp_supply)),
        ]


def _opp_chance_next(view: TurnView, opp_hand: Ranks, opp_supply: set[int]) -> float:
    """The other player's chance to play its pay-off card on its next turn on the center
    stacks as they are, with the cards it holds and the ones it will draw (R2.1), counting
    the cards it cannot see (:func:`~.evaluation.route_odds`)."""
    target = view.opp_top
    if not target:
        return 0.0
    # what it cannot see: what the player to move cannot see, less its own hand, plus the
    # hand of the player to move
    unseen = list(view.unseen)
    for rank in opp_hand:
        unseen[rank] -= 1
    for rank in view.hand:
        unseen[rank] += 1
    total = view.unseen_total - len(opp_hand) + len(view.hand)
    odds = odds_table(tuple(unseen), total, draws_next_turn(len(opp_hand)))
    known = rank_mask(opp_hand) | rank_mask(opp_supply)
    kings = opp_hand.count(KING) + (KING in opp_supply)
    best = 0.0
    for value in set(view.center):
        route = reach_route(value, target)
        if isinstance(route, float):
            chance = route
        else:
            chance = route_odds(route, known, kings, odds, odds[KING])
        best = max(best, chance)
    return best


def _dot(weights: tuple[float, ...], x: list[float]) -> float:
    """The dot product of ``weights`` and ``x``."""
    total: float = sum(map(mul, weights, x))
    return total


Layer = tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]
"""A hidden layer of a :class:`LeafModel`: each unit's weights on the layer below, and the
units' biases."""


@dataclass(frozen=True, slots=True)
class LeafModel:
    """A logistic model on standardized features, with optional hidden layers of rectified
    linear units before it (a small multi-layer perceptron)."""

    features: tuple[str, ...]
    """The names of its inputs, some or all of :data:`FEATURES`, in its order."""
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    """The output's weights on the last layer (the inputs, without hidden layers)."""
    intercept: float
    layers: tuple[Layer, ...] = ()

    @classmethod
    def from_json(cls, text: str) -> LeafModel:
        """The model written by ``benchmarks/bots_leaf.py``; its features must be ours and
        its layers must fit together."""
        data = json.loads(text)
        model = cls(
            tuple(data["features"]),
            tuple(map(float, data["mean"])),
            tuple(map(float, data["scale"])),
            tuple(map(float, data["coef"])),
            float(data["intercept"]),
            tuple(
                (
                    tuple(tuple(map(float, row)) for row in layer["weights"]),
                    tuple(map(float, layer["bias"])),
                )
                for layer in data.get("layers", ())
            ),
        )
        if not set(model.features) <= set(FEATURES) or not (
            len(model.mean) == len(model.scale) == len(model.features)
        ):
            raise ValueError("the leaf model's features are not those of LeafFeatures")
        width = len(model.features)
        for weights, bias in model.layers:
            if len(weights) != len(bias) or any(len(row) != width for row in weights):
                raise ValueError("the leaf model's layers do not fit together")
            width = len(bias)
        if len(model.coef) != width:
            raise ValueError("the leaf model's output does not fit its last layer")
        return model

    @classmethod
    def from_file(cls, path: Path) -> LeafModel:
        """The model in the JSON file ``path`` (:meth:`from_json`); a ``ValueError`` that says
        why when the file cannot be read or holds no such model."""
        try:
            text = path.read_text("utf-8")
        except OSError as error:
            raise ValueError(
                f"cannot read the leaf model {str(path)!r} ({error.strerror})"
            ) from None
        try:
            return cls.from_json(text)
        except (ValueError, KeyError, TypeError) as error:
            reason = f"no {error} field" if isinstance(error, KeyError) else str(error)
            raise ValueError(
                f"{str(path)!r} is not a leaf model of benchmarks/bots_leaf.py ({reason})"
            ) from None

    def to_json(self) -> str:
        """The JSON :meth:`from_json` reads."""
        data: dict[str, object] = {
            "features": list(self.features),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "coef": list(self.coef),
            "intercept": self.intercept,
        }
        if self.layers:
            data["layers"] = [
                {"weights": [list(row) for row in weights], "bias": list(bias)}
                for weights, bias in self.layers
            ]
        return json.dumps(data, indent=1)

    @property
    def columns(self) -> tuple[int, ...]:
        """Where each of its inputs is in the values :class:`LeafFeatures` computes."""
        return tuple(FEATURES.index(name) for name in self.features)

    def logit(self, features: list[float]) -> float:
        """The log-odds that the player to move wins (a draw counts as half a win), from
        its inputs in its order (:attr:`features`)."""
        x = [(v - m) / s for v, m, s in zip(features, self.mean, self.scale, strict=True)]
        for weights, bias in self.layers:
            x = [max(0.0, b + _dot(row, x)) for row, b in zip(weights, bias, strict=True)]
        return self.intercept + _dot(self.coef, x)

    def probability(self, features: list[float]) -> float:
        """The chance that the player to move wins, from its inputs in its order."""
        z = self.logit(features)
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)


@cache
def shipped_model() -> LeafModel:
    """The model that ships in the package (``bots/leaf_weights.json``)."""
    text = resources.files(__package__).joinpath("leaf_weights.json").read_text("utf-8")
    return LeafModel.from_json(text)


@cache
def draw_model() -> LeafModel:
    """The chance that a position's game ends in a draw (the stock runs out first, R4.2),
    whoever is to move: a logistic model on :data:`FEATURES` fitted to the same positions
    of Hard's self-play as :func:`shipped_model` (``bots/draw_weights.json``;
    docs/measurements/2026-12-05-expert-rounds.md has the fit)."""
    text = resources.files(__package__).joinpath("draw_weights.json").read_text("utf-8")
    return LeafModel.from_json(text)


class LeafEvaluation:
    """The win probability of a game's position for a given seat: 1 or 0 when the game is
    won or lost, a half when drawn (R4.2), otherwise the model's estimate.

    With ``contempt`` (0 to a half) a draw is worth that much less than a half to the seat
    scored: a drawn game scores ``0.5 - contempt``, and a position the model's estimate
    less ``contempt`` times the chance of a draw from there (:func:`draw_model`), so that
    the side that is ahead prefers the lines that end the game and the side behind still
    prefers a draw to a loss."""

    def __init__(self, model: LeafModel | None = None, contempt: float = 0.0) -> None:
        if not 0.0 <= contempt <= 0.5:
            raise ValueError(f"contempt must be between 0 and a half, not {contempt!r}")
        self.model = shipped_model() if model is None else model
        self.features = LeafFeatures()
        self._columns = self.model.columns
        self.contempt = contempt
        self.draws = draw_model() if contempt else None
        self._draw_columns = self.draws.columns if self.draws is not None else ()

    def win_probability(self, game: Game, seat: int) -> float:
        """The chance that ``seat`` wins ``game`` (a draw counting a half)."""
        outcome = game.outcome
        if outcome is not None:
            if outcome.winner is None:
                return 0.5
            return 1.0 if outcome.winner == seat else 0.0
        values = self.features(game)
        p = self.model.probability([values[i] for i in self._columns])
        return p if game.to_move == seat else 1.0 - p

    def score(self, game: Game, seat: int) -> float:
        """:meth:`win_probability` with the contempt for draws taken off (the same without
        it)."""
        if not self.contempt:
            return self.win_probability(game, seat)
        outcome = game.outcome
        if outcome is not None:
            if outcome.winner is None:
                return 0.5 - self.contempt
            return 1.0 if outcome.winner == seat else 0.0
        assert self.draws is not None
        values = self.features(game)
        p = self.model.probability([values[i] for i in self._columns])
        draw = self.draws.probability([values[i] for i in self._draw_columns])
        return (p if game.to_move == seat else 1.0 - p) - self.contempt * draw
