"""Expert: searches over whole turns, its own and the opponent's reply, within a time budget.

Expert ranks its turn plans with Hard's evaluation (:data:`~.evaluation.EXPERT_WEIGHTS`).
For each of the best few plans (those that give up nothing the evaluation would gain), and
for a few other discards to end each of the two best plans with (the planner keeps only the
discard its own score prefers), it samples the hidden cards (the opponent's hand, the stock
order, the face-down pay-off cards) from the cards it has not seen (:mod:`.sampling`, which
reads only the observation), plays the plan in the sampled game, then lets planning policies
(:mod:`.rollout`) finish its turn, play the opponent's reply as Hard would and its own next
turn, and scores the sampled game by the chance of winning from where it ends (a learned
model, :mod:`.leaf`: a win 1, a loss 0, a draw a half). Every candidate meets the same
samples (common random numbers), so their differences are not noise from the deal. Expert
keeps the evaluation's choice unless another plan beats it, sample by sample, by more than the
noise. The rollouts go where the choice is close: a plan that clearly trails the evaluation's
choice is dropped after a few samples, and the plans still in contention get its share. It
never reads hidden state.

Thinking time: a search takes at most ``max_samples`` (24 by default) rollouts per candidate
plan, within ``budget`` seconds per turn (1 s by default), shared by the decisions of the turn
(a turn needs a new search when a pay-off card is turned up or the hand is refilled). When
the budget reaches the samples, as it does on an ordinary machine, Expert is fully
deterministic for a seed; a busy machine gets through fewer, and with fewer than 8 the
evaluation's choice stands.

Why 24: the samples are what make Expert stronger than Hard, and 24 stay well inside the
time budget (docs/bots.md has the figures against Hard).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field, replace

from ..engine.game import Game
from ..engine.moves import Move
from ..engine.observation import Observation
from .evaluation import EXPERT_WEIGHTS, HARD_WEIGHTS, AwareEvaluator, Weights
from .leaf import LeafEvaluation, LeafModel
from .planning import WIN_VALUE, Ending, Plan, plan_turn, replay_ranks
from .rollout import centers, finish_turn
from .sampling import HandCheck, discard_check, sample_game
from .turn_bot import TurnPlanningBot
from .view import TurnView, view_from_observation

DEFAULT_BUDGET = 1.0
"""Seconds of thinking per turn, at most."""

DEFAULT_SAMPLES = 24
"""Samples a search takes, when the budget allows."""

CANDIDATES = 6
"""How many of the Hard evaluation's best plans are searched."""

MARGIN = 60.0
"""Plans worse than the best by more than this (0.6 of a pay-off card) are not searched, so
Expert never gives up a pay-off card Hard would play: refusing them to block stalls games
until the stock runs out (R4.2)."""

WIN_SCORE = 10_000.0
"""A win or loss inside the look-ahead, against 100 a pay-off card."""

SWITCH_Z = 1.0
"""How many standard errors a plan must beat the evaluation's choice by, in the samples, to
replace it."""

STOP_Z = 2.0
"""A plan that trails the evaluation's choice by more than this many standard errors is
dropped from the search; once every other plan is dropped, the search stops."""

MIN_SAMPLES = 8
"""Samples every candidate takes before any is dropped."""

