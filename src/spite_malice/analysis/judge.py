"""Valuing a decision: the player's choice against the best Expert's machinery finds.

The candidates are Expert's: the turn planner (:func:`~spite_malice.bots.planning.plan_turn`)
with Expert's evaluation gives the best plans, one for each distinct way of playing until new
cards are seen (a plan's committed moves). The player's own moves join them, unless they
reach the same cards on the table as one of them (then they are that candidate).

Each candidate is valued in **pay-off cards expected**: over ``samples`` games whose hidden
cards are dealt from the cards the seat had not seen (:func:`~spite_malice.bots.sampling.
sample_game`, which reads only the observation, R6.3), the candidate's moves are played, then
Hard's planner plays both sides (:func:`~spite_malice.bots.rollout.finish_turn`) for the rest
of the turn and ``horizon`` more turns; the score is the pay-off cards the seat played from
the decision to the end of the horizon minus those its opponent played. Every candidate meets
the same sampled games and the same later shuffles (common random numbers), so the loss of a
choice is a paired difference, with its standard error.

The deals are valued in batches and the valuation stops once the verdict is clear
(``Settings.adaptive``, on by default): after each batch a candidate that cannot beat the
best one so far by more than :data:`DROP_MARGIN` (at ``z`` standard errors) is dropped, and
the decision is settled when no candidate left can beat the player's choice by
:data:`SMALL_LOSS` or more, or when one candidate is left that beats it clearly, measured to
:data:`PRECISION`; else it goes on to ``samples`` deals. The deals are drawn in the same order
either way, so a decision settled early saw the first deals the full valuation sees.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..bots import ExpertBot, PlanningBot
from ..bots.planning import Evaluator, plan_turn, replay_ranks
from ..bots.rollout import finish_turn
from ..bots.sampling import sample_game
from ..bots.view import TurnView, view_from_observation
from ..engine.errors import ArgumentError, quote
from ..engine.game import Game
from ..engine.moves import Move
from .turns import Decision

DEFAULT_SAMPLES = 64
"""Sampled deals of the hidden cards per decision (the default setting)."""

DEFAULT_HORIZON = 4
"""Turns played after the decision's own turn before the pay-off cards are counted."""

DEFAULT_CANDIDATES = 6
"""How many of Expert's best plans are valued against the player's choice."""

DEFAULT_Z = 2.0
"""A choice counts as lost only when a better one beats it by more than this many standard
errors of the paired difference (fewer is noise of the samples)."""

FIRST_SAMPLES = 8
"""Deals valued before the first look at whether a decision is settled (adaptive)."""

BATCH = 8
"""Deals valued between two looks (adaptive)."""

DROP_MARGIN = 0.1
"""A candidate is dropped once it cannot beat the best one so far by this many pay-off cards
(at ``z`` standard errors)."""

SMALL_LOSS = 0.5
"""A decision is settled once no candidate left can beat the player's choice by this much."""

PRECISION = 0.3
"""A clear loss settles the decision once its standard error is at most this."""


