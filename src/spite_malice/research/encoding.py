"""Observation tensors and strings: what one seat may see (R6), as numbers and as text.

The tensor is built from the seat's view only (its own hand, face-up cards, pile sizes), never
from hidden cards, so it is identical in every deal that differs only in what the seat cannot
see. Two builders give the same numbers: :func:`encode_observation` from an engine
:class:`~spite_malice.engine.Observation` (the definition) and :func:`encode_game`, a faster
one reading the same fields of a :class:`~spite_malice.engine.Game` for the seat.

Layout (float32, 313 numbers), see :data:`SECTIONS`. "my" is the observing seat; the
opponent's pieces repeat mine under the prefix ``opponent_``:

================ ======== ==============================================================
name             shape    meaning
================ ======== ==============================================================
hand             13       how many cards of each rank (A..K) my hand holds
my_payoff_top    13       one-hot rank of my pay-off top (all zero when the pile is empty)
my_payoff        1        cards in my pay-off pile
my_side_top      4 x 13   one-hot rank of the top of each of my side stacks
my_side_ranks    4 x 13   how many cards of each rank each of my side stacks holds
my_side_size     4        cards in each of my side stacks
opponent_...     (same five pieces for the opponent)
hand_count       2        cards in my hand, in the opponent's hand
center           4 x 12   one-hot value (0..11) of each center stack (zero row: no 4th stack,
                          or a stack completed by the game's winning move)
center_k         4        Kings in each center stack
stock            1        cards in the stock
my_turn          1        1 when the observing seat is to move
================ ======== ==============================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine.cards import KING, RANK_OF, card_str
from ..engine.game import Game
from ..engine.moves import ACTIONS, PAYOFF, SIDE_SOURCE_BASE, SIDE_TARGET_BASE, TARGETS, Move
from ..engine.observation import Observation

_PLAYER_PIECES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("payoff_top", (13,)),
    ("payoff", (1,)),
    ("side_top", (4, 13)),
    ("side_ranks", (4, 13)),
    ("side_size", (4,)),
)

SECTIONS: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("hand", (13,)),
    *((f"my_{name}", shape) for name, shape in _PLAYER_PIECES),
    *((f"opponent_{name}", shape) for name, shape in _PLAYER_PIECES),
    ("hand_count", (2,)),
    ("center", (4, 12)),
    ("center_k", (4,)),
    ("stock", (1,)),
    ("my_turn", (1,)),
)
"""The named pieces of the tensor, in order, with their shapes."""

_BLOCK = 13 + 1 + 52 + 52 + 4  # one player's pieces: 122 numbers
_CENTER_SIZE = 48 + 4  # center, center_k
_TAIL = 2 + _CENTER_SIZE + 1 + 1  # hand_count, center, center_k, stock, my_turn
OBSERVATION_SIZE: int = 13 + 2 * _BLOCK + _TAIL
"""Length of the flat observation tensor (313)."""

# Places inside a player's block, by card face: the rank's place in each piece.
_TOP_AT = tuple(RANK_OF[card] - 1 for card in range(52))
_SIDE_TOP_AT = tuple(tuple(14 + n * 13 + RANK_OF[c] - 1 for c in range(52)) for n in range(4))
_SIDE_RANKS_AT = tuple(tuple(66 + n * 13 + RANK_OF[c] - 1 for c in range(52)) for n in range(4))
_SIDE_SIZE = 118
_KING_FACES = tuple(card for card in range(52) if RANK_OF[card] == KING)
_KING_AT = KING - 1
_NO_CARDS = bytes(13)
_ONE_HOT_13 = tuple(bytes(int(i == value) for i in range(13)) for value in range(14))
"""One-hot rank rows; the last is all zero (an empty pile)."""
_ONE_HOT_12 = tuple(bytes(int(i == value) for i in range(12)) for value in range(13))
"""One-hot center values 0..11; the last, for a stack completed by the winning move (which
ends the game before the stack goes back into the stock, R3.4), is all zero."""
# bound once rather than looked up in numpy (and made a dtype) at every step
_frombuffer = np.frombuffer
_INT8 = np.dtype(np.int8)
_FLOAT32 = np.dtype(np.float32)
_NO_BYTES = bytearray()  # never changed: ``_NO_BYTES + flags`` is a new bytearray


def observation_high(deck_size: int = 104) -> npt.NDArray[np.float32]:
    """An upper bound for every number of the tensor (for a ``Box`` space)."""
    high = np.full(OBSERVATION_SIZE, float(min(deck_size, 255)), dtype=np.float32)
    at = 0
    for name, shape in SECTIONS:
        size = int(np.prod(shape))
        if name == "hand" or name == "hand_count":
            high[at : at + size] = 5.0
        elif name.endswith(("payoff_top", "side_top")) or name in ("center", "my_turn"):
            high[at : at + size] = 1.0
        at += size
    return high


def _hand_part(hand: Any) -> bytearray:
    values = bytearray(13)
    at = _TOP_AT
    for card in hand:
        values[at[card]] += 1
    return values


def _player_block(top: int | None, count: int, sides: Any) -> bytes:
    """One player's pieces: pay-off top and size, and the side stacks (all public, R6.1)."""
    values = bytearray(_BLOCK)
    if top is not None:
        values[_TOP_AT[top]] = 1
    values[13] = count
    for number, pile in enumerate(sides):
        if pile:
            values[_SIDE_TOP_AT[number][pile[-1]]] = 1
            at = _SIDE_RANKS_AT[number]
            for card in pile:
                values[at[card]] += 1
            values[_SIDE_SIZE + number] = len(pile)
    return bytes(values)


