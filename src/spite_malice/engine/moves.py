"""Moves and their notation: ``SOURCE-TARGET`` such as ``P-C2``, ``H7-C1``, ``S3-C2``, ``HK-S1``.

Every possible move is one interned :class:`Move`, so moves compare by identity, hash fast,
and have a fixed integer :attr:`Move.index` (0..143) that adapters use as an action id.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import ASCII_SPACE, rank_char
from .errors import ArgumentError, NotationError, quote

# Sources: 0 is the pay-off top, 1..13 a hand card of that rank, 14..17 side stacks 1..4.
PAYOFF = 0
HAND_SOURCES = range(1, 14)
SIDE_SOURCE_BASE = 14
# Targets: 0..3 are center stacks 1..4, 4..7 side stacks 1..4.
SIDE_TARGET_BASE = 4
TARGETS = 8
SOURCES = 18
ACTIONS = SOURCES * TARGETS
"""The size of the move space: every (source, target) pair, legal somewhere or not."""


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Move:
    """One move. Get them from :func:`parse_move`, :meth:`Move.build` or ``Move.ALL``."""

    index: int
    """A stable number, 0..143: ``source * 8 + target``."""
    source: int
    target: int
    notation: str

    @property
    def is_build(self) -> bool:
        """A card onto a center stack (R3.1)."""
        return self.target < SIDE_TARGET_BASE

    @property
    def is_discard(self) -> bool:
        """A hand card onto a side stack, ending the turn (R3.3)."""
        return self.target >= SIDE_TARGET_BASE

    @property
    def is_from_payoff(self) -> bool:
        """A card from the pay-off pile's top."""
        return self.source == PAYOFF

    @property
    def is_from_hand(self) -> bool:
        """A card from the hand."""
        return 1 <= self.source <= 13

    @property
    def is_from_side(self) -> bool:
        """A card from a side stack's top."""
        return self.source >= SIDE_SOURCE_BASE

    @property
    def hand_rank(self) -> int:
        """The rank of the hand card moved, 1..13; 0 when the move is not from the hand."""
        return self.source if 1 <= self.source <= 13 else 0

    @property
    def side_source(self) -> int:
        """The side stack (0..3) the card comes from; -1 when it does not come from one."""
        return self.source - SIDE_SOURCE_BASE if self.source >= SIDE_SOURCE_BASE else -1

    @property
    def center(self) -> int:
        """The center stack (0-based) built on; -1 for a discard."""
        return self.target if self.target < SIDE_TARGET_BASE else -1

    @property
    def side_target(self) -> int:
        """The side stack (0-based) discarded to; -1 for a build."""
        return self.target - SIDE_TARGET_BASE if self.target >= SIDE_TARGET_BASE else -1

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Move({self.notation!r})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (move_at, (self.index,))

    @staticmethod
    def build_from_payoff(center: int) -> Move:
        """``P-C<center+1>``."""
        return ALL_MOVES[PAYOFF * TARGETS + center]

    @staticmethod
    def build_from_hand(rank: int, center: int) -> Move:
        """``H<rank>-C<center+1>``."""
        return ALL_MOVES[rank * TARGETS + center]

    @staticmethod
    def build_from_side(side: int, center: int) -> Move:
        """``S<side+1>-C<center+1>``."""
        return ALL_MOVES[(SIDE_SOURCE_BASE + side) * TARGETS + center]

    @staticmethod
    def discard(rank: int, side: int) -> Move:
        """``H<rank>-S<side+1>``."""
        return ALL_MOVES[rank * TARGETS + SIDE_TARGET_BASE + side]


def _source_str(source: int) -> str:
    if source == PAYOFF:
        return "P"
    if source < SIDE_SOURCE_BASE:
        return "H" + rank_char(source)
    return f"S{source - SIDE_SOURCE_BASE + 1}"


def _target_str(target: int) -> str:
    if target < SIDE_TARGET_BASE:
        return f"C{target + 1}"
    return f"S{target - SIDE_TARGET_BASE + 1}"


ALL_MOVES: tuple[Move, ...] = tuple(
    Move(source * TARGETS + target, source, target, f"{_source_str(source)}-{_target_str(target)}")
    for source in range(SOURCES)
    for target in range(TARGETS)
)
"""Every move of the move space, indexed by :attr:`Move.index`."""

_BY_NOTATION: dict[str, Move] = {move.notation: move for move in ALL_MOVES}

_SOURCE_NAMES = frozenset(_source_str(source) for source in range(SOURCES))
_EXPECTED = (
    "expected SOURCE-TARGET: a source of P, H<rank> (HA H2 … HT HJ HQ HK) or S1-S4, "
    "then '-', then a target of C1-C4 or S1-S4"
)


def move_at(index: int) -> Move:
    """The move with this :attr:`Move.index`."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < ACTIONS:
        raise ArgumentError(f"no move has index {quote(index)}; indices run 0 to {ACTIONS - 1}")
    return ALL_MOVES[index]


def parse_move(text: str | Move) -> Move:
    """Parse a move such as ``'H7-C1'`` (lower case is accepted, and ASCII white space around
    it; letters that only look like ours, such as ``ſ``, are not)."""
    if isinstance(text, Move):
        return text
    if not isinstance(text, str):
        raise NotationError("move", text, _EXPECTED)
    move = _BY_NOTATION.get(text)
    if move is not None:
        return move
    if not text.isascii():  # "ſ1-C1".upper() is "S1-C1": refuse before upper-casing
        raise NotationError("move", text, "a move is written in ASCII letters; " + _EXPECTED)
    key = text.strip(ASCII_SPACE).upper()
    move = _BY_NOTATION.get(key)
    if move is not None:
        return move
    source, dash, target = key.partition("-")
    if not dash:
        raise NotationError("move", text, _EXPECTED)
    if source == "H10":
        raise NotationError("move", text, "a hand source names its rank: write HT for a 10")
    if source not in _SOURCE_NAMES:
        raise NotationError("move", text, f"unknown source {quote(source)}; " + _EXPECTED)
    raise NotationError("move", text, f"unknown target {quote(target)}; " + _EXPECTED)