class AnalysisCancelled(Exception):
    """The caller asked the analysis to stop (its ``should_stop`` returned true)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """How hard the analysis looks: one value, recorded in the report."""

    samples: int = DEFAULT_SAMPLES
    horizon: int = DEFAULT_HORIZON
    candidates: int = DEFAULT_CANDIDATES
    z: float = DEFAULT_Z
    seed: int = 0
    """Seeds the sampled deals: the same record, seat and settings give the same report."""
    adaptive: bool = True
    """Stop valuing a decision once its verdict is clear (``samples`` is then the most
    deals a decision gets); false: every candidate on every one of the ``samples`` deals."""

    def __post_init__(self) -> None:
        for name, low in (("samples", 2), ("horizon", 0), ("candidates", 1)):
            value = getattr(self, name)
            if type(value) is not int or value < low:
                raise ArgumentError(
                    f"{name} must be a whole number of at least {low}, not {quote(value)}"
                )
        if type(self.z) not in (int, float) or not 0 <= self.z < math.inf:
            raise ArgumentError(f"z must be a number of at least 0, not {quote(self.z)}")
        if type(self.seed) is not int:
            raise ArgumentError(f"seed must be a whole number, not {quote(self.seed)}")
        if type(self.adaptive) is not bool:
            raise ArgumentError(f"adaptive must be true or false, not {quote(self.adaptive)}")

    def to_json(self) -> dict[str, Any]:
        return {
            "samples": self.samples,
            "horizon": self.horizon,
            "candidates": self.candidates,
            "z": self.z,
            "seed": self.seed,
            "adaptive": self.adaptive,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        return cls(**{key: data[key] for key in cls().to_json() if key in data})


@dataclass(frozen=True, slots=True)
class Choice:
    """One way to play a decision and what it is worth against the player's own."""

    moves: tuple[Move, ...]
    """The moves up to the point where new cards are seen (what the choice commits to)."""
    plan: tuple[Move, ...]
    """The whole turn as planned from what was known (``moves`` then the planned rest)."""
    gain: float
    """Pay-off cards expected over the player's choice (0 for the player's choice itself)."""
    error: float
    """The standard error of ``gain`` over the samples."""
    is_played: bool
    """Whether this is the player's choice (or reaches the same table as it)."""
    samples: int = 0
    """The deals it was valued on (fewer than the decision's when it was dropped early)."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """A decision valued: the player's choice, the best choice found, and what was lost."""

    decision: Decision
    choices: tuple[Choice, ...]
    """The player's choice and Expert's candidates, best first (those valued to the end,
    then those dropped early)."""
    samples: int
    """The deals the decision was valued on (0 when there was only one choice)."""

    @property
    def played(self) -> Choice:
        return next(c for c in self.choices if c.is_played)

    @property
    def best(self) -> Choice:
        """The choice with the largest expected gain (the player's when none beats it)."""
        return self.choices[0]

    def lost(self, z: float = DEFAULT_Z) -> float:
        """Pay-off cards expected the player's choice lost against the best one: 0 unless
        the best beats it by more than ``z`` standard errors."""
        best = self.best
        if best.is_played or best.gain <= z * best.error:
            return 0.0
        return best.gain

    @property
    def edge(self) -> float | None:
        """How much better the player's choice was than the best other one (negative when it
        was worse); None when there was no other choice."""
        others = [c.gain for c in self.choices if not c.is_played]
        return -max(others) if others else None


def _table_key(view: TurnView, moves: tuple[Move, ...]) -> tuple[object, ...]:
    """What a choice leaves on the table: two orders of the same builds are one choice."""
    center, hand, side = replay_ranks(view, moves)
    payoff = sum(1 for move in moves if move.is_from_payoff)
    return (tuple(sorted(center)), hand, side, payoff)


def candidate_plans(
    decision: Decision, evaluator: Evaluator, count: int
) -> list[tuple[tuple[Move, ...], tuple[Move, ...], bool]]:
    """(committed moves, whole plan, is the player's) for the player's choice and Expert's
    ``count`` best plans, the player's first; plans that reach the player's table are it."""
    view = view_from_observation(decision.observation)
    played = decision.moves
    played_key = _table_key(view, played)
    out: list[tuple[tuple[Move, ...], tuple[Move, ...], bool]] = [(played, played, True)]
    keys = {played_key}
    for plan in plan_turn(view, evaluator):
        if len(out) > count:
            break
        key = _table_key(view, plan.committed)
        if key in keys:
            continue
        keys.add(key)
        out.append((plan.committed, plan.moves, False))
    return out


