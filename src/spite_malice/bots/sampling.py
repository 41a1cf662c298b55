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

from ..engine.cards import RANK_OF, Card, full_deck
from ..engine.game import Game, PlayerState
from ..engine.observation import Observation
from .view import Ranks, can_reach_payoff

REFUSAL_TRIES = 12
"""Deals tried for one sample that agrees with the opponent's refusals; after that the last
deal is kept (an opponent that does not always play its pay-off card is possible)."""


def unseen_cards(observation: Observation) -> list[Card]:
    """The cards ``observation.seat`` cannot see, in a fixed order (sorted)."""
    left = Counter(full_deck(observation.rules.decks))
    left.subtract(observation.visible_cards())
    return sorted(left.elements())


def sample_game(observation: Observation, rng: random.Random, refused: Ranks = ()) -> Game:
    """A game in which every card the seat sees is where it sees it and every hidden card is
    a uniform draw from the unseen ones. It records no events and shuffles with ``rng``'s
    next seed, so the same observation and generator state give the same game.

    With ``refused`` (the center values the opponent left at the end of its turn, see
    :attr:`~.view.TurnView.refused`), deals in which the opponent's hand could have built
    one of them up to its pay-off card are dealt again (rejection sampling: the opponent
    would have played that card), up to :data:`REFUSAL_TRIES` times."""
    hidden = unseen_cards(observation)
    rng.shuffle(hidden)
    if refused:
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
            if not can_reach_payoff(refused, target, ranks, side, king_start):
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