MIN_SWITCH_SAMPLES = 8
"""With fewer samples than this (a slow or busy machine, a short budget), the evaluation's
choice stands: so few samples let noise pick among the candidates."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchSettings:
    """How Expert searches: one value, so that a frozen baseline (``expert-1``) keeps its
    settings while the shipped Expert changes (:mod:`.baselines`)."""

    own_weights: Weights = EXPERT_WEIGHTS
    """Ranks the plans to search and plays our own turns in the sampled games."""
    opponent_weights: Weights = field(default=HARD_WEIGHTS)
    """Plays the opponent's turns in the sampled games."""
    candidates: int = CANDIDATES
    margin: float = MARGIN
    next_turn: bool = True
    """Whether the look-ahead goes on to our own next turn after the opponent's reply."""
    discount: float = 0.7
    """The weight of pay-off cards played in our next turn."""
    refusals: bool = False
    """Deal the opponent only hands that agree with what it refused to build (see
    :func:`~.sampling.sample_game`)."""
    rounds: int = 1
    """How many rounds the look-ahead plays after the rest of our turn: one round is the
    opponent's reply and (with ``next_turn``) our next turn; each later round weighs its
    pay-off cards by ``discount`` once more."""
    static_prior: bool = False
    """Whether a candidate's prior leaves out what its value guesses about the next turns
    (the danger of the opponent's reply, our own chance next turn), which the samples play
    out; otherwise both count, the guess and the sampled result."""
    leaf: bool = False
    """Whether a sampled game scores the win probability of the position the look-ahead
    ends in (:mod:`.leaf`: a win 1, a loss 0, a draw a half), rather than the pay-off cards
    played in it (a win or a loss 10,000)."""
    leaf_prior: float = 0.0
    """With ``leaf``: what a pay-off card of a candidate's value is worth in win
    probability, in its score beside the sampled probabilities (0: the samples alone)."""
    discards: int = 0
    """How many other discards of the evaluation's choice are searched beside it: the same
    builds ending in another discard (the planner keeps only the best discard of each line
    of builds, by its own score of the discard alone)."""
    discard_plans: int = 1
    """Of how many of the best plans (the evaluation's choice first) ``discards`` other
    discards are searched, each within the margin of the evaluation's choice."""
    leaf_model: LeafModel | None = None
    """With ``leaf``: the model that scores the positions (``None``: the one that ships,
    :func:`~.leaf.shipped_model`)."""
    rollout_refusals: bool = False
    """Whether the turns played in the sampled games read the other side's refusals as the
    Hard level does (the center values at the start of each turn; ours at the start of the
    real turn): otherwise the opponent's reply is planned as if it knew nothing of them, and
    differs from what Hard plays on about one turn in twelve (``benchmarks/bots_reply.py``)."""
    discard_reading: bool = False
    """Deal the opponent only hands that agree with its last discard, too: a hand holding a
    card its model (``opponent_weights``) would rather have discarded is dealt again (see
    :func:`~.sampling.discard_check`), as for the refusals."""
    switch_z: float = SWITCH_Z
    """How many standard errors a plan must beat the evaluation's choice by, in the samples,
    to replace it."""
    contempt: float = 0.0
    """With ``leaf``: how much less than a half a draw is worth to Expert (0 to a half; see
    :class:`~.leaf.LeafEvaluation`): a sampled game drawn in the look-ahead scores
    ``0.5 - contempt``, a position it ends in loses ``contempt`` times its chance of a draw
    (:func:`~.leaf.draw_model`)."""


EXPERT_SETTINGS = SearchSettings(
    refusals=True, leaf=True, leaf_prior=0.05, discards=4, discard_plans=2
)
"""The shipped Expert's search: Hard's tuned evaluation for its own turns and as the model of
the opponent's, sampled hands that agree with what the opponent refused to build, sampled
games scored by the learned win probability, a candidate's value counting 0.05 of it per
pay-off card, and four other discards of each of the two best plans searched beside them
(docs/bots.md has the figures)."""


