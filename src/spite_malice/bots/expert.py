"""Expert: searches over whole turns, its own and the opponent's reply, within a time budget.

For each of the best few turn plans of the Hard evaluation, Expert samples the hidden cards
(the opponent's hand, the stock order, the face-down pay-off cards) from the cards it has not
seen (:mod:`.sampling`, which reads only the observation), plays the plan in the sampled game,
finishes its own turn and the opponent's reply with a planning policy (:mod:`.rollout`), and
scores where that leaves both players. Every candidate meets the same samples (common random
numbers), so their differences are not noise from the deal. The plan with the best average
wins. It never reads hidden state.

Thinking time: ``budget`` seconds per turn, shared by the decisions of the turn (a turn needs
a new search when a pay-off card is turned up or the hand is refilled). With ``max_samples``
set and a budget large enough to reach it, Expert is fully deterministic for a seed; with a
time limit alone, a busier machine gets through fewer samples.
"""

from __future__ import annotations

import random
import time

from ..engine.game import Game
from ..engine.moves import Move
from ..engine.observation import Observation
from .evaluation import AwareEvaluator
from .planning import WIN_VALUE, Plan, plan_turn, replay_ranks
from .rollout import finish_turn
from .sampling import sample_game
from .turn_bot import TurnPlanningBot
from .view import TurnView, view_from_observation

DEFAULT_BUDGET = 1.0
"""Seconds of thinking per turn (the issue's default)."""

CANDIDATES = 6
"""How many of the Hard evaluation's best plans are searched."""

MARGIN = 250.0
"""Plans worse than the best by more than this (2.5 pay-off cards) are not searched."""

WIN_SCORE = 10_000.0
"""A win or loss inside the look-ahead, against 100 a pay-off card."""

PRIOR_SAMPLES = 8.0
"""How many samples Hard's own judgement counts for when it is blended with the search's."""