def _center_part(center: Any) -> bytes:
    """The center pieces: each stack's value, one-hot, then the Kings in each stack."""
    values = bytearray(_CENTER_SIZE)
    k1, k2, k3, k4 = _KING_FACES
    for number, stack in enumerate(center):
        values[number * 12 : number * 12 + 12] = _ONE_HOT_12[len(stack)]
        if stack:
            count = stack.count
            values[48 + number] = count(k1) + count(k2) + count(k3) + count(k4)
    return bytes(values)


def _tail_part(
    my_hand: int, opponent_hand: int, center: Any, stock_count: int, my_turn: bool
) -> bytes:
    return b"".join(
        (
            bytes((my_hand, opponent_hand)),
            _center_part(center),
            bytes((stock_count, my_turn)),
        )
    )


def _tensor(parts: list[Any]) -> npt.NDArray[np.float32]:
    return np.frombuffer(b"".join(parts), dtype=np.uint8).astype(np.float32)


def encode_observation(observation: Observation) -> npt.NDArray[np.float32]:
    """The tensor of an engine observation (the definition of the layout)."""
    seat = observation.seat
    me, opponent = observation.players[seat], observation.players[1 - seat]
    return _tensor(
        [
            _hand_part(observation.hand),
            _player_block(me.payoff_top, me.payoff_count, me.side),
            _player_block(opponent.payoff_top, opponent.payoff_count, opponent.side),
            _tail_part(
                me.hand_count,
                opponent.hand_count,
                observation.center,
                observation.stock_count,
                observation.outcome is None and observation.to_move == seat,
            ),
        ]
    )


def _game_block(game: Game, player: int) -> bytes:
    state = game.players[player]
    payoff = state.payoff
    return _player_block(payoff[-1] if payoff else None, len(payoff), state.side)


