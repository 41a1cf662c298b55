"""Frozen baselines: Hard and Expert as they shipped before issue 18, under fixed names.

``make_bot("hard-1")`` and ``make_bot("expert-1")`` (and ``expert-1:SECONDS[:SAMPLES]``) play
bit for bit as the Hard and Expert of commit eb6d63a, so that every later change to the
shipped levels is measured against the same opponents. Their weights and search settings are
written out here in full rather than derived from the shipped ones, which may change; the
code they share with the shipped levels (the planner, the evaluation, the rollouts) may only
change in ways that leave them alone: ``tests/bots/test_baselines.py`` replays games recorded
with the old code and checks every move.
"""

from __future__ import annotations

from .evaluation import Weights
from .expert import DEFAULT_BUDGET, ExpertBot, SearchSettings
from .planning_bot import HARD, PlanningBot

HARD_1_WEIGHTS = Weights(
    payoff=100.0,
    refill=35.0,
    hand_card=3.0,
    side_card=4.0,
    king_used=22.0,
    king_used_for_payoff=3.0,
    king_discarded=40.0,
    danger=85.0,
    own_chance=30.0,
    empty_side_kept=2.0,
)
"""Hard's weights before issue 18 (set by hand)."""

EXPERT_1_WEIGHTS = Weights(
    payoff=100.0,
    refill=35.0,
    hand_card=3.0,
    side_card=4.0,
    king_used=22.0,
    king_used_for_payoff=3.0,
    king_discarded=40.0,
    danger=120.0,
    own_chance=30.0,
    empty_side_kept=2.0,
)
"""Expert's weights before issue 18: Hard's with more weight on the danger."""

EXPERT_1_SETTINGS = SearchSettings(
    own_weights=EXPERT_1_WEIGHTS,
    opponent_weights=HARD_1_WEIGHTS,
    candidates=6,
    margin=60.0,
    next_turn=True,
    discount=0.7,
    switch_z=1.0,
)
"""Expert's search before issue 18."""

EXPERT_1_SAMPLES = 24
"""Expert's samples a search before issue 18."""


class Hard1Bot(PlanningBot):
    """``hard-1``: Hard as it shipped before issue 18."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, HARD, weights=HARD_1_WEIGHTS)
        self.name = "Hard-1"


class Expert1Bot(ExpertBot):
    """``expert-1``: Expert as it shipped before issue 18 (24 samples, 1 s a turn)."""

    name = "Expert-1"

    def __init__(
        self,
        seed: int | None = None,
        budget: float = DEFAULT_BUDGET,
        *,
        max_samples: int | None = EXPERT_1_SAMPLES,
    ) -> None:
        super().__init__(seed, budget, max_samples=max_samples, settings=EXPERT_1_SETTINGS)
