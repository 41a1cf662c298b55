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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import repeat
from typing import NamedTuple

from ..engine.cards import KING
from ..engine.moves import Move
from ..engine.rules import HAND_SIZE
from ..engine.stacks import COMPLETE, needs, ranks_to_reach
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
    danger_per_card: float = 0.0
    """Press when ahead, block when behind: the danger weight grows by this for each pay-off
    card we have more left than the opponent (up to 8), and shrinks as much when we have
    fewer."""
    danger_near_win: float = 0.0
    """The danger weight grows by this for each pay-off card the opponent has below 6: its
    last cards are the ones that win."""
    danger_low_stock: float = 0.0
    """When we are not behind and the stock runs low (under 30 cards), the danger weight
    shrinks by up to this much: blocking then only stalls the game into a draw (R4.2)."""
    danger_low_stock_behind: float = 0.0
    """The same as :attr:`danger_low_stock` when we are behind: a stalled game (R4.2) scores
    nothing for either player, so a blockade that runs the stock out is no refuge."""
    danger_stalled: float = 0.0
    """Breaking a blockade: for each turn past :attr:`stall_grace` in which neither player
    played a pay-off card (:attr:`~.view.TurnView.quiet_turns`), the danger weight shrinks by
    this much, so that the player presses on rather than waits while the stock runs out."""
    stall_grace: float = 4.0
    """How many quiet turns :attr:`danger_stalled` lets pass first."""
    stock_return: float = 0.0
    """Keeping the game alive: what each card sent back to the stock by completing a center
    stack (R3.4(b)) is worth when the stock runs low, up to this much a card as the stock
    nears empty (from :attr:`stock_return_from` cards down). Only completed stacks refill
    the stock; when it runs out the game is a draw (R4.2), which scores nothing."""
    stock_return_from: float = 30.0
    """The stock size below which :attr:`stock_return` starts to count."""
    stock_return_behind: float = 0.0
    """:attr:`stock_return` when we are behind (more pay-off cards left than the opponent):
    keeping the game alive then mostly turns a draw into a loss."""
    side_order: float = 1.0
    """The weight of :func:`side_order_score` in a discard's value."""
    discard_rank: float = 0.3
    """A discard's value grows by this for each rank of the card: high cards are the hardest
    to build, so they are the ones to get rid of."""
    refused_cards: float = HAND_SIZE
    """Opponent modelling: for a center value the opponent left at the end of its turn
    (:attr:`~.view.TurnView.refused`), its hand could not reach its pay-off card from there,
    so the danger counts only the cards it draws next turn plus this many of its hand as
    unknown (rounded). ``HAND_SIZE`` (5, the default) reads nothing into refusals."""

    @property
    def reads_refusals(self) -> bool:
        """Whether the evaluation uses the opponent's refusals."""
        return round(self.refused_cards) < HAND_SIZE


MEDIUM_WEIGHTS = Weights()
HARD_WEIGHTS = Weights(
    refill=41.9,
    hand_card=2.11,
    side_card=0.76,
    king_used=18.9,
    king_used_for_payoff=6.58,
    king_discarded=55.0,
    danger=74.9,
    own_chance=66.3,
    empty_side_kept=0.39,
    danger_per_card=-2.27,
    danger_near_win=-0.77,
    danger_low_stock=100.0,
    side_order=1.12,
    discard_rank=0.23,
    refused_cards=1.0,
)
"""Hard's weights, tuned by self-play against ``hard-1`` with CMA-ES
(``benchmarks/bots_tune.py``, trial 48 of the study in docs/bots.md, rounded to three
figures) and confirmed on held-out deals, except ``danger_low_stock``: the study's -18.5 drew
9.5% of its games against ``hard-1``, 100 (press when the stock runs low and we are not
behind) 5.9% at the same strength. ``hard-1``'s hand-set weights are in :mod:`.baselines`."""
EXPERT_WEIGHTS = HARD_WEIGHTS
"""Expert's own evaluation: Hard's. (Expert before issue 18 used Hard's with the danger at
120 rather than 85; the tuned weights have not been retuned for Expert.)"""


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
    return tuple(map(has_rank_odds, unseen[:14], repeat(total), repeat(cards)))


