"""A learned leaf evaluation: the chance that the player to move wins from a position.

Expert's look-ahead ends in positions where the game goes on; it scores them with this
model rather than by counting pay-off cards, so that every sampled game adds a probability
(a win is 1, a loss 0, a draw a half, R4.2) and no single sampled win decides a search.

The model is small: a logistic regression on the features of :func:`leaf_features`, fitted
to positions of Hard's self-play labelled with the final result
(:mod:`spite_malice.bench.bots_leaf`, ``benchmarks/bots_leaf.py``). Its weights ship in the
package (``leaf_weights.json``) and it is evaluated in pure Python, cheaply enough for the
thousands of leaves of a search.

The features read the position of a (sampled) game as the player to move sees it: its own
cards, what it can see of the opponent's, and the card counting of Hard's evaluation (the
danger that the opponent plays its pay-off card next turn, the player's own chance to play
its pay-off card now). Inside a search the game is one sampled from the bot's observation
(:mod:`.sampling`), so this reads nothing the bot could not see.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..engine.cards import KING
from ..engine.game import Game
from .evaluation import HARD_WEIGHTS, AwareEvaluator, rank_mask
from .view import side_supply, view_from_game

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
)
"""The names of :func:`leaf_features`, in order (the JSON weights name them too)."""


class LeafFeatures:
    """Computes :func:`leaf_features`; keeps one Hard evaluator for its card counting."""

    def __init__(self) -> None:
        self.evaluator = AwareEvaluator(HARD_WEIGHTS)

    def __call__(self, game: Game) -> list[float]:
        """The features of ``game``'s position for the player to move (see :data:`FEATURES`)."""
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
        ]


@dataclass(frozen=True, slots=True)
class LeafModel:
    """A logistic model on standardized :func:`leaf_features`."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float

    @classmethod
    def from_json(cls, text: str) -> LeafModel:
        """The model written by ``benchmarks/bots_leaf.py``; its features must be ours."""
        data = json.loads(text)
        model = cls(
            tuple(data["features"]),
            tuple(map(float, data["mean"])),
            tuple(map(float, data["scale"])),
            tuple(map(float, data["coef"])),
            float(data["intercept"]),
        )
        if model.features != FEATURES or not (
            len(model.mean) == len(model.scale) == len(model.coef) == len(FEATURES)
        ):
            raise ValueError("the leaf model's features are not those of leaf_features")
        return model

    def to_json(self) -> str:
        """The JSON :meth:`from_json` reads."""
        return json.dumps(
            {
                "features": list(self.features),
                "mean": list(self.mean),
                "scale": list(self.scale),
                "coef": list(self.coef),
                "intercept": self.intercept,
            },
            indent=1,
        )

    def logit(self, features: list[float]) -> float:
        """The log-odds that the player to move wins (a draw counts as half a win)."""
        total = self.intercept
        for x, m, s, c in zip(features, self.mean, self.scale, self.coef, strict=True):
            total += c * (x - m) / s
        return total

    def probability(self, features: list[float]) -> float:
        """The chance that the player to move wins, from its features."""
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


class LeafEvaluation:
    """The win probability of a game's position for a given seat: 1 or 0 when the game is
    won or lost, a half when drawn (R4.2), otherwise the model's estimate."""

    def __init__(self, model: LeafModel | None = None) -> None:
        self.model = shipped_model() if model is None else model
        self.features = LeafFeatures()

    def win_probability(self, game: Game, seat: int) -> float:
        """The chance that ``seat`` wins ``game`` (a draw counting a half)."""
        outcome = game.outcome
        if outcome is not None:
            if outcome.winner is None:
                return 0.5
            return 1.0 if outcome.winner == seat else 0.0
        p = self.model.probability(self.features(game))
        return p if game.to_move == seat else 1.0 - p
