"""Medium: plans its whole turn for its own progress.

It considers every distinct sequence of builds that ends in a discard or a win
(:mod:`.planning`) and picks the best by :class:`~.evaluation.ProgressEvaluator`: pay-off
cards played, the hand emptied, side stacks kept in order. It ignores the opponent.
"""

from __future__ import annotations

from ..engine.moves import Move
from ..engine.observation import Observation
from .evaluation import ProgressEvaluator
from .planning import best_plan
from .turn_bot import TurnPlanningBot
from .view import view_from_observation


class MediumBot(TurnPlanningBot):
    """Whole-turn planning for its own progress."""

    name = "Medium"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.evaluator = ProgressEvaluator()

    def plan(self, observation: Observation) -> list[Move]:
        return list(best_plan(view_from_observation(observation), self.evaluator).committed)