class ExpertBot(TurnPlanningBot):
    """Sampling search over whole turns within ``budget`` seconds a turn."""

    name = "Expert"

    def __init__(
        self,
        seed: int | None = None,
        budget: float = DEFAULT_BUDGET,
        *,
        max_samples: int | None = DEFAULT_SAMPLES,
        candidates: int | None = None,
        settings: SearchSettings = EXPERT_SETTINGS,
    ) -> None:
        super().__init__(seed)
        if budget <= 0:
            raise ValueError(f"budget must be positive seconds, not {budget!r}")
        if max_samples is not None and max_samples < 1:
            raise ValueError(
                f"max_samples must be at least 1 (or None: no limit), not {max_samples!r}"
            )
        self.budget = budget
        self.max_samples = max_samples
        self.settings = settings
        self.candidates = settings.candidates if candidates is None else candidates
        self.margin = settings.margin
        self.next_turn = settings.next_turn
        """Whether the look-ahead goes on to our own next turn after the opponent's reply."""
        self.discount = settings.discount
        """The weight of pay-off cards played in our next turn."""
        self.evaluator = AwareEvaluator(settings.own_weights)
        """Ranks the plans to search, and plays our own turns in the sampled games."""
        self.opponent_model = AwareEvaluator(settings.opponent_weights)
        """Plays the opponent's turns in the sampled games."""
        self.leaf = (
            LeafEvaluation(settings.leaf_model, settings.contempt) if settings.leaf else None
        )
        """Scores the positions the look-ahead ends in, with ``settings.leaf``."""
        self.prior = settings.leaf_prior / 100 if settings.leaf else 1.0
        """What a unit of a candidate's value is worth beside a unit of the sampled score."""
        self._turn = -1
        self._turn_deadline = 0.0
        self._check_turn = -1
        self._check: HandCheck | None = None
        self.last_samples = 0
        """How many samples the last search used (for reports and tests)."""

    def new_game(self, seat: int) -> None:
        super().new_game(seat)
        self._turn = -1
        self._check_turn = -1

    def _hand_check(self, observation: Observation) -> HandCheck | None:
        """With ``settings.discard_reading``, what the opponent's last discard says about its
        hand (:func:`~.sampling.discard_check`), read at the first decision of each turn
        (later in the turn the last move is ours)."""
        if not self.settings.discard_reading:
            return None
        if observation.turn != self._check_turn:
            self._check_turn = observation.turn
            self._check = discard_check(observation, self.settings.opponent_weights)
        return self._check

    def plan(self, observation: Observation) -> list[Move]:
        now = time.perf_counter()
        if observation.turn != self._turn:
            self._turn = observation.turn
            self._turn_deadline = now + self.budget
            self._hand_check(observation)
        deadline = now + 0.6 * max(0.0, self._turn_deadline - now)
        return list(self.best_plan(observation, deadline, self._turn_deadline).committed)

    def best_plan(
        self, observation: Observation, deadline: float, hard_deadline: float | None = None
    ) -> Plan:
        """The plan Expert picks for the seat to move, sampling until ``deadline`` (a
        :func:`time.perf_counter` value) or ``max_samples``. A sample still running at
        ``hard_deadline`` (default: ``deadline``) is dropped, so a slow machine or a position
        with many ways to play cannot overrun the turn's budget by much."""
        self.last_samples = 0
        candidates = self.search_candidates(observation)
        if len(candidates) < 2:
            return candidates[0]
        return self._search(
            observation,
            candidates,
            deadline,
            deadline if hard_deadline is None else hard_deadline,
        )

    def search_candidates(self, observation: Observation) -> list[Plan]:
        """The plans Expert compares in sampled games in this position, the evaluation's
        choice first: the planner's best few within ``margin`` of it, and other discards
        after the same builds. Only the evaluation's choice when the turn wins the game or
        nothing else comes close."""
        refused = self.refused if self.evaluator.weights.reads_refusals else ()
        view = view_from_observation(observation, refused)
        plans = plan_turn(view, self.evaluator)
        best = plans[0]
        if best.value >= WIN_VALUE:
            return [best]
        candidates = [p for p in plans[: self.candidates] if p.value >= best.value - self.margin]
        if self.settings.discards:
            floor = best.value - self.margin
            for plan in candidates[: self.settings.discard_plans]:
                candidates += self._other_discards(view, plan, candidates, floor)
        if len(candidates) < 2:
            return [best]
        if self.settings.static_prior:
            candidates = [replace(p, value=self._static_value(view, p)) for p in candidates]
        return candidates

    def _other_discards(
        self, view: TurnView, plan: Plan, taken: list[Plan], floor: float | None = None
    ) -> list[Plan]:
        """Up to ``settings.discards`` plans that make ``plan``'s builds and end in another
        discard (R3.3), the evaluation's best first, worth at least ``floor`` (default:
        within the search's margin of ``plan``); none when ``plan`` does not end in a
        discard it can commit to now. Uses the evaluator as :func:`~.planning.plan_turn`
        left it, begun on ``view``."""
        if plan.ending is not Ending.DISCARD or plan.commit != len(plan.moves):
            return []
        builds, chosen = plan.moves[:-1], plan.moves[-1]
        center, hand, side = replay_ranks(view, builds)
        options = self.evaluator.discards(center, hand, side)
        own = next((score for score, move in options if move == chosen), options[0][0])
        seen = {p.moves for p in taken}
        found: list[Plan] = []
        for score, move in options:
            moves = (*builds, move)
            value = plan.value - own + score
            if moves in seen or value < (plan.value - self.margin if floor is None else floor):
                continue
            found.append(Plan(moves, len(moves), value, Ending.DISCARD))
            if len(found) == self.settings.discards:
                break
        return found

    def _static_value(self, view: TurnView, plan: Plan) -> float:
        """``plan``'s value without the evaluation's guesses about the next turns (the
        danger of the opponent's reply, our own chance next turn; see
        :meth:`~.evaluation.AwareEvaluator.extra`), which the sampled games play out. Uses
        the evaluator as :func:`~.planning.plan_turn` left it, begun on ``view``."""
        moves = plan.moves
        last = moves[-1]
        if last.is_discard:
            moves = moves[:-1]  # the planner scores a discard from the state before it
        center, hand, side = replay_ranks(view, moves)
        payoff_left = view.payoff_left - sum(move.is_from_payoff for move in moves)
        refill = plan.ending is Ending.REFILL
        guess = self.evaluator.extra(center, hand, side, payoff_left, refill)
        guess -= self.evaluator.weights.empty_side_kept * self.evaluator.side_facts(side).empty
        return plan.value - guess

    def _sample_rng(self, observation: Observation) -> random.Random:
        """A generator that depends only on the seed and the point of the game, so the choice
        does not depend on what was searched before."""
        if self.seed is None:
            return random.Random(self.rng.getrandbits(63))
        return random.Random(f"{self.seed}/{len(observation.history)}")

    def _search(
        self,
        observation: Observation,
        candidates: list[Plan],
        deadline: float,
        hard_deadline: float,
    ) -> Plan:
        """Score the candidates in the same sampled games; keep the evaluation's choice
        unless another plan does better by more than the noise of the samples.

        A candidate's score is its value plus what the sampled games add to it: the cards the
        plan could not know, the opponent's actual reply, our next turn. The value already
        weighs the danger of the reply by its odds; the samples correct that estimate rather
        than replace it, as a few dozen samples are too few to stand alone (with the leaf
        score, the value counts ``leaf_prior`` of win probability per pay-off card).
        Candidates meet the same samples, so each is compared with the first sample by
        sample (see :func:`_edge`).

        The rollouts are shared out by successive rejection: every candidate gets the first
        ``MIN_SAMPLES`` samples; from then on a plan that clearly trails the evaluation's
        choice is dropped, and the rollouts it would have taken go to the plans still in
        contention. With ``max_samples`` set, the search takes at most ``max_samples`` times
        as many rollouts as there are candidates: never more work than sampling every
        candidate ``max_samples`` times, and more samples where the choice is close.
        """
        rng = self._sample_rng(observation)
        seat = observation.seat
        refused = self.refused if self.settings.refusals else ()
        check = self._hand_check(observation)
        results: list[list[float]] = [[] for _ in candidates]
        alive = list(range(1, len(candidates)))
        samples = 0
        limit = self.max_samples
        rollouts_left = None if limit is None else limit * len(candidates)
        clock = time.perf_counter
        while alive:
            if rollouts_left is not None and rollouts_left < 1 + len(alive):
                break
            if clock() >= deadline:
                break
            world = sample_game(observation, rng, refused, check)
            chance_seed = rng.getrandbits(63)
            scores: list[float] = []
            for i in (0, *alive):
                if clock() >= hard_deadline:
                    break
                game = world.copy(rng=random.Random(chance_seed))
                scores.append(self._rollout(game, candidates[i], seat))
            if len(scores) < 1 + len(alive):
                break  # out of time: an unfinished sample would favour the first candidates
            for i, score in zip((0, *alive), scores, strict=True):
                results[i].append(score)
            samples += 1
            if rollouts_left is not None:
                rollouts_left -= len(scores)
            if samples >= MIN_SAMPLES and samples % 4 == 0:
                alive = [i for i in alive if not _trails(candidates, results, i, self.prior)]
        self.last_samples = samples
        if samples < MIN_SWITCH_SAMPLES:
            return candidates[0]
        return candidates[_choose(candidates, results, alive, self.prior, self.settings.switch_z)]

    def _rollout(self, game: Game, plan: Plan, seat: int) -> float:
        """Play ``plan``'s committed moves in a sampled game, then with the planning policies
        the rest of the turn, the opponent's reply and our next turn. With ``settings.leaf``
        the score is our chance of winning from the position reached (:mod:`.leaf`).
        Otherwise it counts what the plan's value could not know: our pay-off cards after the
        committed moves (new cards turned up or drawn, and the next turn, discounted) minus
        the opponent's in its reply; a win or a loss dominates. Ending after our own next
        turn balances the opponent's reply, so that the search is neither timid nor
        reckless."""
        opp = 1 - seat
        refusals = self.settings.rollout_refusals
        for move in plan.committed:
            game.apply(move)
            if game.outcome is not None:
                break
        after_commit = len(game.players[seat].payoff)
        if game.outcome is None and game.to_move == seat:
            finish_turn(game, self.evaluator, refused=self.refused if refusals else ())
        mine: float = after_commit - len(game.players[seat].payoff)
        theirs: float = 0.0
        weight = 1.0
        for _ in range(self.settings.rounds):
            if game.outcome is not None:
                break
            opp_start = len(game.players[opp].payoff)
            finish_turn(game, self.opponent_model, refused=centers(game) if refusals else ())
            theirs += weight * (opp_start - len(game.players[opp].payoff))
            weight *= self.discount
            if game.outcome is not None or not self.next_turn:
                break
            before = len(game.players[seat].payoff)
            finish_turn(game, self.evaluator, refused=centers(game) if refusals else ())
            mine += weight * (before - len(game.players[seat].payoff))
        if self.leaf is not None:
            return self.leaf.score(game, seat)
        outcome = game.outcome
        if outcome is not None and outcome.winner is not None:
            return WIN_SCORE if outcome.winner == seat else -WIN_SCORE
        return 100.0 * (mine - theirs)


