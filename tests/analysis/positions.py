"""Hand-made positions for the analysis tests, set up from the notation (R1.2 sizes kept).

Every card not named goes to the stock, in a fixed order that ``stock_order`` rotates; the
pay-off piles named are topped up to ``payoff_size`` with stock cards under the named ones.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from spite_malice.engine import Game, card_str, parse_card


def position(
    *,
    payoffs: tuple[list[str], list[str]],
    hands: tuple[list[str], list[str]],
    sides: tuple[list[list[str]], list[list[str]]] = ([[], [], [], []], [[], [], [], []]),
    center: list[list[str]] | None = None,
    to_move: int = 0,
    stock_order: int = 0,
) -> dict[str, Any]:
    """A full position; the stock takes every card not named (two ``stock_order`` values give
    positions that differ only in the hidden stock order)."""
    center = center if center is not None else [[], [], []]
    left = Counter({card: 2 for card in range(52)})
    named = [*payoffs[0], *payoffs[1], *hands[0], *hands[1]]
    for side in sides:
        for pile in side:
            named.extend(pile)
    for stack in center:
        named.extend(stack)
    for text in named:
        left[parse_card(text)] -= 1
    assert all(count >= 0 for count in left.values()), "a card is named too often"
    stock = [card_str(card) for card in sorted(left.elements())]
    k = stock_order % len(stock) if stock else 0
    stock = stock[k:] + stock[:k]
    return {
        "to_move": to_move,
        "stock": stock,
        "center": center,
        "players": [{"payoff": payoffs[i], "hand": hands[i], "side": sides[i]} for i in (0, 1)],
    }


def game(spec: dict[str, Any], seed: int = 5) -> Game:
    return Game.from_position(spec, seed=seed)


UNDER = ["4D", "QH", "3C", "JD", "8S", "2H", "TC", "5H"]
"""Face-down cards for the bottom of the pay-off piles (hidden from both players)."""


def missed_payoff() -> dict[str, Any]:
    """Seat 0 can build its pay-off 3 on center 1 (at 2) and need not."""
    return position(
        payoffs=([*UNDER[:4], "3S"], [*UNDER[4:], "JC"]),
        hands=(["5S", "8D", "9C", "JH", "QS"], ["4S", "6C", "7D", "9H", "QC"]),
        center=[["AS", "2D"], [], []],
    )


def fed_opponent(*, deep: bool = False) -> dict[str, Any]:
    """Seat 0's only build is a 6 on center 1 (at 5), one below the opponent's pay-off 7.
    ``deep``: pay-off piles of 11 cards, so that the game goes on for a few turns."""
    under = (
        ([*UNDER[:4], "KD", "5H", "TS"], [*UNDER[4:], "9C", "2S", "8C"])
        if deep
        else (UNDER[:4], UNDER[4:])
    )
    return position(
        payoffs=([*under[0], "QD"], [*under[1], "7C"]),
        hands=(["6S", "8D", "8C", "JH", "QS"], ["4S", "2C", "3D", "9H", "KC"]),
        center=[
            ["AS", "2D", "3S", "4H", "5C"],
            ["AH", "2C", "3H", "4C", "5D", "6D", "7H", "8H", "9S"],
            ["AD", "2S", "3D"],
        ],
    )


def buried_card() -> dict[str, Any]:
    """Seat 0 can build an Ace to a 4 on empty center 2 and must then discard its 9. Its side
    stack 2 holds the 8 it needs for its pay-off 9 once a 7 lands on center 1 (at 6): the 9
    on it buries it, while two side stacks are empty. Its next turn draws five new cards."""
    return position(
        payoffs=([*UNDER[:4], "9S"], [*UNDER[4:], "JC"]),
        hands=(["AC", "2H", "3C", "4S", "9D"], ["4D", "6C", "2D", "TH", "QC"]),
        sides=([["QH"], ["8C"], [], []], [[], [], [], []]),
        center=[
            ["AS", "2D", "3S", "4H", "5C", "6H"],
            [],
            ["AD", "2S", "3D", "4C", "5D", "6D", "7H", "8H", "9S", "TD"],
        ],
    )