class ExpertBot(TurnPlanningBot):
    """Sampling search over whole turns within ``budget`` seconds a turn."""

    name = "Expert"

    def __init__(
        self,
        seed: int | None = None,
        budget: float = DEFAULT_BUDGET,
        *,
        max_samples: int | None = None,
        candidates: int = CANDIDATES,
    ) -> None:
        super().__init__(seed)
        if budget <= 0:
            raise ValueError(f"budget must be positive seconds, not {budget!r}")
        self.budget = budget
        self.max_samples = max_samples
        self.candidates = candidates
        self.extra_rounds = 1
        """Full rounds (own turn and reply) looked at after the opponent's first reply."""
        self.discount = 0.7
        """The weight of pay-off cards played in those later rounds."""
        self.evaluator = AwareEvaluator()
        self.policy = AwareEvaluator()
        self._turn = -1
        self._turn_deadline = 0.0
        self.last_samples = 0
        """How many samples the last search used (for reports and tests)."""

    def new_game(self, seat: int) -> None:
        super().new_game(seat)
        self._turn = -1

    def plan(self, observation: Observation) -> list[Move]:
        now = time.perf_counter()
        if observation.turn != self._turn:
            self._turn = observation.turn
            self._turn_deadline = now + self.budget
        deadline = now + 0.6 * max(0.0, self._turn_deadline - now)
        return list(self.best_plan(observation, deadline, self._turn_deadline).committed)

    def best_plan(
        self, observation: Observation, deadline: float, hard_deadline: float | None = None
    ) -> Plan:
        """The plan Expert picks for the seat to move, sampling until ``deadline`` (a
        :func:`time.perf_counter` value) or ``max_samples``. A sample still running at
        ``hard_deadline`` (default: ``deadline``) is dropped, so a slow machine or a position
        with many ways to play cannot overrun the turn's budget by much."""
        view = view_from_observation(observation)
        plans = plan_turn(view, self.evaluator)
        best = plans[0]
        self.last_samples = 0
        if best.value >= WIN_VALUE:
            return best
        candidates = [p for p in plans[: self.candidates] if p.value >= best.value - MARGIN]
        if len(candidates) < 2:
            return best
        return self._search(
            observation,
            view,
            candidates,
            deadline,
            deadline if hard_deadline is None else hard_deadline,
        )

    def _sample_rng(self, observation: Observation) -> random.Random:
        """A generator that depends only on the seed and the point of the game, so the choice
        does not depend on what was searched before."""
        if self.seed is None:
            return random.Random(self.rng.getrandbits(63))
        return random.Random(f"{self.seed}/{len(observation.history)}")

    def _search(
        self,
        observation: Observation,
        view: TurnView,
        candidates: list[Plan],
        deadline: float,
        hard_deadline: float,
    ) -> Plan:
        """Score each candidate: its Hard value, with the estimated danger of the opponent's
        reply giving way to what the sampled games actually did as evidence accumulates
        (shrinkage: with few samples Expert stays close to Hard's judgement)."""
        rng = self._sample_rng(observation)
        seat = observation.seat
        self.evaluator.begin(view)
        dangers = [
            self.evaluator.danger_penalty(replay_ranks(view, plan.moves)[0]) for plan in candidates
        ]
        totals = [0.0] * len(candidates)
        samples = 0
        limit = self.max_samples
        clock = time.perf_counter
        while limit is None or samples < limit:
            if clock() >= deadline:
                break
            world = sample_game(observation, rng)
            chance_seed = rng.getrandbits(63)
            scores: list[float] = []
            for plan in candidates:
                if clock() >= hard_deadline:
                    break
                game = world.copy(rng=random.Random(chance_seed))
                scores.append(self._rollout(game, plan, seat))
            if len(scores) < len(candidates):
                break  # out of time: an unfinished sample would favour the first candidates
            for i, score in enumerate(scores):
                totals[i] += score
            samples += 1
        self.last_samples = samples
        if not samples:
            return candidates[0]
        weight = samples / (samples + PRIOR_SAMPLES)
        means = [total / samples for total in totals]
        average = sum(means) / len(means)
        scores = [
            plan.value + weight * (dangers[i] + means[i] - average)
            for i, plan in enumerate(candidates)
        ]
        # ties go to the plan the Hard evaluation prefers (candidates are sorted best first)
        best = max(range(len(candidates)), key=lambda i: (scores[i], -i))
        return candidates[best]

    def _rollout(self, game: Game, plan: Plan, seat: int) -> float:
        """Play ``plan``'s committed moves in a sampled game, then the rest of the turn and the
        opponent's reply with the planning policy. The score counts what the plan's value
        could not know: pay-off cards played after the committed moves (new cards turned up
        or drawn), minus the opponent's pay-off cards in its reply; a win or loss dominates."""
        opp = 1 - seat
        for move in plan.committed:
            game.apply(move)
            if game.outcome is not None:
                break
        after_commit = len(game.players[seat].payoff)
        if game.outcome is None and game.to_move == seat:
            finish_turn(game, self.policy)
        mine: float = after_commit - len(game.players[seat].payoff)
        opp_start = len(game.players[opp].payoff)
        if game.outcome is None:
            finish_turn(game, self.policy)
        outcome = game.outcome
        if outcome is not None and outcome.winner is not None:
            return WIN_SCORE if outcome.winner == seat else -WIN_SCORE
        theirs: float = opp_start - len(game.players[opp].payoff)
        for _ in range(self.extra_rounds):
            before = (len(game.players[seat].payoff), len(game.players[opp].payoff))
            finish_turn(game, self.policy)
            if game.outcome is None:
                finish_turn(game, self.policy)
            outcome = game.outcome
            if outcome is not None and outcome.winner is not None:
                return WIN_SCORE if outcome.winner == seat else -WIN_SCORE
            mine += self.discount * (before[0] - len(game.players[seat].payoff))
            theirs += self.discount * (before[1] - len(game.players[opp].payoff))
            if outcome is not None:
                break
        return 100.0 * (mine - theirs)
