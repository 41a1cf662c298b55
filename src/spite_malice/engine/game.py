"""The game: its state, the moves legal in it, and the checked and unchecked ways to play one.

A :class:`Game` is always at a decision point: the player to move has refilled their hand
(R2.1) and may build or discard, or the game is over. Cards are small integers (see
:mod:`.cards`); every pile is a list running bottom to top, so ``pile[-1]`` is its top.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Sequence
from typing import Any, cast

from . import events as ev
from .cards import (
    FACES,
    KING,
    RANK_OF,
    Card,
    card_str,
    cards_str,
    full_deck,
)
from .chance import Chance, Deal, Draw, Piles, Reshuffle, TurnUp
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
from .reasons import N_, Reason
from .rules import HAND_SIZE, SIDE_STACKS, TURN_LIMIT, Rules
from .seeds import check_seed
from .stacks import COMPLETE, fit_masks, fits, needs
from .state import STOCK_EXHAUSTED, TURN_LIMIT_REACHED, WON, Outcome, OutcomeReason, PlayerState

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
"""Per King-start rule, center stack values -> :func:`.stacks.fit_masks` (a bounded cache)."""

_FLAGS: dict[bool, dict[tuple[int, ...], tuple[tuple[bytes, ...], tuple[bytes, ...]]]] = {
    False: {},
    True: {},
}
"""Per King-start rule, center stack lengths -> :func:`_target_flags` (a bounded cache)."""

_TURN_UPS = (TurnUp(0), TurnUp(1))
_DRAWS = tuple(tuple(Draw(player, count) for count in range(HAND_SIZE + 1)) for player in (0, 1))
_TIE_RESHUFFLE = Reshuffle(Piles.PAYOFFS)
"""The chance events of turn-ups, draws and R1.4's tie, made once (they are frozen values)."""

_BUILD_SOURCES = (
    (ev.BuildSource.PAYOFF,)
    + (ev.BuildSource.HAND,) * (SIDE_SOURCE_BASE - 1)
    + (ev.BuildSource.SIDE_1, ev.BuildSource.SIDE_2, ev.BuildSource.SIDE_3, ev.BuildSource.SIDE_4)
)
"""A :class:`~.events.CardBuilt`'s source, by the move's source index."""

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
    fits = fit_masks(lengths, king_can_start_stack)
    discards = ((1 << SIDE_STACKS) - 1) << SIDE_TARGET_BASE
    return (
        tuple(_TARGET_FLAGS[targets] for targets in fits),
        tuple(_TARGET_FLAGS[targets | discards] for targets in fits),
    )


_GAME_OVER = Reason(N_("the game is over"))
_PAYOFF_NOT_ON_SIDE = Reason(N_("a pay-off card may only be built on a center stack (R3.5)"))
_SIDE_TO_SIDE = Reason(N_("a card never moves from one side stack to another (R3.5)"))
_NO_KING_START = Reason(N_("a King may not start a center stack under these rules (R3.2)"))
_NOT_IN_HAND = {r: Reason(N_("there is no {rank} in your hand"), rank=r) for r in range(1, 14)}
_SIDE_EMPTY = tuple(
    Reason(N_("side stack {side} is empty"), side=s + 1) for s in range(SIDE_STACKS)
)
# TRANSLATORS: {a_rank} is a value with its article ("a four", "an Ace": context "value")
_CENTER_NEEDS = N_("center {center} needs {a_rank}")
_NEEDS = {
    (c, r): Reason(_CENTER_NEEDS, center=c + 1, a_rank=r) for c in range(4) for r in range(1, 14)
}
"""The reasons of :meth:`Game.why_illegal`, made once (it is asked for every move a caller
tries, so a reason is looked up rather than made)."""


