"""Hard: Medium's whole-turn planning, plus the opponent.

Its :class:`~.evaluation.AwareEvaluator` avoids leaving a center stack just below the
opponent's pay-off card and blocks it when that pays, reads the opponent's side-stack tops
(cards the opponent can surely build), counts the cards it has seen to weigh the odds of
what the opponent holds, and keeps its Kings for turns where they reach a pay-off card.
"""

from __future__ import annotations

from ..engine.moves import Move
from ..engine.observation import Observation
from .evaluation import HARD_WEIGHTS, AwareEvaluator, Weights
from .planning import best_plan
from .turn_bot import TurnPlanningBot
from .view import view_from_observation


class HardBot(TurnPlanningBot):
    """Whole-turn planning that also weighs the opponent's chances."""

    name = "Hard"

    def __init__(self, seed: int | None = None, weights: Weights = HARD_WEIGHTS) -> None:
        super().__init__(seed)
        self.evaluator = AwareEvaluator(weights)

    def plan(self, observation: Observation) -> list[Move]:
        refused = self.refused if self.evaluator.weights.reads_refusals else ()
        view = view_from_observation(observation, refused)
        return list(best_plan(view, self.evaluator).committed)