def encode_game(game: Game, seat: int) -> npt.NDArray[np.float32]:
    """The same tensor as ``encode_observation(game.observation(seat))``, built faster.

    It reads only what ``seat`` may see: its own hand, the pay-off tops, side and center
    stacks, and pile sizes.
    """
    players = game.players
    return _tensor(
        [
            _hand_part(players[seat].hand),
            _game_block(game, seat),
            _game_block(game, 1 - seat),
            _tail_part(
                len(players[seat].hand),
                len(players[1 - seat].hand),
                game.center,
                len(game.stock),
                game.outcome is None and game.to_move == seat,
            ),
        ]
    )


_MY_BLOCK = 13  # where each piece starts in the tensor
_THEIR_BLOCK = _MY_BLOCK + _BLOCK
_HAND_COUNT = _THEIR_BLOCK + _BLOCK
_CENTER = _HAND_COUNT + 2
_CENTER_K = _CENTER + 48
_STOCK = _CENTER + _CENTER_SIZE
_MY_TURN = _STOCK + 1
_SHIFT = _THEIR_BLOCK - _MY_BLOCK


def _float_view(array: npt.NDArray[np.float32]) -> memoryview[float]:
    """A float32 array as a memoryview: it takes Python floats faster than numpy does."""
    return array.data.cast("B").cast("f")


def _floats(values: bytes) -> memoryview[float]:
    """Bytes as a float32 memoryview, to write into a tensor."""
    return _float_view(np.frombuffer(values, np.uint8).astype(np.float32))


_FLOAT = tuple(float(count) for count in range(256))
"""Counts as floats: a tensor takes a float faster than an int (at most 156 cards, R0.2)."""
_ONE_HOT_13_FLOATS = tuple(_floats(row) for row in _ONE_HOT_13)
_NO_CARDS_FLOATS = _floats(_NO_CARDS)