class Game:
    """A game of Spite & Malice between players 0 and 1.

    Make one with :meth:`new` (a seeded deal), :meth:`undealt` (chance dealt from outside,
    see :mod:`.chance`) or :meth:`from_position`. Play with the checked :meth:`play`, or with
    :meth:`apply`, the unchecked fast path for search and simulation.
    """

    __slots__ = (
        "_ending",
        "_ties",
        "center",
        "chance",
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
        rng: random.Random | None,
        seed: int | None = None,
        turn: int = 1,
        first: int | None = None,
        recording: bool = True,
        score: tuple[int, int] = (0, 0),
    ) -> None:
        """Assemble a game from its parts without checking them; prefer :meth:`new`.

        ``rng`` is the dealer: it shuffles the stock when a stack completes (R3.4(b)). With
        None, chance comes from outside: every chance event waits in :attr:`chance` for
        :meth:`deal` (see :mod:`.chance`).
        """
        self.rules = rules
        self.seed = seed
        self.rng = rng
        self.chance: list[Chance] = []
        """The chance events waiting for an outcome, the next first (always empty when the
        game deals its own chance)."""
        self._ending: Outcome | None = None  # an end waiting for the chance before it
        self._ties = 0  # R1.4: tie reshuffles of the deal so far
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
        game = cls._empty(rules, first, rng, seed, recording)
        deck = full_deck(rules.decks)
        rng.shuffle(deck)  # the seeded dealer's outcome of the Deal
        game._deal_deck(deck)
        return game

    @classmethod
    def undealt(
        cls, rules: Rules = Rules.STANDARD, *, first: int | None = None, recording: bool = True
    ) -> Game:
        """A game whose chance comes from outside, waiting for its :class:`~.chance.Deal`.

        Give each chance event's outcome to :meth:`deal` as it comes up in :attr:`chance`:
        the deal, R1.4's tie reshuffles, every draw, every pay-off card turned up and every
        shuffle of the stock (see :mod:`.chance`). ``first`` is as in :meth:`new`.
        """
        if first is not None and (type(first) is not int or first not in (0, 1)):
            raise ArgumentError(f"first must be 0, 1 or None, not {quote(first)}")
        if not isinstance(rules, Rules):
            raise ArgumentError(f"rules must be a Rules value, not {quote(rules)}")
        game = cls._empty(rules, first, None, None, recording)
        game.chance.append(Deal(rules.deck_size))
        return game

    @classmethod
    def _empty(
        cls,
        rules: Rules,
        first: int | None,
        rng: random.Random | None,
        seed: int | None,
        recording: bool,
    ) -> Game:
        """A game before its deal: no cards anywhere yet."""
        players = [PlayerState([], [], [[] for _ in range(SIDE_STACKS)]) for _ in (0, 1)]
        center: list[list[Card]] = [[] for _ in range(rules.center_stacks)]
        return cls(
            rules,
            [],
            center,
            players,
            0 if first is None else first,
            rng=rng,
            seed=seed,
            first=first,
            recording=recording,
        )

    def _deal_deck(self, deck: list[Card]) -> None:
        """R1.2: deal the shuffled ``deck``, then settle who starts (R1.4)."""
        size = self.rules.payoff_size
        one, two = self.players
        one.payoff = deck[:size]
        two.payoff = deck[size : 2 * size]
        one.hand = deck[2 * size : 2 * size + HAND_SIZE]
        two.hand = deck[2 * size + HAND_SIZE : 2 * size + 2 * HAND_SIZE]
        self.stock = deck[2 * size + 2 * HAND_SIZE :]
        self._start()

    def _start(self) -> None:
        """R1.4: the higher pay-off top starts (A low, K high); tied tops reshuffle both
        piles, even when ``first`` is forced, so that the deal depends on the seed alone
        and a record replays exactly with its ``first``."""
        payoffs = (self.players[0].payoff, self.players[1].payoff)
        if _can_tie_again(payoffs):
            rng = self.rng
            while RANK_OF[payoffs[0][-1]] == RANK_OF[payoffs[1][-1]]:
                if rng is None:
                    self.chance.append(_TIE_RESHUFFLE)
                    return
                rng.shuffle(payoffs[0])
                rng.shuffle(payoffs[1])
                self._ties += 1
        if self.first is None:
            self.first = 0 if RANK_OF[payoffs[0][-1]] > RANK_OF[payoffs[1][-1]] else 1
        self.to_move = self.first
        if self.recording:
            self.events.append(ev.GameDealt(self.first, self._ties))

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
        unless ``rng`` is given; a game whose chance comes from outside stays so (and keeps
        the chance events waiting) unless ``rng`` is given.
        """
        game = Game.__new__(Game)
        for name in _SHARED_FIELDS:  # immutable values: shared
            setattr(game, name, getattr(self, name))
        if rng is None and self.rng is not None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        game.rng = rng
        game.stock = self.stock[:]
        game.center = [stack[:] for stack in self.center]
        game.players = [self.players[0].copy(), self.players[1].copy()]
        game.moves = self.moves[:]
        game.chance = self.chance[:]
        game.events = []
        game.recording = recording
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
        """Every legal move, distinct and ordered by :attr:`Move.index` (empty when over or
        while a chance event waits for its outcome)."""
        if self.outcome is not None or self.chance:
            return []
        me = self.players[self.to_move]
        cache = _FITS[self.rules.king_can_start_stack]
        lengths = tuple(map(len, self.center))
        fits = cache.get(lengths) or cache.setdefault(
            lengths, fit_masks(lengths, cache is _FITS[True])
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
        is over or while a chance event waits for its outcome).

        The same moves as :meth:`legal_moves`, without making a list: for adapters that check
        legality or build an action mask at every step.
        """
        if self.outcome is not None or self.chance:
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
        """Why ``move`` is not legal here, or None when it is: a :class:`~.reasons.Reason`
        for a player's mistake (its template and fields let the table translate it)."""
        if self.outcome is not None:
            return _GAME_OVER
        if self.chance:
            return f"the game waits for chance first: {self.chance[0]}"
        me = self.players[self.to_move]
        source, target = move.source, move.target
        if target >= SIDE_TARGET_BASE:
            if source == 0:
                return _PAYOFF_NOT_ON_SIDE
            if source >= SIDE_SOURCE_BASE:
                return _SIDE_TO_SIDE
        elif target >= len(self.center):
            return Reason(N_("there are only {count} center stacks"), count=len(self.center))
        if source == 0:
            card = me.payoff[-1]
        elif source < SIDE_SOURCE_BASE:
            card = next((c for c in me.hand if RANK_OF[c] == source), -1)
            if card < 0:
                return _NOT_IN_HAND[source]
        else:
            pile = me.side[source - SIDE_SOURCE_BASE]
            if not pile:
                return _SIDE_EMPTY[source - SIDE_SOURCE_BASE]
            card = pile[-1]
        if target >= SIDE_TARGET_BASE:
            return None  # R3.3: any hand card onto any side stack
        value = len(self.center[target])
        if fits(RANK_OF[card], value, self.rules.king_can_start_stack):
            return None
        if RANK_OF[card] == KING:
            return _NO_KING_START
        rank = needs(value)
        return _NEEDS.get((target, rank)) or Reason(_CENTER_NEEDS, center=target + 1, a_rank=rank)

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
            self.events.append(ev.CardBuilt(player, _BUILD_SOURCES[source], card, target, value))
        rng = self.rng
        if source == 0:  # R3.4(a)
            if not me.payoff:
                self._win(player)
                return
            if rng is None:
                self.chance.append(_TURN_UPS[player])
            elif recording:
                self.events.append(ev.PayoffTurned(player, me.payoff[-1]))
        if value == COMPLETE:  # R3.4(b): the stack is complete and goes back into the stock
            stock = self.stock
            stock.extend(stack)
            self.center[target] = []
            if rng is None:
                self.chance.append(Reshuffle(Piles.STOCK, tuple(stack)))
            else:
                rng.shuffle(stock)
            if recording:
                self.events.append(ev.StackCompleted(target, tuple(stack), len(stock)))
        if not me.hand:  # R3.4(c): an empty hand draws five and play goes on
            self._draw(player, HAND_SIZE)

    # ----------------------------------------------------------------- chance from outside

    def deal(self, cards: Sequence[Card] | Sequence[Sequence[Card]]) -> None:
        """Give the outcome of the chance event :attr:`chance` waits for (see :mod:`.chance`
        for what each event takes): the deck, two pay-off piles, the stock, the cards drawn
        or the card turned up. An outcome that does not fit raises
        :class:`~.errors.ArgumentError` and changes nothing."""
        if not self.chance:
            raise ArgumentError("no chance event is waiting for an outcome")
        event = self.chance[0]
        if isinstance(event, Draw):
            drawn = _cards_of(cards, event)
            if len(drawn) != event.count:
                raise ArgumentError(f"{event} takes {event.count} card(s), not {quote(cards)}")
            _without(self.stock, drawn, "the cards drawn must be in the stock")
        elif isinstance(event, TurnUp):
            turned = _cards_of(cards, event)
            if len(turned) != 1:
                raise ArgumentError(f"{event} takes one card, not {quote(cards)}")
            pile = self.players[event.player].payoff
            _without(pile, turned, "the card turned up must be in that pay-off pile")
        elif isinstance(event, Deal):
            deck = _cards_of(cards, event)
            _check_same(deck, full_deck(self.rules.decks), "the deal must be the whole deck")
        elif event.piles is Piles.PAYOFFS:
            if len(cards) != 2:
                raise ArgumentError(f"{event} takes the two pay-off piles, not {quote(cards)}")
            for player, order in zip(self.players, cards, strict=True):
                _check_same(
                    _cards_of(order, event),
                    player.payoff,
                    "a pay-off pile is reshuffled within itself",
                )
        else:
            _check_same(
                _cards_of(cards, event), self.stock, "the stock is reshuffled within itself"
            )
        self.apply_chance(cards)

    def apply_chance(self, cards: Sequence[Card] | Sequence[Sequence[Card]]) -> None:
        """Give the waiting chance event its outcome WITHOUT checking it, as :meth:`apply` is
        to :meth:`play`: for adapters that choose only outcomes that fit. A wrong one
        corrupts the game; use :meth:`deal` for anything else."""
        event = self.chance.pop(0)
        # ``type(event) is`` rather than isinstance() and casts: fewer calls, same narrowing
        if type(event) is Draw:  # the most frequent first
            drawn: list[Card] = list(cards)  # type: ignore[arg-type]
            stock = self.stock
            stock.reverse()  # remove() takes the first: the topmost of each, turned back after
            try:
                for card in drawn:
                    stock.remove(card)
            finally:
                stock.reverse()
            self.players[event.player].hand += drawn  # as _drawn, one call less
            if self.recording:
                self.events.append(ev.CardsDrawn(event.player, len(drawn), tuple(drawn)))
        elif type(event) is TurnUp:
            turned: Card = cards[0]  # type: ignore[assignment]  # (cast() is a call)
            pile = self.players[event.player].payoff
            pile.reverse()  # the topmost copy goes on top
            try:
                pile.remove(turned)
            except ValueError:
                raise ArgumentError(
                    f"the card turned up must be in that pay-off pile: {quote(cards_str([turned]))}"
                ) from None
            finally:
                pile.reverse()
            pile.append(turned)
            if self.recording:
                self.events.append(ev.PayoffTurned(event.player, turned))
        elif type(event) is Deal:
            self._deal_deck(list(cast("Sequence[Card]", cards)))
        elif type(event) is Reshuffle and event.piles is Piles.PAYOFFS:
            piles = cast("Sequence[Sequence[Card]]", cards)
            self.players[0].payoff, self.players[1].payoff = list(piles[0]), list(piles[1])
            self._ties += 1
            self._start()
        else:
            self.stock = list(cast("Sequence[Card]", cards))
        if not self.chance and self._ending is not None:
            self._finish(self._ending)
            self._ending = None

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
            if self.rng is None:
                self.chance.append(_DRAWS[player][got])
            else:  # the seeded dealer shuffled the stock: its top cards are drawn
                drawn = stock[-got:]
                drawn.reverse()
                del stock[-got:]
                self._drawn(player, drawn)
        if got < count:
            self._finish(Outcome(None, 0, STOCK_EXHAUSTED))

    def _drawn(self, player: int, cards: list[Card]) -> None:
        self.players[player].hand.extend(cards)
        if self.recording:
            self.events.append(ev.CardsDrawn(player, len(cards), tuple(cards)))

    def _win(self, player: int) -> None:
        # R4.1: one point per card left in the opponent's pay-off pile, its face-up top included
        self._finish(Outcome(player, len(self.players[1 - player].payoff), WON))

    def _finish(self, outcome: Outcome) -> None:
        if self.chance:  # the chance before the end comes first (R4.2: the last draw)
            self._ending = outcome
            return
        self.outcome = outcome
        if self.recording:
            if outcome.winner is None:
                self.events.append(ev.GameDrawn(OutcomeReason(outcome.reason)))
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


