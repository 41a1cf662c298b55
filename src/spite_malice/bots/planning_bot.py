"""Medium and Hard: one bot that plans its whole turn, with two settings.

It considers every distinct sequence of builds that ends in a discard or a win
(:mod:`.planning`) and picks the best by its evaluator. :data:`MEDIUM` scores its own
progress only (:class:`~.evaluation.ProgressEvaluator`: pay-off cards played, the hand
emptied, side stacks kept in order). :data:`HARD` adds the opponent
(:class:`~.evaluation.AwareEvaluator`): it avoids leaving a center stack just below the
opponent's pay-off card and blocks it when that pays, reads the opponent's side-stack tops,
counts the cards it has seen to weigh the odds of what the opponent holds, keeps its Kings
for turns where they reach a pay-off card, and reads what the opponent could not build.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.moves import Move
from ..engine.observation import Observation
from .blockade import Blockade, BlockadeSearch
from .evaluation import (
    HARD_WEIGHTS,
    MEDIUM_WEIGHTS,
    AwareEvaluator,
    ProgressEvaluator,
    Weights,
)
from .planning import best_plan
from .turn_bot import TurnPlanningBot
from .view import view_from_observation


@dataclass(frozen=True, slots=True)
class PlanningSetting:
    """A level of :class:`PlanningBot`: its name, its evaluator and that evaluator's weights."""

    name: str
    evaluator: type[ProgressEvaluator]
    weights: Weights
    blockade: Blockade | None = None
    """How it plays a stalled position (:mod:`.blockade`); ``None``: as any other."""


MEDIUM = PlanningSetting("Medium", ProgressEvaluator, MEDIUM_WEIGHTS)
"""Medium: whole-turn planning for its own progress; it ignores the opponent."""
HARD = PlanningSetting("Hard", AwareEvaluator, HARD_WEIGHTS)
"""Hard: Medium's planning, plus the opponent."""


class PlanningBot(TurnPlanningBot):
    """Whole-turn planning scored by the evaluator of ``setting`` (:data:`MEDIUM` or
    :data:`HARD`), with ``weights`` in place of the setting's own when given (and then no
    :attr:`~PlanningSetting.blockade` unless ``blockade`` is given too)."""

    def __init__(
        self,
        seed: int | None = None,
        setting: PlanningSetting = HARD,
        *,
        weights: Weights | None = None,
        blockade: Blockade | None = None,
    ) -> None:
        super().__init__(seed)
        self.setting = setting
        self.name = setting.name
        self.evaluator = setting.evaluator(setting.weights if weights is None else weights)
        self.blockade = setting.blockade if weights is None and blockade is None else blockade
        self.stalled_evaluator = self.evaluator
        self.search: BlockadeSearch | None = None
        if self.blockade is not None:
            stalled_weights = self.blockade.weights or self.evaluator.weights
            self.stalled_evaluator = setting.evaluator(stalled_weights)
            if self.blockade.samples:
                self.search = BlockadeSearch(seed, self.blockade, stalled_weights)

    def new_game(self, seat: int) -> None:
        super().new_game(seat)
        if self.search is not None:
            self.search.new_game(seat)

    def plan(self, observation: Observation) -> list[Move]:
        refused = self.refused if self.evaluator.weights.reads_refusals else ()
        view = view_from_observation(observation, refused)
        if self.blockade is None or not self.blockade.applies(view):
            return list(best_plan(view, self.evaluator).committed)
        if self.search is not None:
            return self.search.plan(observation, refused)
        return list(best_plan(view, self.stalled_evaluator).committed)


def medium_bot(seed: int | None = None) -> PlanningBot:
    """The Medium level."""
    return PlanningBot(seed, MEDIUM)


def hard_bot(seed: int | None = None) -> PlanningBot:
    """The Hard level."""
    return PlanningBot(seed, HARD)


__all__ = ["HARD", "MEDIUM", "PlanningBot", "PlanningSetting", "hard_bot", "medium_bot"]
