"""The places on the table: their pile ids, the keys that pick them, the notation they stand for.

Pile ids name the widgets: ``payoff``, ``hand-0``..``hand-4`` (the hand as shown, by rank),
``side-0``..``side-3``, ``center-0``..``center-3``, and ``opp-`` before the computer's own.
A move's source (``P``, ``H7``, ``S2``) and target (``C1``, ``S3``) are its notation's halves.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cards import RANK_OF, Card, rank_char
from ..engine.moves import Move
from ..i18n import _, ngettext
from .session import HUMAN

PAYOFF_KEY = "p"
HAND_KEYS = "12345"
SIDE_KEYS = "asdf"
CENTER_KEYS = "zxcv"

OPPONENT = "opp-"
"""The prefix of the computer's piles."""


def hand_source(card: Card) -> str:
    """The move source naming ``card`` in the hand: ``H7``."""
    return "H" + rank_char(RANK_OF[card])


def source_pile(source: str, hand: Sequence[Card], *, seat: int = HUMAN) -> str | None:
    """The pile a move source comes from (the first hand card of its rank, as shown)."""
    prefix = "" if seat == HUMAN else OPPONENT
    if source == "P":
        return f"{prefix}payoff"
    if source.startswith("S"):
        return f"{prefix}side-{int(source[1:]) - 1}"
    if seat != HUMAN:
        return f"{OPPONENT}hand"
    for index, card in enumerate(hand):
        if hand_source(card) == source:
            return f"hand-{index}"
    return None


def target_pile(target: str, *, seat: int = HUMAN) -> str:
    """The pile a move target names: a center stack, or a side stack of ``seat``."""
    if target.startswith("C"):
        return f"center-{int(target[1:]) - 1}"
    return f"{'' if seat == HUMAN else OPPONENT}side-{int(target[1:]) - 1}"


def pile_source(
    pile_id: str, payoff: Sequence[Card], side: Sequence[Sequence[Card]], hand: Sequence[Card]
) -> str | None:
    """The move source one of the person's piles stands for now, or None (empty, or a place
    cards never come from)."""
    kind, _sep, number = pile_id.partition("-")
    if kind == "payoff":
        return "P" if payoff else None
    if kind == "side":
        return f"S{int(number) + 1}" if side[int(number)] else None
    if kind == "hand":
        index = int(number)
        return hand_source(hand[index]) if index < len(hand) else None
    return None


def pile_target(pile_id: str) -> str | None:
    """The move target a pile stands for: ``C2`` or ``S1``; None for a place that is none."""
    kind, _sep, number = pile_id.partition("-")
    if kind == "center":
        return f"C{int(number) + 1}"
    if kind == "side":
        return f"S{int(number) + 1}"
    return None


def place_name(pile_id: str) -> str:
    """A pile in words: ``side stack 2``, ``center 1``, ``your pay-off pile``."""
    kind, _sep, number = pile_id.partition("-")
    if kind == "side":
        return _("side stack {number}", number=int(number) + 1)
    if kind == "center":
        return _("center {number}", number=int(number) + 1)
    if kind == "hand":
        return _("card {number} of your hand", number=int(number) + 1)
    return _("your pay-off pile") if kind == "payoff" else pile_id


def keys_for(move: Move, hand: Sequence[Card]) -> tuple[str, str]:
    """The two keys that make the person's ``move``: its source's, then its target's."""
    source, _sep, target = move.notation.partition("-")
    if source == "P":
        first = PAYOFF_KEY
    elif source.startswith("S"):
        first = SIDE_KEYS[int(source[1:]) - 1]
    else:
        pile = source_pile(source, hand) or "hand-0"
        first = HAND_KEYS[int(pile.partition("-")[2])]
    number = int(target[1:]) - 1
    return first, (CENTER_KEYS if target.startswith("C") else SIDE_KEYS)[number]


def side_title(index: int) -> str:
    """A side stack's title on the table: ``Side 1``."""
    # TRANSLATORS: a side stack's short title on the table; keep it short (about 7 letters)
    return _("Side {number}", number=index + 1)


def center_title(index: int) -> str:
    """A center stack's title on the table: ``Center 1``."""
    # TRANSLATORS: a center stack's short title on the table; keep it short (about 8 letters)
    return _("Center {number}", number=index + 1)


def payoff_left(count: int) -> str:
    """Under a pay-off pile: how many cards are left in it."""
    return ngettext("{n} left", "{n} left", count)
