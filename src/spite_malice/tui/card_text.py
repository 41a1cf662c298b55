"""How cards look in the terminal: coloured Unicode suits, or plain ASCII.

Every card is drawn as a short "chip" of fixed width, so piles line up. Hearts and diamonds
are red, spades and clubs black, both on a light card face; card backs are blue.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from ..engine.cards import KING, RANK_OF, RANKS, SUIT_SYMBOLS, SUITS, Card, parse_card, suit_of
from ..i18n import _
from ..i18n.cards import card_name, needs_word

RED_SUITS = frozenset((1, 2))  # hearts, diamonds
CHIP_WIDTH = 5
"""Cells taken by one card chip, its padding included."""

FACE_RED = Style(color="#b3001b", bgcolor="#f4f1e8", bold=True)
FACE_BLACK = Style(color="#111111", bgcolor="#f4f1e8", bold=True)
BACK = Style(color="#9db8e8", bgcolor="#1f3f7a")
DIM = Style(dim=True)

_CARD_TOKEN = re.compile(r"\b([A2-9TJQK])([SHDC])\b")


def rank_label(rank: int, *, ascii_only: bool) -> str:
    """``A 2 … 10 J Q K`` (``T`` for ten in ASCII mode, as in the notation)."""
    if rank == 10 and not ascii_only:
        return "10"
    return RANKS[rank - 1]


def card_label(card: Card, *, ascii_only: bool) -> str:
    """The card's face as text: ``7♥`` or, in ASCII mode, ``7H``."""
    suit = suit_of(card)
    symbol = SUITS[suit] if ascii_only else SUIT_SYMBOLS[suit]
    return rank_label(RANK_OF[card], ascii_only=ascii_only) + symbol


def card_words(card: Card) -> str:
    """The card's name in the player's language ("King of hearts", "Re di cuori"), for the
    tooltip of the place it lies on; the faces on the table stay symbols."""
    return card_name(card)


def card_style(card: Card) -> Style:
    return FACE_RED if suit_of(card) in RED_SUITS else FACE_BLACK


def card_chip(card: Card, *, ascii_only: bool) -> Text:
    """A card as a fixed-width chip: `` 7♥  `` on a card face (``[7H]`` in ASCII mode)."""
    label = card_label(card, ascii_only=ascii_only)
    if ascii_only:
        return Text(f"[{label:>3}]", style=card_style(card))
    return Text(f" {label:>3} ", style=card_style(card))


def back_chip(*, ascii_only: bool) -> Text:
    """The back of a face-down card."""
    return Text("[###]" if ascii_only else " ▒▒▒ ", style=BACK)


def small_back(*, ascii_only: bool) -> Text:
    """A narrow card back, for a fanned hand seen from behind."""
    return Text("##" if ascii_only else "▒▒", style=BACK)


def empty_chip(*, ascii_only: bool) -> Text:
    """An empty place."""
    return Text(" --- " if ascii_only else " ··· ", style=DIM)


def needs_text(takes: int, left: int) -> str:
    """What a center stack takes next, from the observation's ``center_takes`` and
    ``center_left``: ``needs a 6`` (``complete`` never shows)."""
    # TRANSLATORS: under a center stack that reached its Queen (shown only for a moment)
    return needs_word(takes) if left > 0 else _("complete")


def king_value(card: Card, value: int) -> str:
    """For a King on a center stack at ``value``: ``=5``; empty for other cards."""
    return f"={rank_label(value, ascii_only=False)}" if RANK_OF[card] == KING else ""


def cards_in_text(text: str, *, ascii_only: bool) -> Text:
    """Rich text of a line in which card notations (``7H``) become coloured cards."""
    out = Text()
    last = 0
    for found in _CARD_TOKEN.finditer(text):
        out.append(text[last : found.start()])
        card = parse_card(found.group(0))
        out.append(card_label(card, ascii_only=ascii_only), style=card_style(card))
        last = found.end()
    out.append(text[last:])
    return out


def center_stack_lines(
    stack: Sequence[Card], takes: int, left: int, *, ascii_only: bool
) -> list[Text]:
    """A center stack: its top card (with the value a King stands for), what it needs next
    (``takes`` and ``left`` as the observation has them: ``center_takes``, ``center_left``),
    and what each King below the top stands for."""
    value = len(stack)
    if not stack:
        return [empty_chip(ascii_only=ascii_only), Text(needs_text(takes, left), style=DIM)]
    top = Text.assemble(card_chip(stack[-1], ascii_only=ascii_only))
    if RANK_OF[stack[-1]] == KING:
        top.append(f" {king_value(stack[-1], value)}", style="bold")
    lines = [top, Text(needs_text(takes, left))]
    kings = [
        f"{card_label(card, ascii_only=ascii_only)}={rank_label(place, ascii_only=False)}"
        for place, card in enumerate(stack[:-1], start=1)
        if RANK_OF[card] == KING
    ]
    if kings:
        lines.append(Text(" ".join(kings), style=DIM))
    return lines


def ascii_key(display: str, key: str) -> str:
    """A key as the key bar shows it, for ``--ascii``: Textual draws the arrow keys as
    arrows; those become the key's name (``right``)."""
    return display if display.isascii() else key
