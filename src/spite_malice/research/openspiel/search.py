"""Searching the OpenSpiel game: OpenSpiel's Python ISMCTS bot set up for it
(:func:`make_ismcts_bot`), the first-fit rollout evaluator it searches with
(:class:`FirstFitRolloutEvaluator`) and a fast sampler of chance outcomes
(:func:`sample_outcome`)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from ...bots.reference import reference_move
from .game import SpiteMaliceGame, SpiteMaliceState


def sample_outcome(outcomes: list[tuple[int, float]], z: float) -> int:
    """The chance outcome that ``pyspiel.sample_action(outcomes, z)`` picks, for ``z`` in
    [0, 1): the first whose running sum of probabilities is above ``z``, or the last one
    where rounding leaves the sum at or below ``z`` (``sample_action`` fails there). The same
    choice without converting the list to C++, in about half the time; for sampling
    ``state.chance_outcomes()``."""
    total = 0.0
    outcome = -1
    for outcome, chance in outcomes:
        total += chance
        if total > z:
            return outcome
    if outcome < 0:
        raise ValueError("no outcomes to sample from")
    return outcome


class FirstFitRolloutEvaluator:
    """An ISMCTS/MCTS evaluator: play the game out with the first-fit policy (chance nodes
    sampled) and return the result. The prior puts ``first_fit_prior`` on the first-fit
    action and spreads the rest evenly over the legal actions (0: uniform)."""

    def __init__(
        self, seed: int | None = None, max_steps: int = 2000, first_fit_prior: float = 0.6
    ) -> None:
        if not 0.0 <= first_fit_prior <= 1.0:
            raise ValueError(f"first_fit_prior must be 0 to 1, not {first_fit_prior}")
        self.rng = random.Random(seed)
        self.max_steps = max_steps
        self.first_fit_prior = first_fit_prior

    def evaluate(self, state: SpiteMaliceState) -> npt.NDArray[np.float64]:
        working = state.clone()
        rng = self.rng
        for _ in range(self.max_steps):
            if working.is_terminal():
                break
            if working.is_chance_node():
                outcomes = working.chance_outcomes()
                faces = [face for face, _ in outcomes]
                weights = [p for _, p in outcomes]
                working.apply_action(rng.choices(faces, weights)[0])
            else:
                working.apply_action(reference_move(working.table).index)
        return np.array(working.returns(), dtype=np.float64)

    def prior(self, state: SpiteMaliceState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        best = reference_move(state.table).index
        rest = (1.0 - self.first_fit_prior) / len(legal)
        return [
            (action, rest + (self.first_fit_prior if action == best else 0.0)) for action in legal
        ]


def make_ismcts_bot(
    game: SpiteMaliceGame,
    *,
    simulations: int = 100,
    uct_c: float = 1.0,
    seed: int | None = None,
    evaluator: Any = None,
    puct: bool = True,
) -> Any:
    """OpenSpiel's Python ISMCTS bot for this game, resampling hidden cards from the unseen
    ones (:meth:`SpiteMaliceState.resample_from_infostate`).

    By default it searches with PUCT from a prior leaning to the first-fit move, evaluating
    leaves by first-fit rollouts (:class:`FirstFitRolloutEvaluator`): single rollouts tell
    moves apart only weakly, and plain UCT at a few hundred simulations a move plays close to
    at random (it lost every test game to first-fit); with the prior it plays about even.
    """
    from open_spiel.python.algorithms import ismcts

    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=evaluator or FirstFitRolloutEvaluator(seed),
        uct_c=uct_c,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed),
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        child_selection_policy=(
            ismcts.ChildSelectionPolicy.PUCT if puct else ismcts.ChildSelectionPolicy.UCT
        ),
    )
    bot.set_resampler(
        lambda state, player: state.resample_from_infostate(
            player, pyspiel.UniformProbabilitySampler(0.0, 1.0)
        )
    )
    return bot


__all__ = ["FirstFitRolloutEvaluator", "make_ismcts_bot", "sample_outcome"]