def _edge(
    candidates: list[Plan], results: list[list[float]], i: int, prior: float = 1.0
) -> tuple[float, float]:
    """Candidate ``i``'s edge over the first (the evaluation's choice) and its standard error.

    The edge is the difference of their values (times ``prior``, the worth of a unit of
    value in units of the sampled score) plus the mean of candidate ``i``'s sampled
    advantage, over the samples both took (candidate ``i`` took the first ones, until it was
    dropped)."""
    other = results[i]
    samples = len(other)
    differences = [a - b for a, b in zip(other, results[0], strict=False)]
    mean = sum(differences) / samples
    spread = sum((d - mean) ** 2 for d in differences) / (samples - 1)
    edge = prior * (candidates[i].value - candidates[0].value) + mean
    return edge, math.sqrt(spread / samples)


def _trails(candidates: list[Plan], results: list[list[float]], i: int, prior: float = 1.0) -> bool:
    """Whether candidate ``i`` trails the evaluation's choice by more than ``STOP_Z``
    standard errors, so that it is no longer worth sampling. Dropping a plan only ever
    keeps the choice where it was, so it may be decided at any point of the search; a switch
    is decided at the end (stopping on a lucky run of samples would be optional stopping)."""
    edge, error = _edge(candidates, results, i, prior)
    return edge + STOP_Z * error < 0.0


def _choose(
    candidates: list[Plan],
    results: list[list[float]],
    alive: list[int],
    prior: float = 1.0,
    switch_z: float = SWITCH_Z,
) -> int:
    """The candidate the samples choose: among those still in contention, the one with the
    largest edge over the first, when that edge is positive and more than ``switch_z``
    standard errors; otherwise the first."""
    best, best_edge = 0, 0.0
    for i in alive:
        edge, error = _edge(candidates, results, i, prior)
        if edge > best_edge and edge > switch_z * error:
            best, best_edge = i, edge
    return best
