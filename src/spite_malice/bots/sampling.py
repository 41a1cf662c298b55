"""Determinizations: a full game consistent with what one seat sees, hidden cards sampled.

The sampler reads only the :class:`~spite_malice.engine.Observation` (R6.3): the cards the
seat cannot see are the full deck minus :meth:`Observation.visible_cards` (cards of completed
stacks went back into the stock, R3.4(b), and are unseen again), shuffled with the bot's own
seeded generator and dealt into the places the seat cannot see: the opponent's hand, the
face-down pay-off cards of both players (R6.2) and the stock. A bot then searches the sampled
game with the engine's fast path, never the real one.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from ..engine.cards import KING, RANK_OF, Card, full_deck
from ..engine.game import Game, PlayerState
from ..engine.moves import SIDE_TARGET_BASE
from ..engine.observation import Observation
from .evaluation import AwareEvaluator, Weights
from .view import Ranks, TurnView, can_reach_payoff, view_from_observation

HandCheck = Callable[[Ranks], bool]
"""Whether a sampled hand of the opponent (its ranks) agrees with what it was seen to do."""

REFUSAL_TRIES = 12
"""Deals tried for one sample that agrees with the opponent's refusals; after that the last
deal is kept (an opponent that does not always play its pay-off card is possible)."""


def unseen_cards(observation: Observation) -> list[Card]:
    """The cards ``observation.seat`` cannot see, in a fixed order (sorted)."""
    left = Counter(full_deck(observation.rules.decks))
    left.subtract(observation.visible_cards())
    return sorted(left.elements())


def discard_check(observation: Observation, weights: Weights) -> HandCheck | None:
    """What the opponent's last discard says about the hand it kept, if it plays as an
    evaluation of ``weights`` does (the model of the opponent): the planning bots end their
    turn with the discard their evaluation scores best among every card of the hand and
    every side stack (R3.3), so a hand holding a rank that would have been a better discard,
    there and then, is not the hand such a player kept. The check reads only the observation:
    the discarded card is the top of the side stack the last move put it on, the center
    stacks and the pay-off top are as the discard left them. ``None`` when the last move is
    not the opponent's discard (the first turn, or later in our own turn: a discard ends a
    turn), or when the discard is not one the model would have made with any hand."""
    history = observation.history
    if not history or not history[-1].is_discard:
        return None
    opp = observation.opponent
    pile = history[-1].target - SIDE_TARGET_BASE
    piles = tuple(tuple(RANK_OF[c] for c in stack) for stack in opp.side)
    if not piles[pile]:
        return None
    discarded = piles[pile][-1]
    side = (*piles[:pile], piles[pile][:-1], *piles[pile + 1 :])
    mine = view_from_observation(observation)
    view = TurnView(
        center=mine.center,
        hand=(),
        side=side,
        payoff_top=mine.opp_top,
        payoff_left=mine.opp_payoff_left,
        opp_top=mine.payoff_top,
        opp_payoff_left=mine.payoff_left,
        opp_side=mine.side,
        unseen=mine.unseen,
        unseen_total=mine.unseen_total,
        stock_count=mine.stock_count,
        king_can_start=mine.king_can_start,
        opp_hand_count=len(mine.hand),
    )
    evaluator = AwareEvaluator(weights)
    evaluator.begin(view)
    adjustments = evaluator.center_facts(view.center)[1]
    tops = {stack[-1] if stack else 0 for stack in side}

    def best(rank: int) -> float:
        # AwareEvaluator.best_discard's score of discarding rank onto its best side stack
        return max(
            evaluator.base_discard_score(rank, top) + (adjustments[top] if rank > top else 0.0)
            for top in tops
        )

    top = side[pile][-1] if side[pile] else 0
    chosen = evaluator.base_discard_score(discarded, top)
    chosen += adjustments[top] if discarded > top else 0.0
    if best(discarded) > chosen + 1e-9:
        return None  # not the model's discard: it tells nothing about the hand
    allowed = frozenset(rank for rank in range(1, KING + 1) if best(rank) <= chosen + 1e-9)
    if len(allowed) == KING:
        return None
    return lambda ranks: allowed.issuperset(ranks)


def sample_game(
    observation: Observation,
    rng: random.Random,
    refused: Ranks = (),
    hand_check: HandCheck | None = None,
) -> Game:
    """A game in which every card the seat sees is where it sees it and every hidden card is
    a uniform draw from the unseen ones. It records no events and shuffles with ``rng``'s
    next seed, so the same observation and generator state give the same game.

    With ``refused`` (the center values the opponent left at the end of its turn, see
    :attr:`~.view.TurnView.refused`), deals in which the opponent's hand could have built
    one of them up to its pay-off card are dealt again (rejection sampling: the opponent
    would have played that card), up to :data:`REFUSAL_TRIES` times; with ``hand_check``
    (:func:`discard_check`), so are deals whose opponent's hand it refuses."""
    hidden = unseen_cards(observation)
    rng.shuffle(hidden)
    if refused or hand_check is not None:
        opp = observation.opponent
        target = RANK_OF[opp.payoff_top] if opp.payoff_top is not None else 0
        side = tuple(tuple(RANK_OF[c] for c in pile) for pile in opp.side)
        # where the deal below puts the opponent's hand: after our face-down pay-off cards
        # when we are seat 0
        at = 0 if observation.seat == 1 else max(0, observation.me.payoff_count - 1)
        count = opp.hand_count
        king_start = observation.rules.king_can_start_stack
        for _ in range(REFUSAL_TRIES - 1):
            ranks = tuple(RANK_OF[c] for c in hidden[at : at + count])
            if (not refused or not can_reach_payoff(refused, target, ranks, side, king_start)) and (
                hand_check is None or hand_check(ranks)
            ):
                break
            rng.shuffle(hidden)
    seat = observation.seat
    players: list[PlayerState] = []
    at = 0
    for index, view in enumerate(observation.players):
        if index == seat:
            hand = list(observation.hand)
        else:
            hand = hidden[at : at + view.hand_count]
            at += view.hand_count
        under = max(0, view.payoff_count - 1)  # R6.2: only the top is face up
        payoff = hidden[at : at + under]
        at += under
        if view.payoff_top is not None:
            payoff.append(view.payoff_top)
        players.append(PlayerState(payoff, hand, [list(pile) for pile in view.side]))
    stock = hidden[at : at + observation.stock_count]
    at += observation.stock_count
    assert at == len(hidden), "an observation always accounts for every card"
    return Game(
        observation.rules,
        stock,
        [list(stack) for stack in observation.center],
        players,
        observation.to_move,
        rng=random.Random(rng.getrandbits(63)),
        turn=observation.turn,
        recording=False,
    )
