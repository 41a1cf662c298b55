"""Hand-made deals: a lesson names the cards that matter; the rest of the two decks fills
the opponent's pay-off pile and the stock, so that every position holds all 104 cards
(R0.1) and is read (and checked) by the engine like any other position.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..engine.cards import card_str, full_deck, parse_card
from ..engine.rules import Rules
from .errors import TutorialError

Cards = Sequence[str]


def lesson_position(
    *,
    rules: Rules,
    payoff: Cards,
    hand: Cards,
    opponent_top: str,
    opponent_hand: Cards,
    opponent_payoff: int,
    center: Sequence[Cards] = (),
    side: Sequence[Cards] = (),
    opponent_side: Sequence[Cards] = (),
    draws: Cards = (),
    score: tuple[int, int] = (0, 0),
    seed: int = 0,
    stock_empty: bool = False,
) -> dict[str, Any]:
    """The JSON position of ``notation.md`` with the player (seat 0) to move.

    Lists run bottom to top, as in the notation. ``opponent_payoff`` is the size of the
    opponent's pay-off pile, ``opponent_top`` its face-up top card; ``draws`` are the next
    cards drawn from the stock, first drawn first. The other cards are shuffled (from
    ``seed``) under the opponent's top card and at the bottom of the stock; with
    ``stock_empty`` the stock has none (a late game: the next draw ends it, R4.2) and the
    cards the stock would hold lie under the side stacks' named cards, both players' in turn.
    """
    named: list[str] = [*payoff, *hand, opponent_top, *opponent_hand, *draws]
    for pile in (*center, *side, *opponent_side):
        named.extend(pile)
    left = Counter(full_deck(rules.decks))
    left.subtract(parse_card(text) for text in named)
    if any(count < 0 for count in left.values()):
        raise TutorialError("a lesson names a card more often than the decks hold it")
    rest = sorted(left.elements())
    random.Random(seed).shuffle(rest)
    under = [card_str(card) for card in rest[: opponent_payoff - 1]]
    stock = [card_str(card) for card in rest[opponent_payoff - 1 :]]

    def padded(piles: Sequence[Cards], count: int) -> list[list[str]]:
        return [list(pile) for pile in piles] + [[] for _ in range(count - len(piles))]

    mine, theirs = padded(side, 4), padded(opponent_side, 4)
    if stock_empty:
        if draws:
            raise TutorialError("a lesson with an empty stock has no cards to draw")
        stacks = [*mine, *theirs]
        bottoms: list[list[str]] = [[] for _ in stacks]
        for index, card in enumerate(stock):
            bottoms[index % len(stacks)].append(card)
        stacks = [bottom + stack for bottom, stack in zip(bottoms, stacks, strict=True)]
        mine, theirs, stock = stacks[:4], stacks[4:], []

    position: dict[str, Any] = {
        "rules": rules.to_json(),
        "to_move": 0,
        "stock": stock + list(reversed(draws)),  # the last card of the stock is drawn next
        "center": padded(center, rules.center_stacks),
        "players": [
            {"payoff": list(payoff), "hand": list(hand), "side": mine},
            {"payoff": [*under, opponent_top], "hand": list(opponent_hand), "side": theirs},
        ],
    }
    if score != (0, 0):
        position["score"] = list(score)
    return position
