"""Hand-made positions for the analysis tests, set up from the notation (R1.2 sizes kept).

Every card not named goes to the stock, in a fixed order that ``stock_order`` rotates; the
pay-off piles named are topped up to ``payoff_size`` with stock cards under the named ones.
"""

from __future__ import annotations

from typing import Any

from positions import position
from spite_malice.engine import Game

__all__ = ["position"]


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
