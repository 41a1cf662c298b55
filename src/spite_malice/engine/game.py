"""The game: its state, the moves legal in it, and the checked and unchecked ways to play one.

A :class:`Game` is always at a decision point: the player to move has refilled their hand
(R2.1) and may build or discard, or the game is over. Cards are small integers (see
:mod:`.cards`); every pile is a list running bottom to top, so ``pile[-1]`` is its top.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from . import events as ev
from .cards import KING, QUEEN, RANK_NAMES, RANK_OF, Card, a_rank, card_str, full_deck
from .errors import ArgumentError, GameOverError, IllegalMoveError, quote
from .moves import (
    ACTIONS,
    ALL_MOVES,
    PAYOFF,
    SIDE_SOURCE_BASE,
    SIDE_TARGET_BASE,
    SOURCES,
    TARGETS,
    Move,
    parse_move,
)
from .observation import Observation, observe
from .position import parse_position, position_to_json
from .rules import HAND_SIZE, SIDE_STACKS, TURN_LIMIT, Rules
from .seeds import check_seed
from .state import STOCK_EXHAUSTED, TURN_LIMIT_REACHED, WON, Outcome, PlayerState

_BUILDS: tuple[tuple[tuple[Move, ...], ...], ...] = tuple(
    tuple(
        tuple(ALL_MOVES[source * TARGETS + c] for c in range(SIDE_TARGET_BASE) if mask >> c & 1)
        for mask in range(1 << SIDE_TARGET_BASE)
    )
    for source in range(len(ALL_MOVES) // TARGETS)
)
"""``_BUILDS[source][mask]``: the builds from ``source`` onto each center stack in ``mask``."""

_DISCARDS: tuple[tuple[Move, ...], ...] = tuple(
    ALL_MOVES[rank * TARGETS + SIDE_TARGET_BASE : (rank + 1) * TARGETS] for rank in range(KING + 1)
)
"""``_DISCARDS[rank]``: the discards of a hand card of ``rank`` onto side stacks 1 to 4."""

_FITS: dict[bool, dict[tuple[int, ...], tuple[int, ...]]] = {False: {}, True: {}}
"""Per King-start rule, center stack lengths -> :func:`_fit_masks` (a bounded cache)."""

_FLAGS: dict[bool, dict[tuple[int, ...], tuple[tuple[bytes, ...], tuple[bytes, ...]]]] = {
    False: {},
    True: {},
}
"""Per King-start rule, center stack lengths -> :func:`_target_flags` (a bounded cache)."""

_NO_FLAGS = bytes(ACTIONS)
_NO_SOURCES = [bytes(TARGETS)] * SOURCES
"""No move from any source: the flags of :meth:`Game.legal_move_flags`, source by source."""

_TARGET_FLAGS = tuple(bytes(mask >> target & 1 for target in range(TARGETS)) for mask in range(256))
"""For each bitmask of the 8 targets, its 8 flags (shared by every entry of :data:`_FLAGS`)."""


def _target_flags(
    lengths: tuple[int, ...], king_can_start_stack: bool
) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """For each rank 0..13, a flag for each of the 8 targets a card of that rank may move to:
    as a build from the pay-off pile or a side stack, and from the hand, where every discard
    is legal too (R3.3)."""
    fits = _fit_masks(lengths, king_can_start_stack)
    discards = ((1 << SIDE_STACKS) - 1) << SIDE_TARGET_BASE
    return (
        tuple(_TARGET_FLAGS[targets] for targets in fits),
        tuple(_TARGET_FLAGS[targets | discards] for targets in fits),
    )


def _fit_masks(lengths: tuple[int, ...], king_can_start_stack: bool) -> tuple[int, ...]:
    """For each rank 0..13, the bitmask of the center stacks that take a card of that rank."""
    masks = [0] * (KING + 1)
    for i, length in enumerate(lengths):
        masks[length + 1] |= 1 << i  # R3.1: one more than the stack's value
        if length or king_can_start_stack:  # R3.1, R3.2: a King fits anywhere it may start
            masks[KING] |= 1 << i
    return tuple(masks)


class Game:
    """A game of Spite & Malice between players 0 and 1.

    Make one with :meth:`new` (a seeded deal) or :meth:`from_position`. Play with the checked
    :meth:`play`, or with :meth:`apply`, the unchecked fast path for search and simulation.
    """

    __slots__ = (
        "center",
        "events",
        "first",
        "moves",
        "outcome",
        "players",
        "recording",
        "rng",
        "rules",
        "score",
        "seed",
        "stock",
        "to_move",
        "turn",
    )

    def __init__(
        self,
        rules: Rules,
        stock: list[Card],
        center: list[list[Card]],
        players: list[PlayerState],
        to_move: int,
        *,
        rng: random.Random,
        seed: int | None = None,
        turn: int = 1,
        first: int | None = None,
        recording: bool = True,
        score: tuple[int, int] = (0, 0),
    ) -> None:
        """Assemble a game from its parts without checking them; prefer :meth:`new`."""
        self.rules = rules
        self.seed = seed
        self.rng = rng
        self.stock = stock
        self.center = center
        self.players = players
        self.to_move = to_move
        self.turn = turn
        self.first = first  # who started a dealt game; None for a set-up position
        self.outcome: Outcome | None = None
        self.moves: list[Move] = []
        self.events: list[ev.Event] = []
        self.recording = recording
        self.score = score
        """Match points of both players before this game (R5.1); a position carries them."""

    # ----------------------------------------------------------------- making games

    @classmethod
    def new(
        cls,
        seed: int | None = None,
        rules: Rules = Rules.STANDARD,
        *,
        first: int | None = None,
        recording: bool = True,
    ) -> Game:
        """Deal a new game from ``seed`` (a fresh one is chosen and kept when None).

        ``first`` forces the starting player (a match does this for the alternate and loser
        rules of R1.4); otherwise the higher pay-off top starts. ``recording=False`` skips
        the event log, for simulations. A seed that is not a whole number from 0 to 2**63 - 1
        raises :class:`~.errors.SeedError` (see :func:`~.seeds.check_seed`); a bad ``first``
        or ``rules`` raises :class:`~.errors.ArgumentError`.
        """
        # R1.1: the seed is recorded, and records hold whole numbers
        seed = secrets.randbits(63) if seed is None else check_seed(seed)
        if first is not None and (type(first) is not int or first not in (0, 1)):
            raise ArgumentError(f"first must be 0, 1 or None, not {quote(first)}")
        if not isinstance(rules, Rules):
            raise ArgumentError(f"rules must be a Rules value, not {quote(rules)}")
        rng = random.Random(seed)  # R1.1: seeded, never the global generator
        deck = full_deck(rules.decks)
        rng.shuffle(deck)
        size = rules.payoff_size
        payoffs = [deck[:size], deck[size : 2 * size]]
        hands = [deck[2 * size : 2 * size + HAND_SIZE], deck[2 * size + HAND_SIZE : 2 * size + 10]]
        stock = deck[2 * size + 2 * HAND_SIZE :]
        # R1.4: tied tops are reshuffled even when ``first`` is forced, so that the deal
        # depends on the seed alone and a record replays exactly with its ``first``
        higher, reshuffles = _higher_card_starts(payoffs, rng)
        if first is None:
            first = higher
        players = [
            PlayerState(payoffs[i], hands[i], [[] for _ in range(SIDE_STACKS)]) for i in (0, 1)
        ]
        center: list[list[Card]] = [[] for _ in range(rules.center_stacks)]
        game = cls(
            rules,
            stock,
            center,
            players,
            first,
            rng=rng,
            seed=seed,
            first=first,
            recording=recording,
        )
        if recording:
            game.events.append(ev.GameDealt(first, reshuffles))
        return game

    @classmethod
    def from_position(cls, position: dict[str, Any] | str, *, seed: int | None = None) -> Game:
        """Set up the position (JSON text or its parsed object) of ``notation.md``.

        ``seed`` seeds the shuffles to come (a fresh one when None). Raises
        :class:`~.errors.NotationError` or :class:`~.errors.PositionError` for a bad position,
        :class:`~.errors.SeedError` for a bad seed (the rule of :func:`~.seeds.check_seed`).
        """
        set_up = parse_position(position, seed=seed)
        return cls(
            set_up.rules,
            set_up.stock,
            set_up.center,
            set_up.players,
            set_up.to_move,
            rng=random.Random(secrets.randbits(63) if set_up.seed is None else set_up.seed),
            seed=set_up.seed,
            turn=set_up.turn,
            score=set_up.score,
        )

    def to_position(self) -> dict[str, Any]:
        """The position as the JSON object of ``notation.md``."""
        return position_to_json(self)

    def copy(self, *, rng: random.Random | None = None, recording: bool = False) -> Game:
        """A fast, independent copy (the event log starts empty in it).

        The copy gets a copy of this game's random generator, so it shuffles the same way,
        unless ``rng`` is given.
        """
        game = Game.__new__(Game)
        game.rules = self.rules
        game.seed = self.seed
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        game.rng = rng
        game.stock = self.stock[:]
        game.center = [stack[:] for stack in self.center]
        game.players = [self.players[0].copy(), self.players[1].copy()]
        game.to_move = self.to_move
        game.turn = self.turn
        game.first = self.first
        game.outcome = self.outcome
        game.moves = self.moves[:]
        game.events = []
        game.recording = recording
        game.score = self.score
        return game

    # ----------------------------------------------------------------- reading the state

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def winner(self) -> int | None:
        """The winner, or None while the game goes on or when it was drawn."""
        return self.outcome.winner if self.outcome else None

    @property
    def current(self) -> PlayerState:
        """The player to move."""
        return self.players[self.to_move]

    def center_value(self, center: int) -> int:
        """The value of a center stack: 0 when empty, else the rank its top card stands for."""
        return len(self.center[center])

    def observation(self, player: int) -> Observation:
        """What ``player`` may see (R6), as an :class:`~.observation.Observation`."""
        return observe(self, player)

    # ----------------------------------------------------------------- legal moves

    def legal_moves(self) -> list[Move]:
        """Every legal move, distinct and ordered by :attr:`Move.index` (empty when over)."""
        if self.outcome is not None:
            return []
        me = self.players[self.to_move]
        cache = _FITS[self.rules.king_can_start_stack]
        lengths = tuple(map(len, self.center))
        fits = cache.get(lengths) or cache.setdefault(
            lengths, _fit_masks(lengths, cache is _FITS[True])
        )
        builds = _BUILDS
        out: list[Move] = []
        if me.payoff:
            out += builds[0][fits[RANK_OF[me.payoff[-1]]]]
        for rank in sorted(set(map(RANK_OF.__getitem__, me.hand))):
            out += builds[rank][fits[rank]]
            out += _DISCARDS[rank]  # R3.3: any hand card onto any side stack
        for side, pile in enumerate(me.side):
            if pile:
                out += builds[SIDE_SOURCE_BASE + side][fits[RANK_OF[pile[-1]]]]
        return out

    def legal_move_flags(self) -> bytes:
        """144 flags, ``flags[move.index]`` 1 for each legal move, else 0 (all 0 when the game
        is over).

        The same moves as :meth:`legal_moves`, without making a list: for adapters that check
        legality or build an action mask at every step.
        """
        if self.outcome is not None:
            return _NO_FLAGS
        me = self.players[self.to_move]
        king_can_start = self.rules.king_can_start_stack
        cache = _FLAGS[king_can_start]
        center = self.center
        if len(center) == 3:  # the usual three stacks, spelled out: much faster than map
            lengths: tuple[int, ...] = (len(center[0]), len(center[1]), len(center[2]))
        else:
            lengths = tuple(map(len, center))
        builds, from_hand = cache.get(lengths) or cache.setdefault(
            lengths, _target_flags(lengths, king_can_start)
        )
        # by_source[s]: the flags of the moves of source s, one per target (move index 8s + t)
        by_source = _NO_SOURCES[:]
        rank_of = RANK_OF
        if me.payoff:
            by_source[PAYOFF] = builds[rank_of[me.payoff[-1]]]
        for card in me.hand:
            rank = rank_of[card]
            by_source[rank] = from_hand[rank]
        side_1, side_2, side_3, side_4 = me.side
        if side_1:
            by_source[SIDE_SOURCE_BASE] = builds[rank_of[side_1[-1]]]
        if side_2:
            by_source[SIDE_SOURCE_BASE + 1] = builds[rank_of[side_2[-1]]]
        if side_3:
            by_source[SIDE_SOURCE_BASE + 2] = builds[rank_of[side_3[-1]]]
        if side_4:
            by_source[SIDE_SOURCE_BASE + 3] = builds[rank_of[side_4[-1]]]
        return b"".join(by_source)

    def why_illegal(self, move: Move) -> str | None:
        """Why ``move`` is not legal here, or None when it is."""
        if self.outcome is not None:
            return "the game is over"
        me = self.players[self.to_move]
        source, target = move.source, move.target
        if target >= SIDE_TARGET_BASE:
            if source == 0:
                return "a pay-off card may only be built on a center stack (R3.5)"
            if source >= SIDE_SOURCE_BASE:
                return "a card never moves from one side stack to another (R3.5)"
        elif target >= len(self.center):
            return f"there are only {len(self.center)} center stacks"
        if source == 0:
            card = me.payoff[-1]
        elif source < SIDE_SOURCE_BASE:
            card = next((c for c in me.hand if RANK_OF[c] == source), -1)
            if card < 0:
                return f"there is no {RANK_NAMES[source - 1]} in your hand"
        else:
            pile = me.side[source - SIDE_SOURCE_BASE]
            if not pile:
                return f"side stack {source - SIDE_SOURCE_BASE + 1} is empty"
            card = pile[-1]
        if target >= SIDE_TARGET_BASE:
            return None  # R3.3: any hand card onto any side stack
        value = len(self.center[target])
        rank = RANK_OF[card]
        if rank == KING:
            if value == 0 and not self.rules.king_can_start_stack:
                return "a King may not start a center stack under these rules (R3.2)"
            return None
        if rank != value + 1:
            return f"center {target + 1} needs {a_rank(value + 1)}"
        return None

    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` (a :class:`Move` or its notation) is legal here."""
        return self.why_illegal(parse_move(move)) is None

    # ----------------------------------------------------------------- playing

    def play(self, move: Move | str) -> Move:
        """Play a move after checking it; returns the :class:`Move` played.

        Raises :class:`~.errors.NotationError` for text that does not parse,
        :class:`~.errors.GameOverError` for any move once the game is over, and
        :class:`~.errors.IllegalMoveError` for a move not legal here; whichever it is, the
        game is unchanged.
        """
        parsed = parse_move(move)
        if self.outcome is not None:
            raise GameOverError(f"illegal move {quote(str(move))}: the game is over")
        reason = self.why_illegal(parsed)
        if reason is not None:
            raise IllegalMoveError(move, reason)
        self.apply(parsed)
        return parsed

    def apply(self, move: Move) -> None:
        """Play ``move`` WITHOUT checking it: the fast path for search and simulation.

        The move must come from :meth:`legal_moves` (or be known legal); an illegal one
        corrupts the game. Use :meth:`play` for anything a person or a program typed.
        """
        player = self.to_move
        me = self.players[player]
        source = move.source
        target = move.target
        self.moves.append(move)
        recording = self.recording
        if target >= SIDE_TARGET_BASE:  # R3.3: a discard ends the turn
            card = _take_from_hand(me.hand, source)
            side = target - SIDE_TARGET_BASE
            me.side[side].append(card)
            if recording:
                self.events.append(ev.CardDiscarded(player, card, side))
            self._end_turn()
            return
        if source == 0:
            card = me.payoff.pop()
        elif source < SIDE_SOURCE_BASE:
            card = _take_from_hand(me.hand, source)
        else:
            card = me.side[source - SIDE_SOURCE_BASE].pop()
        stack = self.center[target]
        stack.append(card)
        value = len(stack)  # R3.1: a King stands for the value the stack needed
        if recording:
            where = "P" if source == 0 else "H" if source < SIDE_SOURCE_BASE else move.notation[:2]
            self.events.append(ev.CardBuilt(player, where, card, target, value))
        if source == 0:  # R3.4(a)
            if not me.payoff:
                self._win(player)
                return
            if recording:
                self.events.append(ev.PayoffTurned(player, me.payoff[-1]))
        if value == QUEEN:  # R3.4(b): the stack is complete and goes back into the stock
            stock = self.stock
            stock.extend(stack)
            self.center[target] = []
            self.rng.shuffle(stock)
            if recording:
                self.events.append(ev.StackCompleted(target, tuple(stack), len(stock)))
        if not me.hand:  # R3.4(c): an empty hand draws five and play goes on
            self._draw(player, HAND_SIZE)

    def _end_turn(self) -> None:
        player = self.to_move
        if self.recording:
            self.events.append(ev.TurnEnded(player, self.turn))
        if self.turn >= TURN_LIMIT:  # R4.3
            self._finish(Outcome(None, 0, TURN_LIMIT_REACHED))
            return
        self.turn += 1
        self.to_move = player = 1 - player
        need = HAND_SIZE - len(self.players[player].hand)
        if need:  # R2.1
            self._draw(player, need)

    def _draw(self, player: int, count: int) -> None:
        """Draw ``count`` cards into the hand; a draw from an empty stock draws the game (R4.2)."""
        stock = self.stock
        got = min(count, len(stock))
        if got:
            drawn = stock[-got:]
            drawn.reverse()
            del stock[-got:]
            self.players[player].hand.extend(drawn)
            if self.recording:
                self.events.append(ev.CardsDrawn(player, got, tuple(drawn)))
        if got < count:
            self._finish(Outcome(None, 0, STOCK_EXHAUSTED))

    def _win(self, player: int) -> None:
        # R4.1: one point per card left in the opponent's pay-off pile, its face-up top included
        self._finish(Outcome(player, len(self.players[1 - player].payoff), WON))

    def _finish(self, outcome: Outcome) -> None:
        self.outcome = outcome
        if self.recording:
            if outcome.winner is None:
                self.events.append(ev.GameDrawn(outcome.reason))
            else:
                self.events.append(ev.GameWon(outcome.winner, outcome.points))

    def __repr__(self) -> str:
        state = (
            f"over: {self.outcome.reason}" if self.outcome else f"player {self.to_move + 1} to move"
        )
        tops = ", ".join(card_str(p.payoff[-1]) if p.payoff else "-" for p in self.players)
        return f"<Game seed={self.seed} turn={self.turn} {state}; pay-off tops {tops}>"


def _take_from_hand(hand: list[Card], rank: int) -> Card:
    """Remove and return the first hand card of ``rank``."""
    for i, card in enumerate(hand):
        if RANK_OF[card] == rank:
            return hand.pop(i)
    raise AssertionError(f"no card of rank {rank} in hand")


def _higher_card_starts(payoffs: list[list[Card]], rng: random.Random) -> tuple[int, int]:
    """R1.4: the higher pay-off top starts (A low, K high); a tie reshuffles both piles."""
    reshuffles = 0
    if {RANK_OF[c] for c in payoffs[0]} | {RANK_OF[c] for c in payoffs[1]} == {
        RANK_OF[payoffs[0][0]]
    }:
        return 0, 0  # every card of both piles has one rank: no reshuffle can break the tie
    while RANK_OF[payoffs[0][-1]] == RANK_OF[payoffs[1][-1]]:
        rng.shuffle(payoffs[0])
        rng.shuffle(payoffs[1])
        reshuffles += 1
    return (0 if RANK_OF[payoffs[0][-1]] > RANK_OF[payoffs[1][-1]] else 1), reshuffles


__all__ = ["STOCK_EXHAUSTED", "TURN_LIMIT_REACHED", "WON", "Game", "Outcome", "PlayerState"]
