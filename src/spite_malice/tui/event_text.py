"""The game's events as the terminal's move log and message line say them, in the player's
language: one whole sentence per event, with a "you" and a "they" form.

The engine's own ``str(event)`` is English notation for developers; these sentences are for
players. Cards stay in notation (``7H``) inside the sentence: :func:`~.card_text.cards_in_text`
turns them into coloured card faces, the same in every language.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cards import KING, RANK_OF, card_str
from ..engine.events import (
    CardBuilt,
    CardDiscarded,
    CardsDrawn,
    Event,
    GameDealt,
    GameDrawn,
    GameWon,
    PayoffTurned,
    StackCompleted,
    TurnEnded,
)
from ..engine.rules import TURN_LIMIT
from ..engine.state import STOCK_EXHAUSTED, TURN_LIMIT_REACHED
from ..i18n import _, ngettext
from ..i18n.cards import a_value_word


def describe_event(event: Event, names: Sequence[str], you: int | None = None) -> str:
    """``event`` as a sentence: seat ``you`` is "you" (None: every seat by its name, as a
    replay says it), the other seats are ``names[seat]``."""
    seat = getattr(event, "player", None)
    mine = seat is not None and seat == you
    name = names[seat] if seat is not None else ""
    if isinstance(event, GameDealt):
        return _dealt(event, names, you)
    if isinstance(event, CardBuilt):
        return _built(event, name, mine)
    if isinstance(event, CardDiscarded):
        card, side = card_str(event.card), event.side + 1
        if mine:
            return _("You discard {card} on side stack {side}", card=card, side=side)
        return _("{name} discards {card} on side stack {side}", name=name, card=card, side=side)
    if isinstance(event, CardsDrawn):
        return _drawn(event, name, mine)
    if isinstance(event, PayoffTurned):
        card = card_str(event.card)
        if mine:
            return _("You turn up pay-off card {card}", card=card)
        return _("{name} turns up pay-off card {card}", name=name, card=card)
    if isinstance(event, StackCompleted):
        # TRANSLATORS: {cards} is always 12 (Ace to Queen); {n} the cards in the stock now
        return ngettext(
            "Center {center} is complete; its {cards} cards are shuffled into the stock ({n} card)",
            "Center {center} is complete; its {cards} cards are shuffled into the stock "
            "({n} cards)",
            event.stock_size,
            cards=len(event.cards),
            center=event.center + 1,
        )
    if isinstance(event, TurnEnded):
        if mine:
            return _("You end turn {turn}", turn=event.turn)
        return _("{name} ends turn {turn}", name=name, turn=event.turn)
    if isinstance(event, GameWon):
        if mine:
            return ngettext(
                "You win, scoring {n} point", "You win, scoring {n} points", event.points
            )
        return ngettext(
            "{name} wins, scoring {n} point",
            "{name} wins, scoring {n} points",
            event.points,
            name=name,
        )
    if isinstance(event, GameDrawn):
        return _("The game is drawn: {reason}", reason=draw_reason(event.reason))
    return str(event)  # an event kind this module does not know yet: its notation


def draw_reason(reason: str) -> str:
    """The engine's reason for a draw (R4.2, R4.3) in the player's language; a reason this
    module does not know stays as the engine wrote it."""
    if reason == STOCK_EXHAUSTED:
        # TRANSLATORS: why a game is drawn, after "The game is drawn:"
        return _("stock exhausted")
    if reason == TURN_LIMIT_REACHED:
        # TRANSLATORS: why a game is drawn, after "The game is drawn:"
        return _("safeguard: {turns} turns played", turns=TURN_LIMIT)
    return reason


def _dealt(event: GameDealt, names: Sequence[str], you: int | None) -> str:
    if event.reshuffles:
        if event.first == you:
            return ngettext(
                "Cards dealt after {n} tie reshuffle; you start",
                "Cards dealt after {n} tie reshuffles; you start",
                event.reshuffles,
            )
        return ngettext(
            "Cards dealt after {n} tie reshuffle; {name} starts",
            "Cards dealt after {n} tie reshuffles; {name} starts",
            event.reshuffles,
            name=names[event.first],
        )
    if event.first == you:
        return _("Cards dealt; you start")
    return _("Cards dealt; {name} starts", name=names[event.first])


def _built(event: CardBuilt, name: str, mine: bool) -> str:
    card, center = card_str(event.card), event.center + 1
    if RANK_OF[event.card] == KING:
        # TRANSLATORS: a King built on a center stack and the value it stands for there (R3.2):
        # {card} is the King ("KH"), {value} the value in words as the page says it ("a five",
        # "an Ace"); the sentence goes on "from the hand on center 2"
        card = _("{card} as {value}", card=card, value=a_value_word(event.value))
    if event.source == "P":
        if mine:
            return _(
                "You build {card} from the pay-off pile on center {center}",
                card=card,
                center=center,
            )
        return _(
            "{name} builds {card} from the pay-off pile on center {center}",
            name=name,
            card=card,
            center=center,
        )
    if event.source == "H":
        if mine:
            return _("You build {card} from the hand on center {center}", card=card, center=center)
        return _(
            "{name} builds {card} from the hand on center {center}",
            name=name,
            card=card,
            center=center,
        )
    side = event.source[1:]
    if mine:
        return _(
            "You build {card} from side stack {side} on center {center}",
            card=card,
            side=side,
            center=center,
        )
    return _(
        "{name} builds {card} from side stack {side} on center {center}",
        name=name,
        card=card,
        side=side,
        center=center,
    )


def _drawn(event: CardsDrawn, name: str, mine: bool) -> str:
    if event.cards:
        shown = " ".join(card_str(card) for card in event.cards)
        if mine:
            return ngettext(
                "You draw {n} card ({cards})",
                "You draw {n} cards ({cards})",
                event.count,
                cards=shown,
            )
        return ngettext(
            "{name} draws {n} card ({cards})",
            "{name} draws {n} cards ({cards})",
            event.count,
            name=name,
            cards=shown,
        )
    if mine:
        return ngettext("You draw {n} card", "You draw {n} cards", event.count)
    return ngettext("{name} draws {n} card", "{name} draws {n} cards", event.count, name=name)
