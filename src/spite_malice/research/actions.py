"""The action mapping shared by every adapter: integers 0..143 for moves, 0..51 for cards.

A move's action is its :attr:`~spite_malice.engine.Move.index`, ``source * 8 + target``:
sources 0 (``P``), 1..13 (``HA`` .. ``HK``), 14..17 (``S1`` .. ``S4``); targets 0..3 (``C1`` ..
``C4``) and 4..7 (``S1`` .. ``S4``). So ``P-C1`` is 0, ``H7-C1`` is 56, ``HK-S1`` is 108 and
``S4-C4`` is 139. Chance outcomes (OpenSpiel) are card faces, ``suit * 13 + rank - 1``.

This module needs only the standard library.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence

from ..engine.cards import KING, Card, card_str, parse_card
from ..engine.game import Game
from ..engine.moves import ACTIONS, SIDE_SOURCE_BASE, SIDE_TARGET_BASE, TARGETS, Move, move_at
from ..engine.moves import parse_move as _parse_move

NUM_ACTIONS = ACTIONS
"""Size of the move action space (144): every ``SOURCE-TARGET`` pair, legal somewhere or not."""
NUM_CARD_OUTCOMES = 52
"""Size of the chance outcome space: one outcome per card face."""

_PAYOFF_BUILDS = range(0, SIDE_TARGET_BASE)
_SIDE_SOURCE_FIRST = SIDE_SOURCE_BASE * TARGETS  # 112: the first S<n>-... action
_HAND_BUILDS = frozenset(
    action for action in range(TARGETS, _SIDE_SOURCE_FIRST) if action % TARGETS < SIDE_TARGET_BASE
)
_DISCARDS_BELOW_KING = frozenset(
    action for action in range(TARGETS, KING * TARGETS) if action % TARGETS >= SIDE_TARGET_BASE
)


def action_to_move(action: int) -> Move:
    """The move of an action id (0..143); ``ValueError`` outside that range."""
    return move_at(int(action))


def move_to_action(move: Move | str) -> int:
    """The action id of a move, given as a :class:`Move` or in notation (``'H7-C1'`` -> 56)."""
    return _parse_move(move).index


def action_to_notation(action: int) -> str:
    """The notation of an action id: ``56`` -> ``'H7-C1'``."""
    return move_at(int(action)).notation


def notation_to_action(text: str) -> int:
    """The action id of a move in notation; raises ``NotationError`` for bad text."""
    return _parse_move(text).index


def card_to_outcome(card: Card | str) -> int:
    """The chance outcome of a card (a face 0..51 or its notation, ``'7H'``)."""
    return parse_card(card) if isinstance(card, str) else int(card)


def outcome_to_card(outcome: int) -> str:
    """The card notation of a chance outcome: ``19`` -> ``'7H'``."""
    return card_str(outcome)


def legal_actions(game: Game) -> list[int]:
    """The legal action ids of the player to move, ascending (empty when the game is over)."""
    return [move.index for move in game.legal_moves()]


def actions_to_mask(actions: Iterable[int]) -> list[int]:
    """A 0/1 list of length 144 with a 1 at each given action."""
    mask = [0] * NUM_ACTIONS
    for action in actions:
        mask[action] = 1
    return mask


def first_fit_action(legal: Sequence[int], side_empty: Sequence[bool]) -> int:
    """The reference first-fit policy's action, from what the player to move sees.

    ``legal`` are the legal actions in ascending order (an action mask's nonzero places) and
    ``side_empty`` says which of the player's four side stacks are empty. The choice equals
    :func:`spite_malice.bots.reference_move` on the same position: the pay-off top on the
    lowest center stack that takes it, else side stack tops 1-4, else hand cards by ascending
    rank with Kings last, each on the lowest center stack that takes it; else discard the
    highest non-King hand card onto the first empty side stack (else side stack 1).
    """
    if len(legal) and legal[0] < SIDE_TARGET_BASE:
        return legal[0]  # the pay-off top: actions 0..3, in center order, come first
    for action in legal[bisect_left(legal, _SIDE_SOURCE_FIRST) :]:
        if action % TARGETS < SIDE_TARGET_BASE:
            return action  # the first side-stack build in (stack, center) order
    action = next(filter(_HAND_BUILDS.__contains__, legal), -1)
    if action >= 0:
        return action  # by ascending rank, Kings (the highest) last
    action = next(filter(_DISCARDS_BELOW_KING.__contains__, reversed(legal)), -1)
    rank = action // TARGETS if action >= 0 else KING
    side = next((number for number, empty in enumerate(side_empty) if empty), 0)
    return rank * TARGETS + SIDE_TARGET_BASE + side


def game_first_fit_action(game: Game) -> int:
    """:func:`first_fit_action` for the player to move in ``game`` (reads only that seat's view)."""
    side = game.players[game.to_move].side
    return first_fit_action(
        legal_actions(game), (not side[0], not side[1], not side[2], not side[3])
    )


__all__ = [
    "NUM_ACTIONS",
    "NUM_CARD_OUTCOMES",
    "action_to_move",
    "action_to_notation",
    "actions_to_mask",
    "card_to_outcome",
    "first_fit_action",
    "game_first_fit_action",
    "legal_actions",
    "move_to_action",
    "notation_to_action",
    "outcome_to_card",
]