class ObservationEncoder:
    """:func:`encode_game` for one game, faster: it keeps each seat's tensor and updates
    only the numbers a move changed. Tell it every new game (:meth:`reset`) and every move
    right after it is played (:meth:`moved`); it then gives the same tensors as
    :func:`encode_game`, each a new array."""

    __slots__ = ("_arrays", "_hand_sizes", "_side_tops", "_views", "game")

    def __init__(self, game: Game) -> None:
        # each seat's tensor (never handed out), written through a float32 memoryview
        self._arrays = (np.zeros(OBSERVATION_SIZE, _FLOAT32), np.zeros(OBSERVATION_SIZE, _FLOAT32))
        self._views = (_float_view(self._arrays[0]), _float_view(self._arrays[1]))
        # the place of each of a player's side stack tops in its own tensor's one-hot rows
        # (of a zero in the row when the stack is empty)
        self._side_tops = ([0] * 4, [0] * 4)
        self.reset(game)

    def reset(self, game: Game) -> None:
        """A new game (or a game changed behind the encoder's back)."""
        self.game = game
        # how many cards the hand piece of each seat's view counts; -1: count them afresh
        self._hand_sizes = [-1, -1]
        center = _floats(_center_part(game.center))
        for player in (0, 1):
            self._views[player][_CENTER:_STOCK] = center
            self._set_block(player)

    def _set_block(self, player: int) -> None:
        """Write the player's pay-off and side stack piece afresh, in both seats' tensors."""
        block = _floats(_game_block(self.game, player))
        self._views[player][_MY_BLOCK:_THEIR_BLOCK] = block
        self._views[1 - player][_THEIR_BLOCK:_HAND_COUNT] = block
        tops = self._side_tops[player]
        for number, pile in enumerate(self.game.players[player].side):
            row = _SIDE_TOP_AT[number]
            tops[number] = _MY_BLOCK + (row[pile[-1]] if pile else row[0])

    def moved(self, player: int, move: Move) -> None:
        """``player`` has just played ``move``: update the numbers it changed, reading the
        position it left (so call this after each move, before the next one).

        The player's pay-off and side-stack piece is in both seats' tensors: at ``at`` in its
        own, at ``at + _SHIFT`` in the opponent's; every change is written to both."""
        game = self.game
        source = move.source
        target = move.target
        mine = self._views[player]
        theirs = self._views[1 - player]
        if PAYOFF < source < SIDE_SOURCE_BASE:  # a card of rank ``source`` left the hand
            sizes = self._hand_sizes
            if sizes[player] == len(game.players[player].hand) + 1:
                mine[source - 1] -= 1.0
                sizes[player] -= 1
            else:  # cards were drawn too (R3.4(c)), or are yet to be counted
                sizes[player] = -1
        if target < SIDE_TARGET_BASE:
            # R3.1: a build puts one card on a center stack, which is emptied again when
            # complete (R3.4(b)), unless the build won the game
            stack = game.center[target]
            size = len(stack)
            row = _CENTER + target * 12
            at = row + (size - 1 if size else 11)  # its value before
            mine[at] = theirs[at] = 0.0
            if size < 12:
                mine[row + size] = theirs[row + size] = 1.0
            at = _CENTER_K + target
            if not size:
                mine[at] = theirs[at] = 0.0
            elif _TOP_AT[stack[-1]] == _KING_AT:
                mine[at] = theirs[at] = mine[at] + 1.0
            if source == PAYOFF:  # R3.4(a): the next pay-off card is turned up
                payoff = game.players[player].payoff
                top = _ONE_HOT_13_FLOATS[_TOP_AT[payoff[-1]] if payoff else 13]
                mine[_MY_BLOCK : _MY_BLOCK + 13] = top
                theirs[_THEIR_BLOCK : _THEIR_BLOCK + 13] = top
                mine[_MY_BLOCK + 13] = theirs[_THEIR_BLOCK + 13] = _FLOAT[len(payoff)]
                return
            if source < SIDE_SOURCE_BASE:
                return  # from the hand: nothing else seen by both seats changed
            number = source - SIDE_SOURCE_BASE
        else:  # R3.3: a discard onto one of the player's side stacks
            number = target - SIDE_TARGET_BASE
        pile = game.players[player].side[number]
        size = len(pile)
        size_at = _MY_BLOCK + _SIDE_SIZE + number
        before = mine[size_at]
        tops = self._side_tops[player]
        if size == before + 1:  # a card discarded onto it
            at = tops[number]
            mine[at] = theirs[at + _SHIFT] = 0.0
            at = tops[number] = _MY_BLOCK + _SIDE_TOP_AT[number][pile[-1]]
            mine[at] = theirs[at + _SHIFT] = 1.0
            at += 52  # the rank's count in the stack
            mine[at] = theirs[at + _SHIFT] = mine[at] + 1.0
        elif size == before - 1:  # its top card built on the center
            at = tops[number]
            mine[at] = theirs[at + _SHIFT] = 0.0
            mine[at + 52] = theirs[at + 52 + _SHIFT] = mine[at + 52] - 1.0
            if pile:
                at = tops[number] = _MY_BLOCK + _SIDE_TOP_AT[number][pile[-1]]
                mine[at] = theirs[at + _SHIFT] = 1.0
        else:  # not one move since the last update: write the piece afresh
            self._set_block(player)
            return
        mine[size_at] = theirs[size_at + _SHIFT] = _FLOAT[size]

    def encode(self, seat: int) -> npt.NDArray[np.float32]:
        """The tensor of ``seat`` in the current position (a new array)."""
        game = self.game
        players = game.players
        hand = players[seat].hand
        view = self._views[seat]
        size = len(hand)
        if size != self._hand_sizes[seat]:
            view[0:13] = _NO_CARDS_FLOATS
            at = _TOP_AT
            for card in hand:
                view[at[card]] += 1.0
            self._hand_sizes[seat] = size
        view[_HAND_COUNT] = _FLOAT[size]
        view[_HAND_COUNT + 1] = _FLOAT[len(players[1 - seat].hand)]
        view[_STOCK] = _FLOAT[len(game.stock)]
        view[_MY_TURN] = 1.0 if game.outcome is None and game.to_move == seat else 0.0
        return self._arrays[seat].copy()