def rollout(game: Game, moves: tuple[Move, ...], seat: int, horizon: int, policy: Evaluator) -> int:
    """Play ``moves`` in a sampled ``game``, then ``policy`` for both sides to the end of the
    turn and ``horizon`` more turns; the seat's pay-off cards played minus its opponent's."""
    before = [len(player.payoff) for player in game.players]
    last_turn = game.turn + horizon
    for move in moves:
        game.apply(move)
        if game.outcome is not None:
            break
    while game.outcome is None and game.turn <= last_turn:
        finish_turn(game, policy)
    mine = before[seat] - len(game.players[seat].payoff)
    theirs = before[1 - seat] - len(game.players[1 - seat].payoff)
    return mine - theirs


def judge_decision(
    decision: Decision,
    settings: Settings | None = None,
    *,
    should_stop: Callable[[], bool] | None = None,
) -> Judgement:
    """Value the player's choice at ``decision`` against Expert's best plans (see the module
    docstring). Deterministic for ``settings.seed``; reads only the decision's observation."""
    settings = Settings() if settings is None else settings
    observation = decision.observation
    seat = observation.seat
    plans = candidate_plans(decision, ExpertBot(settings.seed).evaluator, settings.candidates)
    if len(plans) == 1:
        moves, plan, _ = plans[0]
        return Judgement(decision, (Choice(moves, plan, 0.0, 0.0, True),), 0)
    policy = PlanningBot(settings.seed).evaluator
    # the deals depend only on the seed and the point of the game, not on what came before
    rng = random.Random(f"analysis/{settings.seed}/{decision.index}")
    scores: list[list[int]] = [[] for _ in plans]
    alive = list(range(len(plans)))  # the player's choice, 0, is never dropped
    target = min(FIRST_SAMPLES, settings.samples) if settings.adaptive else settings.samples
    while True:
        while len(scores[0]) < target:
            if should_stop is not None and should_stop():
                raise AnalysisCancelled("the analysis was stopped")
            world = sample_game(observation, rng)
            chance_seed = rng.getrandbits(63)
            for i in alive:
                game = world.copy(rng=random.Random(chance_seed))
                scores[i].append(rollout(game, plans[i][0], seat, settings.horizon, policy))
        if target >= settings.samples or _settled(scores, alive, settings.z):
            break
        target = min(settings.samples, target + BATCH)
    choices = [
        Choice(moves, plan, *_paired(scores[i], scores[0]), is_played, len(scores[i]))
        for i, (moves, plan, is_played) in enumerate(plans)
    ]
    # the candidates valued to the end first: the best of them is the decision's best
    choices.sort(key=lambda c: (c.samples < len(scores[0]), -c.gain, not c.is_played))
    return Judgement(decision, tuple(choices), len(scores[0]))


def _settled(scores: list[list[int]], alive: list[int], z: float) -> bool:
    """After a batch: drop from ``alive`` the candidates that cannot beat the best so far by
    :data:`DROP_MARGIN`; whether the decision's verdict is clear (see the module docstring)."""
    gains = {i: _paired(scores[i], scores[0]) for i in alive}
    leader = max(alive, key=lambda i: (gains[i][0], i == 0))
    for i in list(alive):
        if i in (0, leader):
            continue
        mean, error = _paired(scores[i], scores[leader])
        if mean + z * error < DROP_MARGIN:
            alive.remove(i)
    rivals = [i for i in alive if i != 0]
    if all(gains[i][0] + z * gains[i][1] < SMALL_LOSS for i in rivals):
        return True  # nothing left could have lost the player half a card
    gain, error = gains[leader]
    return rivals == [leader] and gain - z * error > 0 and error <= PRECISION


def _paired(scores: list[int], played: list[int]) -> tuple[float, float]:
    """The mean of the paired differences and its standard error, over the deals both were
    valued on (the first ``len(scores)``)."""
    differences = [a - b for a, b in zip(scores, played[: len(scores)], strict=True)]
    n = len(differences)
    mean = sum(differences) / n
    spread = sum((d - mean) ** 2 for d in differences) / (n - 1)
    return mean, math.sqrt(spread / n)