Route = float | tuple[int, ...]
"""What :func:`reach_route` gives: the ranks to build, or the chance when none is in doubt."""


@cache
def reach_route(value: int, target: int) -> Route:
    """The ranks a player must build to go from a center stack of ``value`` up to the card
    ``target`` (its pay-off rank), in order; or the chance itself (0 or 1) when no rank is in
    doubt. It depends on the two ranks only, so it is worked out once for each pair."""
    if target == 0:
        return 0.0
    if target == KING:
        return 1.0
    if needs(value) == target:
        return 1.0
    needed = ranks_to_reach(value, target)  # past a Queen: round again from an Ace (R3.4(b))
    if len(needed) > 6:
        return 0.0
    return needed


@cache
def routes_to(target: int) -> tuple[Route, ...]:
    """:func:`reach_route` to ``target`` from every center stack value (0..11)."""
    return tuple(reach_route(value, target) for value in range(COMPLETE))


@cache
def route_masks_to(target: int) -> tuple[int, ...]:
    """The ranks of each of :func:`routes_to` as a :func:`rank_mask` (0 when none is in
    doubt): only these of a player's known ranks change its chance."""
    return tuple(0 if isinstance(route, float) else rank_mask(route) for route in routes_to(target))


def route_odds(
    needed: tuple[int, ...],
    known: int,
    known_kings: int,
    odds: tuple[float, ...],
    king_odds: float,
) -> float:
    """The chance that a player can build the ranks ``needed`` (a :func:`reach_route`) in one
    turn; ``known`` has bit ``r`` set for each rank ``r`` it surely holds (see
    :func:`reach_odds`)."""
    chance = 1.0
    kings = known_kings
    spare_king = king_odds
    for rank in needed:
        if known >> rank & 1:
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


def rank_mask(ranks: Iterable[int]) -> int:
    """The ranks as a bit set (bit ``r`` for rank ``r``): a cheap ``in`` for the hot path."""
    mask = 0
    for rank in ranks:
        mask |= 1 << rank
    return mask


