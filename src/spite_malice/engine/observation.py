"""What one seat may see (R6): the only view of a game that bots, hints and clients receive.

:func:`observe` builds the :class:`Observation` that bots and hints read;
:func:`observation_json` is its JSON (``observe(game, seat).to_json()``, exactly) made straight
from the game, for a server that sends one at every move of either seat: it skips the
Observation's tuples and reads each move's notation as kept (about a third of the time for a
game of 150 moves). Both read the same parts of the game, so what a seat may see is decided in
this module alone; tests/engine/test_observation_json.py compares them over whole games.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import FACES, Card, card_str
from .errors import ArgumentError, quote
from .moves import Move
from .rules import Rules
from .stacks import left_to_complete, needs
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
    def center_takes(self) -> tuple[int, ...]:
        """For each center stack, the rank it takes next besides a King (R3.1: 1, an Ace,
        when it is empty)."""
        return tuple(needs(len(stack)) for stack in self.center)

    @property
    def center_left(self) -> tuple[int, ...]:
        """For each center stack, how many more cards it takes before it completes and
        leaves the table (R3.4(b)); 1 when its next card completes it."""
        return tuple(left_to_complete(len(stack)) for stack in self.center)

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
            "rules": rules_json(self.rules),
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
            "center_takes": list(self.center_takes),
            "center_left": list(self.center_left),
            "stock_count": self.stock_count,
            "history": [str(m) for m in self.history],
            "legal_moves": [str(m) for m in self.legal_moves],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }


def observe(game: Table, seat: int) -> Observation:
    """The observation of ``seat`` (0 or 1) in ``game``; another seat raises
    :class:`~.errors.ArgumentError`."""
    seat = _seat(seat)
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


_NAMES: tuple[str, ...] = tuple(card_str(face) for face in range(FACES))
"""Every card's notation, by face (what ``card_str`` answers, read as a table)."""
_RULES: dict[Rules, dict[str, Any]] = {}
"""``Rules.to_json()`` by rules (a server sees a handful of distinct rules in its life)."""
_RULES_KEPT = 256
"""At most this many rules' JSON is kept (a server offering many custom rules forgets them)."""


def rules_json(rules: Rules) -> dict[str, Any]:
    """``rules.to_json()``, made once per rules; each call answers a copy (the options are
    plain values), so a caller changing its dict changes no other."""
    made = _RULES.get(rules)
    if made is None:
        if len(_RULES) >= _RULES_KEPT:
            _RULES.clear()
        made = _RULES[rules] = rules.to_json()
    return dict(made)


def observation_json(game: Table, seat: int) -> dict[str, Any]:
    """``observe(game, seat).to_json()``, made straight from the game (R6): the seat's own
    hand, every face-up card, the size of every pile, every move made, and its legal moves
    when it is to move. Another seat than 0 or 1 raises :class:`~.errors.ArgumentError`."""
    seat = _seat(seat)
    names = _NAMES
    outcome = game.outcome
    return {
        "seat": seat,
        "rules": rules_json(game.rules),
        "to_move": game.to_move,
        "turn": game.turn,
        "hand": [names[card] for card in sorted(game.players[seat].hand)],
        "players": [
            {
                "payoff_top": names[player.payoff[-1]] if player.payoff else None,
                "payoff_count": len(player.payoff),
                "hand_count": len(player.hand),
                "side": [[names[card] for card in pile] for pile in player.side],
            }
            for player in game.players
        ],
        "center": [[names[card] for card in stack] for stack in game.center],
        **center_json(game.center),
        "stock_count": len(game.stock),
        # a move's notation is its str(), read without the call
        "history": [move.notation for move in game.moves],
        "legal_moves": (
            [move.notation for move in game.legal_moves()] if game.to_move == seat else []
        ),
        "outcome": None if outcome is None else outcome.to_json(),
    }


def center_json(center: Sequence[Sequence[Card]]) -> dict[str, list[int]]:
    """What each center stack takes next and how many cards it lacks to complete, as the
    JSON of an observation and of a replay's table carry them (``center_takes``,
    ``center_left``), so that no page or terminal works them out itself (R3.1, R3.4(b))."""
    return {
        "center_takes": [needs(len(stack)) for stack in center],
        "center_left": [left_to_complete(len(stack)) for stack in center],
    }


def _seat(seat: object) -> int:
    """``seat`` as 0 or 1: NumPy's integers are accepted; True, 1.0 and "1" are not."""
    if type(seat) is int:
        if seat in (0, 1):
            return seat
        raise ArgumentError(f"seat must be 0 or 1, not {quote(seat)}")
    try:
        index = -1 if isinstance(seat, bool) else operator.index(seat)  # type: ignore[arg-type]
    except TypeError:
        index = -1
    if index not in (0, 1):
        raise ArgumentError(f"seat must be 0 or 1, not {quote(seat)}")
    return index
