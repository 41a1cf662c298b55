"""Observation tensors and strings: what one seat may see (R6), as numbers and as text.

The tensor is built from the seat's view only (its own hand, face-up cards, pile sizes), never
from hidden cards, so it is identical in every deal that differs only in what the seat cannot
see. Two builders give the same numbers: :func:`encode_observation` from an engine
:class:`~spite_malice.engine.Observation` (the definition) and :func:`encode_game`, a faster
one reading the same fields of a :class:`~spite_malice.engine.Game` for the seat.

Layout (float32, 313 numbers; "me" is the observing seat, then the opponent), see
:data:`SECTIONS`:

========== ======== ===================================================================
name       shape    meaning
========== ======== ===================================================================
hand       13       how many cards of each rank (A..K) my hand holds
payoff_top 2 x 13   one-hot rank of each pay-off top (all zero when the pile is empty)
payoff     2        cards in each pay-off pile
hand_count 2        cards in each hand
side_top   2x4x13   one-hot rank of the top of each side stack
side_ranks 2x4x13   how many cards of each rank each side stack holds
side_size  2 x 4    cards in each side stack
center     4 x 12   one-hot value (0..11) of each center stack (zero row: no 4th stack)
center_k   4        Kings in each center stack
stock      1        cards in the stock
my_turn    1        1 when the observing seat is to move
========== ======== ===================================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine.cards import KING, RANK_OF, card_str
from ..engine.game import Game
from ..engine.observation import Observation

SECTIONS: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("hand", (13,)),
    ("payoff_top", (2, 13)),
    ("payoff", (2,)),
    ("hand_count", (2,)),
    ("side_top", (2, 4, 13)),
    ("side_ranks", (2, 4, 13)),
    ("side_size", (2, 4)),
    ("center", (4, 12)),
    ("center_k", (4,)),
    ("stock", (1,)),
    ("my_turn", (1,)),
)
"""The named pieces of the tensor, in order, with their shapes."""


def _offsets() -> dict[str, int]:
    out: dict[str, int] = {}
    at = 0
    for name, shape in SECTIONS:
        out[name] = at
        at += int(np.prod(shape))
    out["_size"] = at
    return out


_AT = _offsets()
OBSERVATION_SIZE: int = _AT["_size"]
"""Length of the flat observation tensor (313)."""

_HAND = _AT["hand"] - 1  # + rank (1..13)
_PAYOFF_TOP = (_AT["payoff_top"] - 1, _AT["payoff_top"] + 13 - 1)
_PAYOFF = _AT["payoff"]
_HAND_COUNT = _AT["hand_count"]
_SIDE_TOP = _AT["side_top"] - 1
_SIDE_RANKS = _AT["side_ranks"] - 1
_SIDE_SIZE = _AT["side_size"]
_CENTER = _AT["center"]
_CENTER_K = _AT["center_k"]
_STOCK = _AT["stock"]
_MY_TURN = _AT["my_turn"]


def observation_high(deck_size: int = 104) -> npt.NDArray[np.float32]:
    """An upper bound for every number of the tensor (for a ``Box`` space)."""
    high = np.full(OBSERVATION_SIZE, float(min(deck_size, 255)), dtype=np.float32)
    for name in ("payoff_top", "side_top", "center", "my_turn"):
        start = _AT[name]
        high[start : start + int(np.prod(dict(SECTIONS)[name]))] = 1.0
    high[_HAND_COUNT : _HAND_COUNT + 2] = 5.0
    high[_AT["hand"] : _AT["hand"] + 13] = 5.0
    return high


def _card_table(base: int) -> tuple[int, ...]:
    """For each card face, ``base + rank``: where a card of that rank is counted."""
    return tuple(base + RANK_OF[card] for card in range(52))


_HAND_AT = _card_table(_HAND)
_PAYOFF_TOP_AT = (_card_table(_PAYOFF_TOP[0]), _card_table(_PAYOFF_TOP[1]))
_SIDE_TOP_AT = tuple(_card_table(_SIDE_TOP + block * 13) for block in range(8))
_SIDE_RANKS_AT = tuple(_card_table(_SIDE_RANKS + block * 13) for block in range(8))
_KING_FACES = tuple(card for card in range(52) if RANK_OF[card] == KING)


def _fill(
    values: bytearray,
    seat: int,
    to_move: int,
    hand: Any,
    tops: tuple[int | None, int | None],
    payoff_counts: tuple[int, int],
    hand_counts: tuple[int, int],
    sides: tuple[Any, Any],
    center: Any,
    stock_count: int,
) -> None:
    at = _HAND_AT
    for card in hand:
        values[at[card]] += 1
    k1, k2, k3, k4 = _KING_FACES
    for who, player in enumerate((seat, 1 - seat)):
        top = tops[player]
        if top is not None:
            values[_PAYOFF_TOP_AT[who][top]] = 1
        values[_PAYOFF + who] = payoff_counts[player]
        values[_HAND_COUNT + who] = hand_counts[player]
        block = who * 4
        for pile in sides[player]:
            if pile:
                values[_SIDE_TOP_AT[block][pile[-1]]] = 1
                at = _SIDE_RANKS_AT[block]
                for card in pile:
                    values[at[card]] += 1
                values[_SIDE_SIZE + block] = len(pile)
            block += 1
    at_center = _CENTER
    for number, stack in enumerate(center):
        values[at_center + len(stack)] = 1
        at_center += 12
        if stack:
            count = stack.count
            values[_CENTER_K + number] = count(k1) + count(k2) + count(k3) + count(k4)
    values[_STOCK] = stock_count
    values[_MY_TURN] = to_move == seat


def encode_observation(observation: Observation) -> npt.NDArray[np.float32]:
    """The tensor of an engine observation (the definition of the layout)."""
    values = bytearray(OBSERVATION_SIZE)
    views = observation.players
    _fill(
        values,
        observation.seat,
        -1 if observation.outcome is not None else observation.to_move,
        observation.hand,
        (views[0].payoff_top, views[1].payoff_top),
        (views[0].payoff_count, views[1].payoff_count),
        (views[0].hand_count, views[1].hand_count),
        (views[0].side, views[1].side),
        observation.center,
        observation.stock_count,
    )
    return np.frombuffer(values, dtype=np.uint8).astype(np.float32)


def encode_game(game: Game, seat: int) -> npt.NDArray[np.float32]:
    """The same tensor as ``encode_observation(game.observation(seat))``, built faster.

    It reads only what ``seat`` may see: its own hand, the pay-off tops, side and center
    stacks, and pile sizes.
    """
    values = bytearray(OBSERVATION_SIZE)
    p0, p1 = game.players
    _fill(
        values,
        seat,
        -1 if game.outcome is not None else game.to_move,
        game.players[seat].hand,
        (p0.payoff[-1] if p0.payoff else None, p1.payoff[-1] if p1.payoff else None),
        (len(p0.payoff), len(p1.payoff)),
        (len(p0.hand), len(p1.hand)),
        (p0.side, p1.side),
        game.center,
        len(game.stock),
    )
    return np.frombuffer(values, dtype=np.uint8).astype(np.float32)


def observation_string(observation: Observation) -> str:
    """A short, readable text of what the seat sees (R6), one line per part."""
    me, opponent = observation.me, observation.opponent

    def pile(cards: Any) -> str:
        return " ".join(card_str(card) for card in cards) or "-"

    def top(card: int | None) -> str:
        return "-" if card is None else card_str(card)

    lines = [
        f"seat {observation.seat}, turn {observation.turn}, "
        + (
            "game over"
            if observation.outcome is not None
            else ("my move" if observation.is_my_turn else "opponent to move")
        ),
        f"hand: {pile(sorted(observation.hand, key=lambda card: (RANK_OF[card], card)))}",
        f"my pay-off: {top(me.payoff_top)} ({me.payoff_count} cards)",
        "my side: " + " | ".join(pile(s) for s in me.side),
        f"opponent pay-off: {top(opponent.payoff_top)} ({opponent.payoff_count} cards), "
        f"hand: {opponent.hand_count} cards",
        "opponent side: " + " | ".join(pile(s) for s in opponent.side),
        "center: " + " | ".join(pile(s) for s in observation.center),
        f"stock: {observation.stock_count} cards",
    ]
    return "\n".join(lines)


def side_empty(tensor: npt.NDArray[np.float32]) -> tuple[bool, bool, bool, bool]:
    """Which of the observing seat's four side stacks are empty, read from its tensor."""
    sizes = tensor[_SIDE_SIZE : _SIDE_SIZE + 4].tolist()
    return (sizes[0] == 0, sizes[1] == 0, sizes[2] == 0, sizes[3] == 0)


__all__ = [
    "OBSERVATION_SIZE",
    "SECTIONS",
    "encode_game",
    "encode_observation",
    "observation_high",
    "observation_string",
    "side_empty",
]