def action_mask(flags: bytes | bytearray) -> npt.NDArray[np.int8]:
    """The int8 action mask (144 numbers, a 1 at each legal action) of the flags of
    :meth:`~spite_malice.engine.Game.legal_move_flags`: a new array over a copy of them."""
    return _frombuffer(_NO_BYTES + flags, _INT8)  # a new bytearray: faster than bytearray()


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


_MY_SIDE_SIZE = 13 + _SIDE_SIZE


def side_empty(tensor: npt.NDArray[np.float32]) -> tuple[bool, bool, bool, bool]:
    """Which of the observing seat's four side stacks are empty, read from its tensor."""
    sizes = tensor[_MY_SIDE_SIZE : _MY_SIDE_SIZE + 4].tolist()
    return (sizes[0] == 0, sizes[1] == 0, sizes[2] == 0, sizes[3] == 0)


_from_bytes = int.from_bytes


def _bits(actions: range | list[int]) -> int:
    """The bits of ``int.from_bytes(flags, "little")`` that hold the given actions' flags."""
    return sum(1 << 8 * action for action in actions)


_PAYOFF_BUILD_BITS = _bits(range(SIDE_TARGET_BASE))
_SIDE_BUILD_BITS = _bits(
    [a for a in range(SIDE_SOURCE_BASE * TARGETS, ACTIONS) if a % TARGETS < SIDE_TARGET_BASE]
)
_HAND_BUILD_BITS = _bits(
    [a for a in range(TARGETS, SIDE_SOURCE_BASE * TARGETS) if a % TARGETS < SIDE_TARGET_BASE]
)
_DISCARD_BELOW_KING_BITS = _bits(
    [a for a in range(TARGETS, KING * TARGETS) if a % TARGETS >= SIDE_TARGET_BASE]
)


def first_fit_from_mask(action_mask: npt.NDArray[np.int8], observation: Any) -> int:
    """:func:`~.actions.first_fit_action` read straight from an observation: the int8
    ``action_mask`` (144 numbers) and the seat's tensor, whose side stack sizes it reads only
    when it discards. The same action as ``first_fit_action(action_mask.nonzero()[0].tolist(),
    side_empty(observation))``, in about a third of the time."""
    flags = action_mask.tobytes()
    if len(flags) != ACTIONS:
        raise ValueError(f"an action mask is {ACTIONS} int8 numbers, not {len(flags)} bytes")
    bits = _from_bytes(flags, "little")  # action a's flag at bit 8a
    builds = bits & _PAYOFF_BUILD_BITS or bits & _SIDE_BUILD_BITS or bits & _HAND_BUILD_BITS
    if builds:
        # the lowest: the pay-off top, else side stacks 1-4, else hand cards by ascending
        # rank (Kings last), each on the lowest center stack that takes it
        return (builds & -builds).bit_length() >> 3
    discards = bits & _DISCARD_BELOW_KING_BITS
    # the highest non-King rank in hand (its discards are actions 8 * rank + 4..7), else King
    action = (discards.bit_length() >> 6 if discards else KING) * TARGETS + SIDE_TARGET_BASE
    # onto the first empty side stack, else the first
    if observation[_MY_SIDE_SIZE] == 0:
        return action
    if observation[_MY_SIDE_SIZE + 1] == 0:
        return action + 1
    if observation[_MY_SIDE_SIZE + 2] == 0:
        return action + 2
    if observation[_MY_SIDE_SIZE + 3] == 0:
        return action + 3
    return action


__all__ = [
    "OBSERVATION_SIZE",
    "SECTIONS",
    "ObservationEncoder",
    "action_mask",
    "encode_game",
    "encode_observation",
    "first_fit_from_mask",
    "observation_high",
    "observation_string",
    "side_empty",
]
