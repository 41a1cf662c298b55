"""What one seat may see (R6): the only view of a game that bots, hints and clients receive."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any

from .cards import Card, card_str
from .errors import ArgumentError, quote
from .moves import Move
from .rules import Rules
from .state import Outcome, Table


@dataclass(frozen=True, slots=True)
class PlayerView:
    """The public part of one player's cards (R6.1)."""

    payoff_top: Card | None
    payoff_count: int
    hand_count: int
    side: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything ``seat`` may see, and nothing more (R6): its own hand, every face-up card,
    the size of every pile, and every move made. Stock order, face-down pay-off cards and the
    other hand are absent, not hidden in a field."""

    seat: int
    rules: Rules
    to_move: int
    turn: int
    hand: tuple[Card, ...]
    players: tuple[PlayerView, PlayerView]
    center: tuple[tuple[Card, ...], ...]
    stock_count: int
    history: tuple[Move, ...]
    legal_moves: tuple[Move, ...]
    """The seat's legal moves when it is to move; empty otherwise."""
    outcome: Outcome | None

    @property
    def me(self) -> PlayerView:
        return self.players[self.seat]

    @property
    def opponent(self) -> PlayerView:
        return self.players[1 - self.seat]

    @property
    def is_my_turn(self) -> bool:
        return self.outcome is None and self.to_move == self.seat

    def visible_cards(self) -> list[Card]:
        """Every card this seat can see now: its hand and every face-up card."""
        cards = list(self.hand)
        for view in self.players:
            if view.payoff_top is not None:
                cards.append(view.payoff_top)
            for pile in view.side:
                cards.extend(pile)
        for stack in self.center:
            cards.extend(stack)
        return cards

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form, cards in notation."""
        return {
            "seat": self.seat,
            "rules": self.rules.to_json(),
            "to_move": self.to_move,
            "turn": self.turn,
            "hand": [card_str(c) for c in self.hand],
            "players": [
                {
                    "payoff_top": None if v.payoff_top is None else card_str(v.payoff_top),
                    "payoff_count": v.payoff_count,
                    "hand_count": v.hand_count,
                    "side": [[card_str(c) for c in pile] for pile in v.side],
                }
                for v in self.players
            ],
            "center": [[card_str(c) for c in stack] for stack in self.center],
            "stock_count": self.stock_count,
            "history": [str(m) for m in self.history],
            "legal_moves": [str(m) for m in self.legal_moves],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }


def observe(game: Table, seat: int) -> Observation:
    """The observation of ``seat`` (0 or 1) in ``game``; another seat raises
    :class:`~.errors.ArgumentError`."""
    if type(seat) is not int:  # NumPy's integers are accepted; True, 1.0 and "1" are not
        try:
            index = -1 if isinstance(seat, bool) else operator.index(seat)
        except TypeError:
            index = -1
        if index not in (0, 1):
            raise ArgumentError(f"seat must be 0 or 1, not {quote(seat)}")
        seat = index
    elif seat not in (0, 1):
        raise ArgumentError(f"seat must be 0 or 1, not {quote(seat)}")
    views = tuple(
        PlayerView(
            p.payoff[-1] if p.payoff else None,
            len(p.payoff),
            len(p.hand),
            tuple(tuple(pile) for pile in p.side),
        )
        for p in game.players
    )
    legal = tuple(game.legal_moves()) if game.to_move == seat else ()
    return Observation(
        seat=seat,
        rules=game.rules,
        to_move=game.to_move,
        turn=game.turn,
        hand=tuple(sorted(game.players[seat].hand)),
        players=(views[0], views[1]),
        center=tuple(tuple(stack) for stack in game.center),
        stock_count=len(game.stock),
        history=tuple(game.moves),
        legal_moves=legal,
        outcome=game.outcome,
    )
