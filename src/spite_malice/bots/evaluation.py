"""How the planning bots score the end of a turn.

Values are in hundredths of a pay-off card: emptying the pay-off pile wins (R4.1), so a pay-off
card played is worth 100 and everything else is weighed against it.

:class:`ProgressEvaluator` (Medium) looks at its own progress only: pay-off cards played, the
hand emptied (five new cards, R3.4(c)), side stacks kept in order. :class:`AwareEvaluator`
(Hard) adds the opponent and the odds: the chance that the opponent can reach their pay-off
card on the center stacks it leaves, worked out from the opponent's side-stack tops and the
cards it has not seen (card counting); its own chances next turn; and Kings kept for when
they matter.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from ..engine.cards import KING, QUEEN
from ..engine.moves import Move
from ..engine.rules import HAND_SIZE
from .view import Ranks, TurnView, side_supply


@dataclass(frozen=True, slots=True)
class Weights:
    """The weights of an evaluation, in hundredths of a pay-off card."""

    payoff: float = 100.0
    refill: float = 35.0
    hand_card: float = 3.0
    side_card: float = 4.0
    king_used: float = 4.0
    king_used_for_payoff: float = 4.0
    king_discarded: float = 25.0
    danger: float = 0.0
    own_chance: float = 0.0
    empty_side_kept: float = 0.0


MEDIUM_WEIGHTS = Weights()
HARD_WEIGHTS = Weights(
    king_used=22.0,
    king_used_for_payoff=3.0,
    king_discarded=40.0,
    danger=85.0,
    own_chance=30.0,
    empty_side_kept=2.0,
)
EXPERT_WEIGHTS = replace(HARD_WEIGHTS, danger=120.0)
"""Hard's weights with more weight on the opponent's danger, for Expert. Against Hard, over
2,000 paired games each (``benchmarks/bots_weights.py``), a danger of 110 to 140 won 51.2% to
52.6% of decided games (120 from deal 20000: 962-866, 172 draws), against 50.3% for 60;
the extra blocking also turns some losses into stock-out draws (R4.2). No other single
weight moved the result beyond the noise of two sets of deals."""


def side_order_score(rank: int, top: int) -> float:
    """How well discarding ``rank`` onto a side stack whose top is ``top`` (0: empty) keeps
    the stack playable: a card one below the top, or equal to it, can later be built in
    order; a higher card buries the top (R3.5: side cards only leave from the top)."""
    if top == 0:
        return -5.0 + 0.8 * (rank - 6)
    if top == KING:
        return -6.0
    if rank == top - 1:
        return 6.0
    if rank == top:
        return 4.0
    if rank < top:
        return 1.0 - 0.3 * (top - rank)
    return -5.0 - 0.8 * (rank - top)


@lru_cache(maxsize=8192)
def has_rank_odds(count: int, total: int, cards: int) -> float:
    """The chance that ``cards`` cards drawn from ``total`` unseen ones hold at least one of
    the ``count`` of a given rank (drawing without replacement)."""
    if cards <= 0 or count <= 0 or total <= 0:
        return 0.0
    if count >= total:
        return 1.0
    miss = 1.0
    for k in range(min(cards, total)):
        miss *= max(0.0, (total - count - k) / (total - k))
    return 1.0 - miss


@lru_cache(maxsize=4096)
def odds_table(unseen: Ranks, total: int, cards: int) -> tuple[float, ...]:
    """``has_rank_odds`` for every rank (index 0 unused), for ``cards`` unknown cards."""
    return tuple(has_rank_odds(unseen[r], total, cards) for r in range(14))


def reach_odds(
    value: int,
    target: int,
    known: list[int],
    known_kings: int,
    odds: tuple[float, ...],
    king_odds: float,
) -> float:
    """The chance that a player can build from a center stack of ``value`` up to the card
    ``target`` (its pay-off rank) and then play it, in one turn.

    ``known`` holds ranks the player surely holds (hand, side supply), ``known_kings`` its
    Kings; ``odds[r]`` is the chance that its unknown cards hold a rank ``r``, ``king_odds``
    that they hold a King. The ranks missing are assumed independent: a rough estimate, made
    fast because it is computed for every state the planner visits.
    """
    if target == 0:
        return 0.0
    if target == KING:
        return 1.0
    if value + 1 == target:
        return 1.0
    needed: range | list[int]
    if target > value + 1:
        needed = range(value + 1, target)
    else:  # past a Queen the stack completes (R3.4(b)) and starts again from an Ace
        needed = [*range(value + 1, QUEEN), *range(1, target)]
    if len(needed) > 6:
        return 0.0
    chance = 1.0
    kings = known_kings
    spare_king = king_odds
    for rank in needed:
        if rank in known:
            continue
        if kings:
            kings -= 1
            continue
        p = odds[rank]
        chance *= p + (1.0 - p) * spare_king
        spare_king *= 0.35  # a second King among the unknown cards is much less likely
        if chance < 0.005:
            return 0.0
    return chance


class ProgressEvaluator:
    """Medium's evaluation: its own progress only (pay-off, hand, side-stack order)."""

    def __init__(self, weights: Weights = MEDIUM_WEIGHTS) -> None:
        self.weights = weights
        self.view: TurnView | None = None
        # discard_score for every (rank, top) pair, looked up in the planner's inner loop
        self._discard_table = [
            [self.base_discard_score(rank, top) for top in range(14)] for rank in range(14)
        ]
        self._start_side = 0
        self._start_kings = 0

    def begin(self, view: TurnView) -> None:
        self.view = view
        self._start_side = sum(len(pile) for pile in view.side)
        self._start_kings = view.hand.count(KING) + sum(pile.count(KING) for pile in view.side)

    def state_value(
        self, center: Ranks, hand: Ranks, side: tuple[Ranks, ...], payoff_left: int, refill: bool
    ) -> float:
        view = self.view
        assert view is not None
        w = self.weights
        played = view.payoff_left - payoff_left
        value = w.payoff * played
        value += w.hand_card * (len(view.hand) - len(hand))
        side_left = sum(len(pile) for pile in side)
        value += w.side_card * (self._start_side - side_left)
        kings = self._start_kings - hand.count(KING) - sum(pile.count(KING) for pile in side)
        if kings:
            value -= kings * (w.king_used_for_payoff if played else w.king_used)
        if refill:
            value += w.refill
        return value + self.extra(center, hand, side, payoff_left, refill)

    def extra(
        self, center: Ranks, hand: Ranks, side: tuple[Ranks, ...], payoff_left: int, refill: bool
    ) -> float:
        """What a subclass adds to :meth:`state_value`."""
        return 0.0

    def base_discard_score(self, rank: int, top: int) -> float:
        """The value of discarding ``rank`` onto a side stack whose top is ``top`` (0: empty),
        whatever the center stacks are; it prefers getting rid of high cards."""
        if rank == KING:
            return -self.weights.king_discarded
        return side_order_score(rank, top) + 0.3 * rank

    def discard_adjustment(self, rank: int, top: int, center: Ranks) -> float:
        """What the position of the center stacks adds to a discard's value."""
        return 0.0

    def best_discard(
        self, center: Ranks, hand: Ranks, side: tuple[Ranks, ...]
    ) -> tuple[float, Move]:
        table = self._discard_table
        adjust = self.discard_adjustment
        tops: list[int] = []
        stacks: list[int] = []
        for s, pile in enumerate(side):
            top = pile[-1] if pile else 0
            if top not in tops:
                tops.append(top)
                stacks.append(s)
        best_value = -1e18
        best_rank = best_stack = 0
        previous = 0
        for rank in hand:
            if rank == previous:
                continue
            previous = rank
            row = table[rank]
            for top, s in zip(tops, stacks, strict=True):
                score = row[top]
                if rank > top:
                    score += adjust(rank, top, center)
                if score > best_value:
                    best_value = score
                    best_rank, best_stack = rank, s
        return best_value, Move.discard(best_rank, best_stack)


