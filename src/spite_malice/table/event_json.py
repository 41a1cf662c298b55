"""Events as the game WebSocket writes them (``web-protocol.md`` 4.4), in plain JSON: the
server (web.protocol) and the page's offline engine (offline.session) both send these, so
the same table code draws either."""

from __future__ import annotations

from typing import Any

from ..engine import events as ev
from ..engine.cards import card_str


def event_to_json(event: ev.Event) -> dict[str, Any]:
    """One event (already made public for the seat) as ``web-protocol.md`` 4.4 writes it."""
    data: dict[str, Any]
    if isinstance(event, ev.GameDealt):
        data = {"kind": "dealt", "first": event.first, "reshuffles": event.reshuffles}
    elif isinstance(event, ev.CardBuilt):
        data = {
            "kind": "built",
            "player": event.player,
            "source": event.source,
            "card": card_str(event.card),
            "center": event.center,
            "value": event.value,
        }
    elif isinstance(event, ev.CardDiscarded):
        data = {
            "kind": "discarded",
            "player": event.player,
            "card": card_str(event.card),
            "side": event.side,
        }
    elif isinstance(event, ev.CardsDrawn):
        data = {
            "kind": "cards_drawn",
            "player": event.player,
            "count": event.count,
            "cards": [card_str(card) for card in event.cards],
        }
    elif isinstance(event, ev.PayoffTurned):
        data = {"kind": "payoff_turned", "player": event.player, "card": card_str(event.card)}
    elif isinstance(event, ev.StackCompleted):
        data = {
            "kind": "stack_completed",
            "center": event.center,
            "cards": [card_str(card) for card in event.cards],
            "stock_size": event.stock_size,
        }
    elif isinstance(event, ev.TurnEnded):
        data = {"kind": "turn_ended", "player": event.player, "turn": event.turn}
    elif isinstance(event, ev.GameWon):
        data = {"kind": "game_won", "player": event.player, "points": event.points}
    else:
        data = {"kind": "game_drawn", "reason": event.reason}
    data["text"] = str(event)
    return data


def public_events(events: list[ev.Event], seat: int) -> list[dict[str, Any]]:
    """Events as ``seat`` may see them (R6.1), in JSON."""
    return [event_to_json(ev.public_event(event, seat)) for event in events]
