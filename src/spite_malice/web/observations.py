"""A seat's observation as the JSON of every ``state`` (``web-protocol.md`` 4.1), made straight
from the game.

It is exactly ``observe(game, seat).to_json()`` (R6: the seat's own hand, the face-up cards,
counts, the moves so far and its legal moves; tests/web/test_observation_json.py compares
the two over whole games), without the intermediate :class:`~..engine.observation.Observation`
and its tuples, and with each move's notation read as it is kept: a room makes one at every
move of either seat, and under load it was about three quarters of a state's cost (a profile
of 600 games); for a 148-move game it takes 9.5 us instead of 28.6 us. The rules' JSON is
made once per :class:`Rules`.
"""

from __future__ import annotations

from typing import Any

from ..engine.cards import FACES, card_str
from ..engine.game import Game
from ..engine.rules import Rules

_NAMES: tuple[str, ...] = tuple(card_str(face) for face in range(FACES))
"""Every card's notation, by face (what ``card_str`` answers, read as a table)."""
_RULES: dict[Rules, dict[str, Any]] = {}
"""``Rules.to_json()`` by rules (a handful of distinct rules in a server's life)."""
_RULES_KEPT = 256
"""Rules whose JSON is kept at most (a server offering many custom rules forgets them)."""


def rules_json(rules: Rules) -> dict[str, Any]:
    """``rules.to_json()``, made once per rules (a copy of the kept one each time: the
    options are plain values)."""
    made = _RULES.get(rules)
    if made is None:
        if len(_RULES) >= _RULES_KEPT:
            _RULES.clear()
        made = _RULES[rules] = rules.to_json()
    return dict(made)


def observation_json(game: Game, seat: int) -> dict[str, Any]:
    """What ``observe(game, seat).to_json()`` answers (``seat`` is 0 or 1)."""
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
        "stock_count": len(game.stock),
        # a move's notation is its str(), read without the call
        "history": [move.notation for move in game.moves],
        "legal_moves": (
            [move.notation for move in game.legal_moves()] if game.to_move == seat else []
        ),
        "outcome": None if outcome is None else outcome.to_json(),
    }