class AwareEvaluator(ProgressEvaluator):
    """Hard's evaluation: Medium's plus the opponent's chances, its own, and card counting."""

    def __init__(self, weights: Weights = HARD_WEIGHTS) -> None:
        super().__init__(weights)
        self._danger: list[float] = []
        self._odds: list[tuple[float, ...]] = []
        self._king_odds: list[float] = []

    def begin(self, view: TurnView) -> None:
        super().begin(view)
        unseen, total = view.unseen, view.unseen_total
        # the opponent's whole hand is hidden: after its refill (R2.1) it holds five unseen cards
        opp_odds = odds_table(unseen, total, HAND_SIZE)
        supply = sorted(side_supply(view.opp_side))
        self._danger = [
            reach_odds(value, view.opp_top, supply, 0, opp_odds, opp_odds[KING])
            for value in range(QUEEN)
        ]
        self._odds = [odds_table(unseen, total, n) for n in range(HAND_SIZE + 1)]
        self._king_odds = [row[KING] for row in self._odds]

    def danger(self, center: Ranks) -> float:
        """The estimated chance that the opponent can play its pay-off card next turn on
        center stacks of these values (R3.1), from its side-stack tops and the odds of what
        its hidden hand holds."""
        safe = 1.0
        danger = self._danger
        for v in center:
            safe *= 1.0 - danger[v]
        return 1.0 - safe

    def danger_penalty(self, center: Ranks) -> float:
        """What :meth:`danger` costs in the evaluation."""
        return self.weights.danger * self.danger(center)

    def extra(
        self, center: Ranks, hand: Ranks, side: tuple[Ranks, ...], payoff_left: int, refill: bool
    ) -> float:
        view = self.view
        assert view is not None
        w = self.weights
        value = -self.danger_penalty(center)
        # our own chance next turn, when the pay-off top is still the one we know
        if payoff_left == view.payoff_left and view.payoff_top:
            draws = HAND_SIZE if refill else HAND_SIZE - len(hand) + 1
            draws = min(HAND_SIZE, draws)
            known = list(hand)
            known.extend(side_supply(side))
            kings = known.count(KING)
            odds = self._odds[draws]
            king_odds = self._king_odds[draws]
            best = 0.0
            for v in center:
                chance = reach_odds(v, view.payoff_top, known, kings, odds, king_odds)
                if chance > best:
                    best = chance
            value += w.own_chance * best
        if w.empty_side_kept:
            value += w.empty_side_kept * sum(1 for pile in side if not pile)
        return value

    def base_discard_score(self, rank: int, top: int) -> float:
        score = super().base_discard_score(rank, top)
        if top == 0:
            score -= self.weights.empty_side_kept
        return score

    def discard_adjustment(self, rank: int, top: int, center: Ranks) -> float:
        # do not bury a card our own pay-off needs next, nor one a center stack needs next
        view = self.view
        assert view is not None
        if top and (top == view.payoff_top or top - 1 in center):
            return -6.0
        return 0.0
