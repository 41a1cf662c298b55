"""Positions for tests, set up from the notation: the stock takes every card not placed (the
bots' and the analysis' tests set theirs up with it)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from spite_malice.engine import card_str, parse_card


def position(
    *,
    payoffs: tuple[list[str], list[str]],
    hands: tuple[list[str], list[str]],
    sides: tuple[list[list[str]], list[list[str]]] = ([[], [], [], []], [[], [], [], []]),
    center: list[list[str]] | None = None,
    to_move: int = 0,
    stock_order: int = 0,
) -> dict[str, Any]:
    """A full position: every card not named goes to the stock, rotated by ``stock_order``
    (two values give two positions that differ only in the hidden stock order)."""
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