def reach_odds(
    value: int,
    target: int,
    known: Iterable[int],
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
    route = reach_route(value, target)
    if isinstance(route, float):
        return route
    return route_odds(route, rank_mask(known), known_kings, odds, king_odds)


class SideFacts(NamedTuple):
    """What the evaluation reads from one set of side stacks. The planner's states share a
    few sets of side stacks (only a build from a side stack changes them), so each set is
    read once a turn (:meth:`ProgressEvaluator.side_facts`)."""

    cards: int
    """Cards on the side stacks."""
    kings: int
    empty: int
    """Empty side stacks."""
    supply: int
    """:func:`~.view.side_supply` as a :func:`rank_mask`."""
    slots: tuple[tuple[int, int], ...]
    """``(top, stack)`` for the first stack with each distinct top (0: empty), in stack
    order: the discards worth comparing (R3.3)."""


@lru_cache(maxsize=1 << 14)
def side_facts(side: tuple[Ranks, ...]) -> SideFacts:
    """The :class:`SideFacts` of ``side`` (remembered: a player's side stacks change only
    by a discard or a side build, so the sampled games of a search share a few sets)."""
    slots: list[tuple[int, int]] = []
    tops: list[int] = []
    cards = kings = empty = 0
    for s, pile in enumerate(side):
        cards += len(pile)
        kings += pile.count(KING)
        top = pile[-1] if pile else 0
        if not pile:
            empty += 1
        if top not in tops:
            tops.append(top)
            slots.append((top, s))
    return SideFacts(cards, kings, empty, rank_mask(side_supply(side)), tuple(slots))


CenterFacts = tuple[float, Sequence[float]]
"""What an evaluation reads from the center stacks (see :meth:`AwareEvaluator.center_facts`):
the danger penalty, and by side-stack top (0..13) what burying that top under a higher card
adds to a discard's value."""

NO_CENTER_FACTS: CenterFacts = (0.0, (0.0,) * 14)
"""The center facts of an evaluation that does not look at the center stacks."""


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
        self._start_hand = 0
        self._start_payoff = 0
        self._payoff_top = 0
        self._sides: dict[tuple[Ranks, ...], SideFacts] = {}
        self._last_side: tuple[Ranks, ...] | None = None
        self._last_facts = side_facts(())
        # the last center stacks of center_facts and their facts (none here: see AwareEvaluator)
        self._last_center: Ranks | None = None
        self._last_center_facts = NO_CENTER_FACTS

    def begin(self, view: TurnView) -> None:
        self.view = view
        self._start_side = sum(len(pile) for pile in view.side)
        self._start_kings = view.hand.count(KING) + sum(pile.count(KING) for pile in view.side)
        self._start_hand = len(view.hand)
        self._start_payoff = view.payoff_left
        self._payoff_top = view.payoff_top
        self._sides = {}
        self._last_side = None

    def side_facts(self, side: tuple[Ranks, ...]) -> SideFacts:
        """:func:`side_facts`, remembered for the turn being planned. The planner passes the
        same side stacks down until a side build, so the last ones are checked first."""
        if side is self._last_side:
            return self._last_facts
        facts = self._sides.get(side)
        if facts is None:
            facts = self._sides[side] = side_facts(side)
        self._last_side = side
        self._last_facts = facts
        return facts

    def state_value(
        self, center: Ranks, hand: Ranks, side: tuple[Ranks, ...], payoff_left: int, refill: bool
    ) -> float:
        w = self.weights
        facts = self.side_facts(side)
        played = self._start_payoff - payoff_left
        value = w.payoff * played
        value += w.hand_card * (self._start_hand - len(hand))
        value += w.side_card * (self._start_side - facts.cards)
        kings = self._start_kings - hand.count(KING) - facts.kings
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
        w = self.weights
        if rank == KING:
            return -w.king_discarded
        return w.side_order * side_order_score(rank, top) + w.discard_rank * rank

    def center_facts(self, center: Ranks) -> CenterFacts:
        """What the evaluation reads from the center stacks: none here."""
        return NO_CENTER_FACTS

    def best_discard(
        self, center: Ranks, hand: Ranks, side: tuple[Ranks, ...]
    ) -> tuple[float, Move]:
        table = self._discard_table
        # the planner asks for the state's value first, with the same stacks: the last ones
        if center is self._last_center:
            adjustments = self._last_center_facts[1]
        else:
            adjustments = self.center_facts(center)[1]
        slots = (self._last_facts if side is self._last_side else self.side_facts(side)).slots
        best_value = -1e18
        best_rank = best_stack = 0
        previous = 0
        for rank in hand:
            if rank == previous:
                continue
            previous = rank
            row = table[rank]
            for top, s in slots:
                score = row[top]
                if rank > top:
                    score += adjustments[top]
                if score > best_value:
                    best_value = score
                    best_rank, best_stack = rank, s
        return best_value, Move.discard(best_rank, best_stack)

    def discards(
        self, center: Ranks, hand: Ranks, side: tuple[Ranks, ...]
    ) -> list[tuple[float, Move]]:
        """Every distinct discard (R3.3) in this state with what it adds to the state's value,
        best first: :meth:`best_discard`'s choice and its rivals, for a search to compare.
        Side stacks with the same top are one choice, as there."""
        table = self._discard_table
        adjustments = self.center_facts(center)[1]
        slots = self.side_facts(side).slots
        found: list[tuple[float, Move]] = []
        for rank in sorted(set(hand)):
            row = table[rank]
            for top, s in slots:
                score = row[top]
                if rank > top:
                    score += adjustments[top]
                found.append((score, Move.discard(rank, s)))
        found.sort(key=lambda item: -item[0])
        return found


class AwareEvaluator(ProgressEvaluator):
    """Hard's evaluation: Medium's plus the opponent's chances, its own, and card counting."""

    def __init__(self, weights: Weights = HARD_WEIGHTS) -> None:
        super().__init__(weights)
        self._danger: list[float] = []
        self._unseen: tuple[Ranks, int] = ((), 0)
        self._odds: list[tuple[float, ...] | None] = []
        self._routes: tuple[Route, ...] = ()
        self._route_masks: tuple[int, ...] = ()
        self._centers: dict[Ranks, CenterFacts] = {}
        self._reach: dict[tuple[int, int, int, int], float] = {}
        self._danger_weight = weights.danger
        self._start_center = 0
        self._return_weight = 0.0

    def begin(self, view: TurnView) -> None:
        super().begin(view)
        unseen, total = view.unseen, view.unseen_total
        # the opponent's whole hand is hidden: after its refill (R2.1) it holds five unseen cards
        opp_odds = odds_table(unseen, total, HAND_SIZE)
        supply = rank_mask(side_supply(view.opp_side))
        king_odds = opp_odds[KING]
        # reach_odds from each center value, its route looked up once
        routes = routes_to(view.opp_top)
        self._danger = [
            route if isinstance(route, float) else route_odds(route, supply, 0, opp_odds, king_odds)
            for route in routes
        ]
        if view.refused and self.weights.reads_refusals:
            # R2.1: it draws up to five; its hand as it is could not use these values
            draws = HAND_SIZE - view.opp_hand_count + round(self.weights.refused_cards)
            odds = odds_table(unseen, total, max(0, min(HAND_SIZE, draws)))
            for value in set(view.refused):
                route = routes[value]
                if not isinstance(route, float):
                    self._danger[value] = route_odds(route, supply, 0, odds, odds[KING])
        self._unseen = (unseen, total)
        self._odds = [None] * (HAND_SIZE + 1)  # filled when first needed: see own_chance
        self._routes = routes_to(view.payoff_top)
        self._route_masks = route_masks_to(view.payoff_top)
        self._centers = {}
        self._last_center = None
        self._reach = {}
        self._danger_weight = self.danger_weight(view)
        self._start_center = sum(view.center)
        self._return_weight = self.return_weight(view)

    def return_weight(self, view: TurnView) -> float:
        """What a card sent back to the stock is worth in this position (see
        :attr:`Weights.stock_return`)."""
        w = self.weights
        weight = (
            w.stock_return if view.payoff_left <= view.opp_payoff_left else w.stock_return_behind
        )
        if not weight or w.stock_return_from <= 0:
            return 0.0
        return weight * max(0.0, 1.0 - view.stock_count / w.stock_return_from)

    def returned(self, center: Ranks, hand: Ranks, side_cards: int, payoff_left: int) -> int:
        """Cards sent back to the stock this turn by completed center stacks (R3.4(b)): every
        card built that is not on the center stacks any more."""
        built = (
            self._start_payoff
            - payoff_left
            + self._start_hand
            - len(hand)
            + self._start_side
            - side_cards
        )
        return self._start_center + built - sum(center)

    def danger_weight(self, view: TurnView) -> float:
        """The weight of the opponent's danger in this position: :attr:`Weights.danger`, more
        when we are behind or the opponent is close to winning, less when we are ahead and
        the stock runs low (the adjustments are 0 unless their weights are set)."""
        w = self.weights
        weight = w.danger
        if w.danger_per_card:
            lead = max(-8, min(8, view.payoff_left - view.opp_payoff_left))
            weight += w.danger_per_card * lead
        if w.danger_near_win:
            weight += w.danger_near_win * max(0, 6 - view.opp_payoff_left)
        if w.danger_low_stock or w.danger_low_stock_behind:
            low = max(0.0, (30 - view.stock_count) / 30)
            ahead = view.payoff_left <= view.opp_payoff_left
            weight -= (w.danger_low_stock if ahead else w.danger_low_stock_behind) * low
        if w.danger_stalled:
            weight -= w.danger_stalled * max(0.0, view.quiet_turns - w.stall_grace)
        return max(0.0, weight)

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
        return self.center_facts(center)[0]

    def center_facts(self, center: Ranks) -> CenterFacts:
        """:meth:`danger_penalty` and the discard adjustments, remembered for the turn: many
        states share their center stacks, and the planner asks for both with the same ones,
        so the last are checked first."""
        if center is self._last_center:
            return self._last_center_facts
        facts = self._centers.get(center)
        if facts is None:
            adjustments = [0.0] * 14
            # do not bury a card our own pay-off needs next, nor one a center stack needs next
            if self._payoff_top:
                adjustments[self._payoff_top] = -6.0
            for value in center:
                adjustments[needs(value)] = -6.0
            facts = (self._danger_weight * self.danger(center), adjustments)
            self._centers[center] = facts
        self._last_center = center
        self._last_center_facts = facts
        return facts

    def own_chance(self, center: Ranks, known: int, kings: int, draws: int) -> float:
        """The best :func:`reach_odds` from these center stacks to our pay-off top, holding
        the ranks ``known`` (a :func:`rank_mask`) and ``kings`` Kings, with ``draws`` unknown
        cards. Each stack's chance is remembered for the turn, as states share their hand
        and side stacks; only the known ranks on its route are part of the key."""
        routes = self._routes
        masks = self._route_masks
        remembered = self._reach
        best = 0.0
        for v in center:
            route = routes[v]
            if isinstance(route, float):  # no rank in doubt
                chance = route
            else:
                key = (v, known & masks[v], kings, draws)
                found = remembered.get(key)
                if found is None:
                    odds = self._odds[draws]
                    if odds is None:
                        odds = self._odds[draws] = odds_table(*self._unseen, draws)
                    found = remembered[key] = route_odds(route, known, kings, odds, odds[KING])
                chance = found
            if chance > best:
                best = chance
        return best

    def state_value(
        self, center: Ranks, hand: Ranks, side: tuple[Ranks, ...], payoff_left: int, refill: bool
    ) -> float:
        """:meth:`ProgressEvaluator.state_value` with :meth:`extra` added, in one call: the
        same arithmetic in the same order (so the same values to the last bit), without the
        calls between them, as the planner asks for it in every state it visits."""
        w = self.weights
        facts = self.side_facts(side)
        played = self._start_payoff - payoff_left
        value = w.payoff * played
        value += w.hand_card * (self._start_hand - len(hand))
        value += w.side_card * (self._start_side - facts.cards)
        hand_kings = hand.count(KING)
        kings = self._start_kings - hand_kings - facts.kings
        if kings:
            value -= kings * (w.king_used_for_payoff if played else w.king_used)
        if refill:
            value += w.refill
        # extra(), inline
        if center is self._last_center:
            extra = -self._last_center_facts[0]
        else:
            extra = -self.center_facts(center)[0]
        if payoff_left == self._start_payoff and self._payoff_top:
            draws = HAND_SIZE if refill else HAND_SIZE - len(hand) + 1
            draws = min(HAND_SIZE, draws)
            known = rank_mask(hand) | facts.supply
            kings = hand_kings + (facts.supply >> KING & 1)
            extra += w.own_chance * self.own_chance(center, known, kings, draws)
        if w.empty_side_kept:
            extra += w.empty_side_kept * facts.empty
        if self._return_weight:
            extra += self._return_weight * self.returned(center, hand, facts.cards, payoff_left)
        return value + extra

    def extra(
        self, center: Ranks, hand: Ranks, side: tuple[Ranks, ...], payoff_left: int, refill: bool
    ) -> float:
        w = self.weights
        facts = self.side_facts(side)
        value = -self.center_facts(center)[0]
        # our own chance next turn, when the pay-off top is still the one we know
        if payoff_left == self._start_payoff and self._payoff_top:
            draws = HAND_SIZE if refill else HAND_SIZE - len(hand) + 1
            draws = min(HAND_SIZE, draws)
            known = rank_mask(hand) | facts.supply
            kings = hand.count(KING) + (facts.supply >> KING & 1)
            value += w.own_chance * self.own_chance(center, known, kings, draws)
        if w.empty_side_kept:
            value += w.empty_side_kept * facts.empty
        if self._return_weight:
            value += self._return_weight * self.returned(center, hand, facts.cards, payoff_left)
        return value

    def base_discard_score(self, rank: int, top: int) -> float:
        score = super().base_discard_score(rank, top)
        if top == 0:
            score -= self.weights.empty_side_kept
        return score