_COPIED_FIELDS = frozenset(
    {"center", "chance", "events", "moves", "players", "recording", "rng", "stock"}
)
_SHARED_FIELDS = tuple(name for name in Game.__slots__ if name not in _COPIED_FIELDS)
"""The fields :meth:`Game.copy` shares with the copy: every field but the mutable ones it
copies or resets (a new field is shared unless it is added to ``_COPIED_FIELDS``)."""


_CARD_TYPES = frozenset({int})


def _cards_of(cards: object, event: Chance) -> list[Card]:
    """``cards`` as a list of cards, or an :class:`~.errors.ArgumentError` naming ``event``."""
    if not isinstance(cards, list | tuple) or (
        cards
        and not (_CARD_TYPES.issuperset(map(type, cards)) and 0 <= min(cards) <= max(cards) < FACES)
    ):
        raise ArgumentError(f"{event} takes a list of cards (0 to 51), not {quote(cards)}")
    return list(cards)


def _check_same(cards: list[Card], expected: list[Card], rule: str) -> None:
    if Counter(cards) != Counter(expected):
        raise ArgumentError(
            f"{rule}: {quote(cards_str(cards))} is not {quote(cards_str(expected))}"
        )


def _without(cards: list[Card], taken: list[Card], rule: str) -> list[Card]:
    """``cards`` less one of each card of ``taken`` (the topmost), in order."""
    rest = cards[:]
    for card in taken:
        for i in range(len(rest) - 1, -1, -1):  # the top of a pile, the top of the stock
            if rest[i] == card:
                del rest[i]
                break
        else:
            raise ArgumentError(f"{rule}: {quote(cards_str(taken))}")
    return rest


def _can_tie_again(payoffs: tuple[list[Card], list[Card]]) -> bool:
    """Whether a reshuffle could break a tie of the tops: not when every card of both piles
    has one rank (R1.4)."""
    ranks = {RANK_OF[c] for c in payoffs[0]} | {RANK_OF[c] for c in payoffs[1]}
    return ranks != {RANK_OF[payoffs[0][0]]}


__all__ = ["STOCK_EXHAUSTED", "TURN_LIMIT_REACHED", "WON", "Game", "Outcome", "PlayerState"]
