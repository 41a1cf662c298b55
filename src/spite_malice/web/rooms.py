"""Rooms: a :class:`~spite_malice.table.Table` served to the connections of its two seats.

A room is transport only: it turns page messages into table requests, stores each step in
the move log before applying it (a move is acknowledged only once its row is committed), and
sends every seat what it may see (R6: messages are built from observations and public events
only). Sending never waits: each connection has its own bounded queue (see ``sockets``), so
no reader can hold the room.

When the store fails the request gets ``store_unavailable``, nothing is broadcast and the
table stays at the last stored step. When another process stored the step first
(:class:`~spite_malice.store.StoreConflict`) the room reloads the match from the log and
answers from it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import os
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Protocol, TypeVar

from ..engine.errors import SpiteMaliceError, quote
from ..engine.events import Event
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.observation import observation_json
from ..engine.rules import PRESETS, Rules
from ..i18n import N_, _, current_language, ngettext, use_language
from ..store import (
    MatchHeader,
    SeatPresence,
    Store,
    StoreConflict,
    StoredMatch,
    StoreError,
    StoreUnavailable,
)
from ..table import (
    COMPUTER,
    Applied,
    Savepoint,
    Seat,
    Step,
    Table,
    TableError,
    TableMeta,
    is_level,
    levels,
)
from ..table.steps import CLAIM, DEAL, HINT, MOVE, UNDO
from . import limits, messages, validation
from .protocol import (
    ClaimMessage,
    ClientMessage,
    DeclineRematchMessage,
    HintMessage,
    MoveMessage,
    NewGameMessage,
    NewMatchMessage,
    PingMessage,
    RematchMessage,
    ResignMessage,
    SyncMessage,
    UndoMessage,
    public_events,
)

log = logging.getLogger(__name__)

COMPUTER_MODE, FRIEND_MODE = "computer", "friend"
PERSON_SEAT, COMPUTER_SEAT = 0, 1
RETRIES = 3
"""Times a request is tried again after another process stored a step first."""
STALE_CODES = frozenset({"not_your_turn", "busy", "game_over", "game_not_over", "match_over"})
"""Refusals that may only mean this process is behind the log: check the log, then retry."""
COMPUTER_RETRIES = 8
"""Times the computer's move is tried again when the store fails (with growing pauses)."""
STORE_UNAVAILABLE = N_(
    "The game could not be saved, so that did not happen. Try again in a moment."
)
"""Marked only: say it with ``_(STORE_UNAVAILABLE)`` (or :func:`store_unavailable`)."""
LEASE_SECONDS = 5.0
"""How long a computer-turn lease lasts unless renewed: when the instance playing a turn dies,
another takes the room over within this time (docs/deploying.md)."""
LEASE_RENEW_SECONDS = 1.5
"""How often the instance playing a computer turn renews its lease."""
LEASE_MARGIN_SECONDS = 2.0
"""A lease this instance holds for at least this long still is used as it is, without asking
the database: the instance keeps a room's lease between computer turns (a room's requests
reach one instance, so its next turn is played there too) and lets it run out, or gives it
back when it forgets the room."""
LEASE_RENEW_IN_WRITES_SECONDS = LEASE_SECONDS - LEASE_RENEW_SECONDS
"""A lease this instance holds with less than this left is renewed in the room's next write
(the same group commit as its steps), so that a room in play keeps its lease without a
database call of its own; it lasts :data:`LEASE_SECONDS` from that write."""
LEASE_RETRY_SECONDS = 1.0
"""How often an instance waiting for another's lease checks again."""
QUICK_THINK_SECONDS = 0.0005
"""A computer whose last decision took less than this thinks its next one on the event
loop: handing a decision to a worker thread and back costs more than Easy's or Medium's
usual one. A slower decision goes back to a worker thread, so other rooms go on meanwhile."""

CLAIM_SECONDS = 180.0
"""How long a friend must have been offline (no connection to any server instance) before
the other seat may claim the game (``web-protocol.md`` 4.2 ``claim``): 3 minutes."""
CLAIM_ENV = "SPITE_MALICE_CLAIM_SECONDS"
"""An environment variable that sets another claim time (seconds), for tests and operators."""
ONLINE_SECONDS = 75.0
"""How long another instance's word that a seat is connected holds without being renewed
(it renews it every ``lobby.PRESENCE_SECONDS``): a dead instance's seats go offline."""


def claim_seconds() -> float:
    """The claim time: :data:`CLAIM_SECONDS` unless :data:`CLAIM_ENV` says otherwise."""
    try:
        value = float(os.environ.get(CLAIM_ENV) or CLAIM_SECONDS)
    except ValueError:
        return CLAIM_SECONDS
    return value if value >= 0 else CLAIM_SECONDS


def minutes(seconds: float) -> str:
    """'3 minutes', '1 minute', '20 seconds': a duration for a sentence (current language)."""
    if seconds >= 60:
        count = max(1, round(seconds / 60))
        return ngettext("{n} minute", "{n} minutes", count)
    count = max(1, round(seconds))
    return ngettext("{n} second", "{n} seconds", count)


def store_unavailable() -> TableError:
    """The refusal when the store failed: nothing happened, try again."""
    return RoomError("store_unavailable", _(STORE_UNAVAILABLE))


def peer_language(peer: Peer) -> str | None:
    """The language of ``peer``'s texts (a socket's ``language``; None: the current one)."""
    language = getattr(peer, "language", None)
    return language if isinstance(language, str) else None


def in_language(language: str | None) -> contextlib.AbstractContextManager[object]:
    """``use_language(language)``, or nothing when the block speaks it already (the usual
    case: a state is made at every move, and entering the block costs as much as a part of
    it)."""
    if language is None or language == current_language():
        return contextlib.nullcontext()
    return use_language(language)


RoomError = TableError
"""A request a room refuses; ``code`` is one of ``web-protocol.md`` 4.5."""


class RoomClosed(Exception):
    """The lobby forgot this room object (it was idle); load the room again to use it."""


class Peer(Protocol):
    """One open connection of a seat: messages are queued, never awaited."""

    def push(self, message: messages.ServerMessage) -> None: ...


T = TypeVar("T")


class RoomHost(Protocol):
    """What a room needs of the server holding it (the lobby, ``web/lobby.py``), so that
    rooms do not depend on the lobby that makes them: the store, a worker thread for store
    calls, the group commit of steps, and this instance's name in computer-turn leases."""

    store: Store
    instance: str

    async def run(self, function: Callable[..., T], *args: Any) -> T: ...

    async def append(self, header: MatchHeader, step: Step, renew: float | None = None) -> bool: ...

    async def append_steps(
        self, header: MatchHeader, steps: tuple[Step, ...], renew: float | None = None
    ) -> bool: ...


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_match_id() -> str:
    return uuid.uuid4().hex


def unknown_level(level: str) -> str:
    """The refusal of a computer level this server does not have, naming the ones it has."""
    return _(
        "There is no computer level {level}. The levels are: {names}.",
        level=quote(level),
        names=", ".join(levels()),
    )


def make_rules(rules: dict[str, Any] | None, preset: str | None) -> Rules:
    """The rules of a preset (by name) with ``rules`` options on top; RoomError if invalid."""
    base: dict[str, Any] = {}
    if preset is not None:
        chosen = PRESETS.get(preset)
        if chosen is None:
            known = ", ".join(PRESETS)
            raise RoomError(
                "invalid",
                _("Unknown preset {preset}; known: {known}.", preset=quote(preset), known=known),
            )
        base = chosen.to_json()
    if rules is not None:
        problem = validation.rules_problem(rules)  # said in the player's language
        if problem is not None:
            raise RoomError("invalid", problem)
    try:
        made = Rules.from_json({**base, **(rules or {})})
    except SpiteMaliceError as error:  # the engine's NotationError, saying which option
        reason = getattr(error, "reason", None) or quote(str(error))
        # TRANSLATORS: {reason} is the engine's, in English (which option, what is wrong)
        raise RoomError("invalid", _("The rules are not valid: {reason}.", reason=reason)) from None
    return limits.check_rules(made)  # the bounds /api/config publishes


Handler = Callable[["Room", Peer, int, ClientMessage], Awaitable[None]]
"""A page message's handler in :attr:`Room._handlers`."""


class Room:
    """One table and the connections that play it."""

    def __init__(self, lobby: RoomHost, stored: StoredMatch) -> None:
        assert stored.header.room is not None
        self.lobby = lobby
        self.code: str = stored.header.room
        self.header = stored.header
        self.table = self._restore(stored)
        self.lock = asyncio.Lock()
        self.peers: tuple[set[Peer], set[Peer]] = (set(), set())
        self.generation = 0
        """Bumped by every new match, so a computer turn of an earlier match stops."""
        self.computer_task: asyncio.Task[None] | None = None
        self.computer_generation = 0
        self.closed = False
        """Set by the lobby when it forgets this object; the room lives on in the store."""
        self.follow_task: asyncio.Task[None] | None = None
        self._follow_again = False
        self.lease_lost = False
        """Set when this instance could not renew its computer-turn lease: stop playing."""
        self.lease_until = 0.0
        """Until when (``time.monotonic()``) this instance surely holds the room's lease."""
        self.last_active = time.monotonic()
        self.think_seconds: float | None = None
        """How long the computer's last decision took here (None before the first)."""
        self.writes: set[asyncio.Task[None]] = set()
        """Presence writes in flight (the lobby waits for them when it closes)."""
        self.remote_online = [False, False]
        """Whether another instance holds a connection of each seat (as last read)."""
        self.last_seen: list[float | None] = [None, None]
        """When each seat was last seen connected anywhere (a wall-clock time, as last read
        from the store or seen here); None when never."""

    @staticmethod
    def _restore(stored: StoredMatch) -> Table:
        header = stored.header
        try:
            return Table.restore(header.rules, header.seed, header.meta, stored.steps)
        except SpiteMaliceError as error:  # the table's and the engine's refusals
            raise StoreError(f"match {header.id!r} cannot be replayed: {error}") from error

    # ----------------------------------------------------------------- reading

    @property
    def game(self) -> Game:
        """The current game (read it; change it only through the table's steps)."""
        return self.table.game

    @property
    def mode(self) -> str:
        return self.table.kind

    @property
    def level(self) -> str | None:
        return self.table.level

    @property
    def names(self) -> list[str | None]:
        return self.table.names

    def seat_for(self, token: str) -> int | None:
        """The seat ``token`` is for, or None."""
        given = hash_token(token)
        for seat, stored in enumerate(self.table.meta.tokens):
            if stored is not None and hmac.compare_digest(stored, given):
                return seat
        return None

    def is_full(self) -> bool:
        return all(self.table.meta.tokens)

    def connected(self) -> list[bool]:
        """Whether each seat has a connection open, to this instance or (friend rooms) to
        another one on the same database."""
        if self.mode == COMPUTER_MODE:
            return [bool(self.peers[0]), True]
        return [bool(self.peers[s]) or self.remote_online[s] for s in (0, 1)]

    def away(self) -> list[float | None]:
        """Seconds each seat of a friend room has been offline (None while connected, and in
        computer rooms): since it was last seen, or since the match began if never, and
        never since before the friend joined: until both seats are taken nobody is away
        from a game, so a claim cannot follow the join at once (web-protocol.md 4.2)."""
        if self.mode == COMPUTER_MODE:
            return [None, None]
        now = time.time()
        began = self.header.created_at.timestamp() if self.header.created_at else now
        joined = self.table.meta.joined_at or began
        connected = self.connected()
        return [
            None
            if connected[s]
            else round(max(0.0, now - max(self.last_seen[s] or began, joined)), 1)
            for s in (0, 1)
        ]

    def learn_presence(self, rows: list[SeatPresence]) -> None:
        """Take in the store's presence rows of this room (every instance's word)."""
        now = time.time()
        instance = self.lobby.instance
        for seat in (0, 1):
            mine = [row for row in rows if row.seat == seat]
            self.remote_online[seat] = any(
                row.online
                and row.instance != instance
                and now - row.seen_at.timestamp() < ONLINE_SECONDS
                for row in mine
            )
            seen = max((row.seen_at.timestamp() for row in mine), default=None)
            if seen is not None:
                self.last_seen[seat] = max(seen, self.last_seen[seat] or seen)

    async def _mark_presence(self, seat: int, online: bool) -> None:
        """Write this instance's presence of ``seat`` and read every instance's (friend
        rooms only; a failing store only leaves the presence as last known)."""
        if self.mode != FRIEND_MODE:
            return
        store = self.lobby.store
        with contextlib.suppress(StoreError):
            await self.lobby.run(store.mark_presence, [(self.code, seat, online)])
            rows = await self.lobby.run(store.presence, [self.code])
            self.learn_presence(rows.get(self.code, []))

    def state_for(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see (``web-protocol.md`` 4.1)."""
        table = self.table
        return {
            "room": self.code,
            "mode": self.mode,
            "seat": seat,
            "level": self.level,
            "daily": table.meta.daily,
            "players": self.names,
            "observation": observation_json(table.game, seat),
            "match": table.match_view(),
            "assisted": table.is_assisted,
            "can_undo": table.can_undo(seat),
            "can_hint": table.can_hint(seat),
            "undo_barrier": table.undo_barrier(seat),
            "connected": self.connected(),
            "thinking": table.computer_to_move,
            "resigned": table.resigned,
            "claimed": table.claimed,
            "reveal": table.reveal(),
            "away": self.away(),
            "claim_after": claim_seconds() if self.mode == FRIEND_MODE else None,
            "rematch": self.rematch_view(),
        }

    def rematch_view(self) -> dict[str, int | None] | None:
        """A friend room's rematch offer (``web-protocol.md`` 4.1); None elsewhere."""
        if self.mode != FRIEND_MODE:
            return None
        meta = self.table.meta
        return {"offered_by": meta.rematch, "declined_by": meta.declined}

    def welcome(self, seat: int) -> messages.Welcome:
        return messages.Welcome(
            room=self.code, seat=seat, mode=self.mode, level=self.level, players=self.names
        )

    def state_message(self, seat: int, cause: str, reply_to: int | str | None) -> messages.State:
        # made of this room's own data, never of a client's: built without pydantic's checks
        return messages.State.model_construct(
            reply_to=reply_to,
            cause=cause,
            state=self.state_for(seat),
            log=public_events(self.table.game.events, seat),
        )

    # ----------------------------------------------------------------- connections

    @contextlib.asynccontextmanager
    async def _open(self, *, use: bool = True) -> AsyncIterator[None]:
        """Hold the room's lock; RoomClosed when the lobby has forgotten this object.
        ``use=False``: not a use of the room here (following another instance's steps), so
        a room nobody uses here still goes idle and is forgotten (``Lobby.room_changed``)."""
        async with self.lock:
            if self.closed:
                raise RoomClosed(self.code)
            if use:
                self.last_active = time.monotonic()
            yield

    async def connect(self, peer: Peer, seat: int) -> None:
        """Add a connection of ``seat``; RoomClosed if this room object was forgotten."""
        async with self._open():
            await self._catch_up()
            self.peers[seat].add(peer)
            await self._mark_presence(seat, True)
            with use_language(peer_language(peer)):
                peer.push(self.welcome(seat))
                peer.push(self.state_message(seat, "connect", None))
            self._broadcast_presence()
        self.start_computer()

    async def disconnect(self, peer: Peer, seat: int) -> None:
        async with self.lock:
            self.last_active = time.monotonic()
            self.peers[seat].discard(peer)
            gone = not self.peers[seat]
            if gone:
                self.last_seen[seat] = time.time()
            self._broadcast_presence()
        if gone and self.mode == FRIEND_MODE:
            # written in a task of its own: a closing connection's handler may be cancelled
            task = asyncio.get_running_loop().create_task(self._mark_gone(seat))
            self.writes.add(task)
            task.add_done_callback(self.writes.discard)

    async def _mark_gone(self, seat: int) -> None:
        """Write that this instance no longer holds a connection of ``seat`` (unless one
        came back meanwhile)."""
        await self._mark_presence(seat, bool(self.peers[seat]))

    async def refresh_seats(self) -> None:
        """Read the seats again from the store (a friend may have joined through another
        server process); the match itself is caught up from the log as usual."""
        async with self._open():
            await self._reload_seats()

    async def _reload_seats(self) -> None:
        """:meth:`refresh_seats` under the room's lock."""
        try:
            stored = await self.lobby.run(self.lobby.store.load_match, self.header.id)
        except StoreUnavailable:
            return
        if stored is None or stored.header.meta == self.table.meta:
            return
        meta = stored.header.meta
        for seat in (0, 1):
            if meta.seats[seat] != self.table.seats[seat]:
                self.table.take_seat(seat, meta.seats[seat], meta.tokens[seat])
        self.header = replace(self.header, meta=self.table.meta)

    def drop(self, peer: Peer) -> None:
        """Forget a connection that was closed for not keeping up (no lock: no await)."""
        for peers in self.peers:
            peers.discard(peer)

    async def info(self, seat: int) -> dict[str, Any]:
        """What ``GET /api/rooms/<room>`` answers (``web-protocol.md`` 3.4)."""
        async with self._open():
            match = self.table.match_view()
        return {
            "room": self.code,
            "seat": seat,
            "mode": self.mode,
            "level": self.level,
            "players": self.names,
            "match": match,
            "finished": match["over"],
        }

    async def handle(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        """Carry out one page message; RoomError when it is refused (nothing changed)."""
        handler = self._handlers[type(message)]
        try:
            await handler(self, peer, seat, message)
        except StoreConflict:
            async with self._open():
                await self._reload()
            raise RoomError(
                "conflict", _("The game changed meanwhile: here it is as it stands now.")
            ) from None
        finally:
            self.start_computer()

    # ----------------------------------------------------------------- requests

    async def _ping(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        peer.push(messages.Pong(reply_to=message.id))

    async def _sync(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        async with self._open():
            await self._catch_up()
            with use_language(peer_language(peer)):
                peer.push(self.state_message(seat, "sync", message.id))

    async def _move(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        assert isinstance(message, MoveMessage)
        if self.mode == FRIEND_MODE and not self.is_full():
            await self.refresh_seats()  # the friend may have joined through another process
            if not self.is_full():
                raise RoomError("waiting_for_opponent", _("Wait for your friend to join."))
        text = message.move
        await self._request(lambda: self.table.check_move(seat, text), peer, message.id)

    async def _hint(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        async with self._open():
            step = await self._checked(lambda: self.table.check_hint(seat))
            with use_language(peer_language(peer)):  # the thread runs in a copy of it
                suggestion = await asyncio.to_thread(self.table.suggest, seat)
            # a hint leaves the same mark as undo, as in the terminal game
            if not self.table.is_assisted:
                await self._commit(step)
            peer.push(
                messages.Hint(
                    reply_to=message.id,
                    moves=[str(move) for move in suggestion.moves],
                    reason=suggestion.reason,
                )
            )

    async def _undo(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        await self._request(lambda: self.table.check_undo(seat), peer, message.id)

    async def _resign(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        await self._request(lambda: self.table.check_resign(seat), peer, message.id)

    async def _new_game(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        await self._request(self.table.check_deal, peer, message.id)

    async def _new_match(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        assert isinstance(message, NewMatchMessage)
        async with self._open():
            await self._catch_up()
            table = self.table
            changes = message.level is not None or message.rules is not None
            if self.mode == FRIEND_MODE:
                if changes or message.preset is not None:
                    raise RoomError("invalid", _("A friend room keeps its level and rules."))
                if message.seed is not None:
                    # a seed's chooser would know every hidden card: the server deals alone
                    raise RoomError(
                        "invalid", _("A game between people is dealt by the server: no seed.")
                    )
                # between friends a new match takes both: it is a rematch offer (4.2)
                await self._offer_rematch(peer, seat, message.id)
                return
            level = self.level
            if message.level is not None:
                if not is_level(message.level):
                    raise RoomError("invalid", unknown_level(message.level))
                level = message.level
            rules = table.rules
            if message.rules is not None or message.preset is not None:
                rules = make_rules(message.rules, message.preset)
            if table.status == "playing" and table.is_dealt and not table.is_game_over:
                # the unfinished match is given up: its game counts as lost by the asker
                await self._commit(table.check_resign(seat))
            await self._start_match(rules, level, message.seed, peer, message.id)

    async def _start_match(
        self,
        rules: Rules,
        level: str | None,
        seed: int | None,
        peer: Peer | None,
        reply_to: int | str | None,
    ) -> None:
        """Store and deal a new match at this table (the same seats and tokens), under the
        room's lock, and announce it (``cause`` ``new_match``)."""
        table = self.table
        fresh = table.rematch(rules=rules, level=level, seed=seed)
        header = replace(
            self.header,
            id=new_match_id(),
            rules=rules,
            meta=fresh.meta,
            seed=seed,
            status="playing",
            score=(0, 0),
            game_number=0,
        )
        deal = fresh.check_deal()
        try:
            header = await self.lobby.run(self.lobby.store.create_match, header, deal)
        except StoreUnavailable:
            fresh.close()
            raise store_unavailable() from None
        fresh.apply(deal)
        table.close()
        self.table, self.header = fresh, header
        self.generation += 1
        self._broadcast_state("new_match", peer, reply_to)

    # ----------------------------------------------------------------- friend games

    def _check_rematch(self) -> None:
        if self.mode != FRIEND_MODE:
            raise RoomError("invalid", _("A rematch is for games between friends: use new_match."))
        table = self.table
        if not table.match.is_over and table.status != "abandoned":
            raise RoomError("match_not_over", _("The match is not over yet."))

    async def _rematch(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        async with self._open():
            await self._catch_up()
            await self._offer_rematch(peer, seat, message.id)

    async def _offer_rematch(self, peer: Peer, seat: int, reply_to: int | str | None) -> None:
        """Offer a rematch, or accept the friend's offer: then the new match starts, with
        the same two players and rules (under the room's lock)."""
        self._check_rematch()
        meta = self.table.meta
        if meta.rematch == 1 - seat:
            await self._start_match(self.table.rules, None, None, peer, reply_to)
            return
        if meta.rematch != seat:
            await self._save_meta(replace(meta, rematch=seat, declined=None))
        self._broadcast_state("rematch", peer, reply_to)

    async def _decline_rematch(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        async with self._open():
            await self._catch_up()
            self._check_rematch()
            meta = self.table.meta
            if meta.rematch is None:
                raise RoomError("no_offer", _("Nobody has offered a rematch."))
            # declining the friend's offer, or taking back one's own
            declined = seat if meta.rematch != seat else None
            await self._save_meta(replace(meta, rematch=None, declined=declined))
            self._broadcast_state("rematch", peer, message.id)

    async def _save_meta(self, meta: TableMeta) -> None:
        """Store the table's meta (a rematch offer); nothing changes when the store fails.
        Other instances hear of it through the fan-out and reload the room."""
        header = replace(self.header, meta=meta)
        try:
            await self.lobby.run(self.lobby.store.update_header, header)
        except StoreUnavailable:
            raise store_unavailable() from None
        self.table.meta, self.header = meta, header

    async def _claim(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        """Claim the game when the friend has been offline (no connection to any instance,
        as the store's presence rows say) for :func:`claim_seconds`."""
        async with self._open():
            await self._catch_up()
            step = self.table.check_claim(seat)  # friend rooms, a game being played
            friend = 1 - seat
            try:
                rows = await self.lobby.run(self.lobby.store.presence, [self.code])
            except StoreUnavailable:
                raise store_unavailable() from None
            self.learn_presence(rows.get(self.code, []))
            away = self.away()[friend]
            needed = claim_seconds()
            if away is None:
                raise RoomError(
                    "friend_online",
                    # TRANSLATORS: {needed} is a duration: "3 minutes", "20 seconds"
                    _(
                        "Your friend is connected, so the game cannot be claimed. A game can "
                        "be claimed once your friend has been offline for {needed}.",
                        needed=minutes(needed),
                    ),
                )
            if away < needed:
                raise RoomError(
                    "too_soon",
                    # TRANSLATORS: {away} and {needed} are durations: "3 minutes", "20 seconds"
                    _(
                        "Your friend has been offline for {away}. You can claim the game once "
                        "they have been offline for {needed}.",
                        away=minutes(away),
                        needed=minutes(needed),
                    ),
                )
            applied = await self._commit(step)
            self._announce(applied, peer, message.id)

    async def give_up(self, seat: int) -> dict[str, Any]:
        """Give up the unfinished match from the lobby (``web-protocol.md`` 3.6): it ends
        as a resignation, so its current game counts as lost by ``seat`` for no points.
        Between two games the next game is dealt first, so that the give-up still counts
        as a lost game (the same loss that ``new_match`` in the middle counts)."""
        async with self._open():
            await self._catch_up()
            table = self.table
            if table.status != "playing":
                raise RoomError("match_over", _("This match is over already."))
            if table.is_game_over:
                self._announce(await self._commit(table.check_deal()), None, None)
            applied = await self._commit(table.check_resign(seat))
            self._announce(applied, None, None)
            return {"room": self.code, "seat": seat, "status": table.status}

    async def join(self, player: str, name: str) -> str:
        """Seat the friend in seat 1; return its token."""
        async with self._open():
            await self._catch_up()
            if self.mode != FRIEND_MODE:
                raise RoomError("not_a_friend_room", _("This is a game against the computer."))
            if self.is_full():
                raise RoomError("room_full", _("This room already has two players."))
            if limits.is_expired(self.header.created_at):
                raise RoomError("expired", _("This invitation has expired."))
            token = new_token()
            table = self.table
            before, names = table.meta, table.match.players
            table.take_seat(1, Seat("friend", name, player), hash_token(token))
            table.meta = replace(table.meta, joined_at=time.time())  # the claim clock's start
            header = replace(self.header, meta=table.meta)
            try:
                # only an empty seat is taken: a join through another process may have won
                claimed = await self.lobby.run(self.lobby.store.claim_seat, header, 1)
            except StoreUnavailable:
                table.meta, table.match.players = before, names
                raise store_unavailable() from None
            if not claimed:
                table.meta, table.match.players = before, names
                await self._reload_seats()
                raise RoomError("room_full", _("This room already has two players."))
            self.header = header
            self._broadcast_state("joined", None, None)
            return token

    _handlers: ClassVar[dict[type[Any], Handler]] = {
        PingMessage: _ping,
        SyncMessage: _sync,
        MoveMessage: _move,
        HintMessage: _hint,
        UndoMessage: _undo,
        ResignMessage: _resign,
        RematchMessage: _rematch,
        DeclineRematchMessage: _decline_rematch,
        ClaimMessage: _claim,
        NewGameMessage: _new_game,
        NewMatchMessage: _new_match,
    }
    """The one dispatch table: page message type to its handler."""

    # ----------------------------------------------------------------- the steps

    async def _request(
        self, check: Callable[[], Step], peer: Peer | None, reply_to: int | str | None
    ) -> Applied:
        """Check, store, apply and announce one step, under the room's lock."""
        async with self._open():
            step = await self._checked(check)
            for _attempt in range(RETRIES):
                try:
                    if await self._answers_at_once(step, peer):
                        return await self._commit_with_computer(step, peer, reply_to)
                    applied = await self._commit(step)
                except StoreConflict:
                    await self._reload()
                    step = check()
                    continue
                self._announce(applied, peer, reply_to)
                return applied
            raise store_unavailable()

    async def _checked(self, check: Callable[[], Step]) -> Step:
        """``check()``, again after catching up with the log when the refusal may only
        mean that another process moved on."""
        try:
            return check()
        except TableError as error:
            if error.code not in STALE_CODES or not await self._catch_up():
                raise
        return check()

    async def _commit(self, step: Step) -> Applied:
        """Store the step, then apply it; nothing changes when the store fails."""
        asked, renew = time.monotonic(), self._lease_to_renew()
        try:
            if await self.lobby.append(self.header, step, renew):
                self._lease_renewed(asked)
        except StoreUnavailable:
            log.warning("room %s: the store failed; step %s refused", self.code, step.kind)
            raise store_unavailable() from None
        return self.table.apply(step)

    async def _catch_up(self) -> bool:
        """Reload the match when the log is ahead of this table; whether it was."""
        try:
            head = await self.lobby.run(self.lobby.store.head, self.header.id)
        except StoreUnavailable:
            return False
        if head == (self.table.game_number, self.table.plies):
            return False
        await self._reload()
        return True

    async def _reload(self) -> None:
        """Rebuild the table from the log (another process wrote to it) and tell the seats."""
        code = self.code
        match_id = await self.lobby.run(self.lobby.store.latest_in_room, code)
        stored = await self.lobby.run(self.lobby.store.load_match, match_id or self.header.id)
        if stored is None:
            return
        old, old_id = self.table, self.header.id
        self.table, self.header = self._restore(stored), stored.header
        if stored.header.id != old_id:
            self.generation += 1  # a new match: a computer turn of the old one stops
        old.close()
        self._broadcast_state("reload", None, None)

    # ----------------------------------------------------------------- other instances

    def follow(self) -> None:
        """Bring the table up to the log soon (another instance stored a step of this room);
        announcements that arrive meanwhile are folded into one more round."""
        task = self.follow_task
        if task is not None and not task.done():
            self._follow_again = True
            return
        self.follow_task = asyncio.get_running_loop().create_task(self._following())

    async def _following(self) -> None:
        while True:
            self._follow_again = False
            try:
                async with self._open(use=False):  # following is no use: the room may idle
                    await self._follow_log()
            except RoomClosed:
                return
            except StoreError as error:
                log.warning("room %s: could not follow the log: %s", self.code, error)
            self.start_computer()
            if not self._follow_again:
                return

    async def _follow_log(self) -> None:
        """Apply the steps stored since this table's last one and announce each, as if they
        were played here; reload the whole match when that is not possible (a new match, a
        friend seated, or a step this table refuses)."""
        header, table = self.header, self.table
        steps = await self.lobby.run(
            self.lobby.store.steps_after, header.id, table.game_number, table.plies - 1
        )
        latest = await self.lobby.run(self.lobby.store.latest_in_room, self.code)
        if not steps or latest != header.id:
            await self._reload()
            return
        for step in steps:
            try:
                applied = table.apply(step)
            except (TableError, SpiteMaliceError) as error:
                log.warning("room %s: a stored step does not apply here: %s", self.code, error)
                await self._reload()
                return
            self._announce(applied, None, None)

    def _announce(self, applied: Applied, origin: Peer | None, reply_to: int | str | None) -> None:
        step = applied.step
        if step.kind == MOVE and applied.move is not None:
            assert step.seat is not None
            self._broadcast_update(step.seat, str(applied.move), applied.events, origin, reply_to)
        elif step.kind == DEAL:
            self._broadcast_state("new_game", origin, reply_to)
        elif step.kind in (UNDO, HINT, CLAIM):
            self._broadcast_state(step.kind, origin, reply_to)
        else:
            self._broadcast_state("resign", origin, reply_to)

    # ----------------------------------------------------------------- the computer

    def start_computer(self) -> None:
        """Let the computer play its turn in the background, when it is to move and a seat
        of the room is connected here. The computer plays where the room is watched: the
        instance that made a room (its page then connects to another) or that only follows
        it leaves the turn to the instance the seats are on; a seat connecting starts it."""
        if not self.table.computer_to_move or not (self.peers[0] or self.peers[1]):
            return
        task = self.computer_task
        if task is not None and not task.done() and self.computer_generation == self.generation:
            return  # already playing this match's turn (an older match's task stops itself)
        self.computer_generation = self.generation
        self.computer_task = asyncio.get_running_loop().create_task(self._computer_turn())

    async def _computer_turn(self) -> None:
        """Play the computer's turn, holding the room's lease so that exactly one instance on
        the database plays it; when another instance holds it, wait (its moves arrive through
        the fan-out) and take over if its lease runs out. The lease is kept after the turn
        (renewed at the next one, or left to run out), so a room played on one instance asks
        the database for it about once per :data:`LEASE_SECONDS`, not at every turn."""
        generation = self.generation
        with contextlib.suppress(RoomClosed):
            # Again while the computer is to move: the person may have played meanwhile,
            # when this task still looked busy.
            while generation == self.generation and self.table.computer_to_move:
                if not await self._take_lease():
                    return
                reached = (self.table.game_number, self.table.plies)
                self.lease_lost = False
                renewing = asyncio.get_running_loop().create_task(self._keep_lease())
                try:
                    await self._computer_moves()
                finally:
                    renewing.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await renewing
                if self.lease_lost or (self.table.game_number, self.table.plies) == reached:
                    return  # another instance plays on, or the turn failed (logged)

    async def _take_lease(self) -> bool:
        """Wait for the lease on this room's computer turns; False when the computer is no
        longer to move (another instance played its turn) or a new match began."""
        generation = self.generation
        store, owner = self.lobby.store, self.lobby.instance
        while True:
            if self.lease_until - time.monotonic() >= LEASE_MARGIN_SECONDS:
                # still ours: nobody else played here meanwhile, nothing to catch up with
                async with self._open():
                    return generation == self.generation and self.table.computer_to_move
            head: tuple[int, int] | None = None
            asked = time.monotonic()
            try:
                taken, head = await self.lobby.run(
                    store.take_lease, self.code, owner, LEASE_SECONDS, self.header.id
                )
            except StoreError as error:
                # retried below; said, so that a database that keeps failing is seen
                log.warning("room %s: could not take the computer's lease: %s", self.code, error)
                taken = False
            if taken:
                self.lease_until = asked + LEASE_SECONDS
            async with self._open():
                # what the previous holder stored, or what the holder stores meanwhile
                if head is None:
                    await self._catch_up()
                elif head != (self.table.game_number, self.table.plies):
                    await self._reload()
                if generation != self.generation or not self.table.computer_to_move:
                    return False
            if taken:
                return True
            await asyncio.sleep(LEASE_RETRY_SECONDS)

    async def _keep_lease(self) -> None:
        store, owner = self.lobby.store, self.lobby.instance
        while True:
            await asyncio.sleep(LEASE_RENEW_SECONDS)
            asked = time.monotonic()
            try:
                kept = await self.lobby.run(store.acquire_lease, self.code, owner, LEASE_SECONDS)
            except StoreError:
                kept = True  # the database hiccuped; the lease is still ours until it expires
            else:
                if kept:
                    self.lease_until = asked + LEASE_SECONDS
            if not kept:
                log.warning("room %s: another instance took over the computer's turn", self.code)
                self.lease_lost = True
                self.lease_until = 0.0
                return

    async def release_lease(self) -> None:
        """Give back the lease this instance keeps between computer turns (the lobby forgets
        the room, or the server stops), so another instance need not wait for it to run
        out."""
        if self.lease_until <= time.monotonic():
            return
        self.lease_until = 0.0
        with contextlib.suppress(StoreError):
            await self.lobby.run(self.lobby.store.release_lease, self.code, self.lobby.instance)

    async def _think(self, table: Table) -> Move:
        """The computer's next move: on the event loop when its last decision was quick
        (:data:`QUICK_THINK_SECONDS`), else on a worker thread (in a copy of this task's
        context, so the same language either way)."""
        last = self.think_seconds
        if last is not None and last < QUICK_THINK_SECONDS:
            move, self.think_seconds = _timed_think(table)
        else:
            move, self.think_seconds = await asyncio.to_thread(_timed_think, table)
        return move

    def _thinks_quickly(self) -> bool:
        """Whether the computer's next decision is thought on the event loop (its last one
        took under :data:`QUICK_THINK_SECONDS`)."""
        last = self.think_seconds
        return last is not None and last < QUICK_THINK_SECONDS

    async def _computer_moves(self) -> None:
        generation = self.generation
        announced = False
        failures = 0
        while True:
            async with self._open():
                table = self.table
                if generation != self.generation or not table.computer_to_move:
                    return
                quick = self._thinks_quickly()
                if not announced and not quick:
                    # a turn that takes a while is said at once; the seats' states say it too
                    # (state.thinking, which the page shows), and a quick turn's moves follow
                    # at once, so a frame of its own would tell them nothing new
                    announced = True
                    self._broadcast(messages.Thinking(seat=COMPUTER_SEAT))
            # a slow decision is thought on a worker thread, the room free meanwhile
            move = None if quick else await self._think(table)
            async with self._open():
                if generation != self.generation or self.table is not table or self.lease_lost:
                    return
                try:
                    await self._play_computer(table, move)
                except StoreConflict:
                    await self._reload()
                    continue
                except RoomError as error:
                    if error.code != "store_unavailable" or failures >= COMPUTER_RETRIES:
                        log.warning("room %s: the computer's move failed: %s", self.code, error)
                        return
                    failures += 1
                else:
                    failures = 0
            if failures:  # the store failed: the same moves are thought again after a pause
                await asyncio.sleep(min(0.05 * 2**failures, 2.0))

    async def _play_computer(self, table: Table, move: Move | None) -> None:
        """Under the room's lock: the computer's moves from ``move`` (thought already, or
        None: thought here), and its next ones while its decisions are quick, applied to the
        table one by one and stored together as one entry of the group commit (a turn is
        one write, not one a move), then announced in order, one update each as before. A
        move that ends the game is stored on its own after them (its write carries the
        finished game). When the store refuses them the table goes back to its last stored
        step and nothing is announced."""
        point = table.savepoint()
        try:
            turn = self._computer_plays(table, move)
        except BaseException:
            table.roll_back(point)  # whatever failed, the table stays as stored
            raise
        if turn.steps:
            await self._store_applied(table, point, turn.steps)
            for peer, message in turn.updates:
                peer.push(message)
        if turn.last is not None:
            self._announce(await self._commit(turn.last), None, None)

    def _computer_plays(self, table: Table, move: Move | None) -> ComputerTurn:
        """The computer's moves from ``move`` (or thought here), while its decisions are
        quick, applied to the table (not stored: the caller stores them, or rolls back),
        with their updates made just after each move; a move that ends the game is only
        checked (``last``: stored on its own). TableError if the first move is refused."""
        turn = ComputerTurn()
        try:
            while True:
                if move is None:
                    move, self.think_seconds = _timed_think(table)
                step = table.check_move(COMPUTER_SEAT, move)
                if step.finished is not None:
                    turn.last = step
                    break
                applied = table.apply(step)
                assert applied.move is not None
                # each update carries the state just after its own move, sent once stored
                turn.steps.append(step)
                turn.updates.extend(self._updates(COMPUTER_SEAT, str(applied.move), applied.events))
                move = None
                if not table.computer_to_move or not self._thinks_quickly():
                    break
        except TableError:
            if not turn.steps:
                raise
            # the moves before it stand: stored by the caller; the refusal comes again
        return turn

    async def _store_applied(self, table: Table, point: Savepoint, steps: list[Step]) -> None:
        """Store steps already applied to the table since ``point``, as one entry of the
        group commit; when the store refuses them the table goes back to ``point`` (as
        stored: nothing of them was) and the refusal is raised."""
        asked, renew = time.monotonic(), self._lease_to_renew()
        try:
            if await self.lobby.append_steps(self.header, tuple(steps), renew):
                self._lease_renewed(asked)
        except BaseException as error:
            table.roll_back(point)
            if isinstance(error, StoreUnavailable):
                log.warning("room %s: the store failed; %d steps refused", self.code, len(steps))
                raise store_unavailable() from None
            raise

    async def _answers_at_once(self, step: Step, peer: Peer | None) -> bool:
        """Whether the person's ``step`` is a discard that hands the turn to a quick
        computer this instance surely holds the lease for: then the computer's turn is
        played at once, and stored in the same write as the discard. A lease this instance
        keeps with less than :data:`LEASE_MARGIN_SECONDS` left (or one run out) is taken
        again here first, so that the turn need not go through a task of its own."""
        if self.mode != COMPUTER_MODE or peer is None or step.kind != MOVE:
            return False
        if step.finished is not None or step.seat != PERSON_SEAT or step.move is None:
            return False
        task = self.computer_task
        if not (
            self._thinks_quickly()
            and (task is None or task.done())
            and "-S" in step.move  # a discard (to a side stack): the turn ends (R2.3)
        ):
            return False
        if self.lease_until - time.monotonic() < LEASE_MARGIN_SECONDS:
            await self._take_lease_now()
        return self.lease_until - time.monotonic() >= LEASE_MARGIN_SECONDS

    def _lease_to_renew(self) -> float | None:
        """How long the room's next write should renew the computer's lease for: the
        lease's length when this instance holds it with less than
        :data:`LEASE_RENEW_IN_WRITES_SECONDS` left, else None (not held, or fresh)."""
        if self.mode != COMPUTER_MODE:
            return None
        left = self.lease_until - time.monotonic()
        return LEASE_SECONDS if 0 < left < LEASE_RENEW_IN_WRITES_SECONDS else None

    def _lease_renewed(self, asked: float) -> None:
        """A write asked for at ``asked`` renewed the lease (from its commit, later)."""
        self.lease_until = max(self.lease_until, asked + LEASE_SECONDS)

    async def _take_lease_now(self) -> None:
        """Take (or renew) the computer's lease in one call, for a discard about to hand
        the turn to the computer (the caller holds the room's lock): held, it lasts
        :data:`LEASE_SECONDS` more; refused (another instance holds it) or failed, nothing
        changes and the computer's turn goes through its own task, as before. A log that
        moved on meanwhile is left to the discard's write, which then conflicts."""
        store = self.lobby.store
        asked = time.monotonic()
        try:
            taken, _head = await self.lobby.run(
                store.take_lease, self.code, self.lobby.instance, LEASE_SECONDS, self.header.id
            )
        except StoreError:
            return
        if taken:
            self.lease_until = asked + LEASE_SECONDS

    async def _commit_with_computer(
        self, step: Step, peer: Peer | None, reply_to: int | str | None
    ) -> Applied:
        """The person's turn-ending discard and the quick computer's whole turn after it,
        stored in one write (one entry of the group commit instead of two, and no task for
        the computer's turn), then the discard's update and the computer's, in order, as
        they would have gone out one after the other. The discard is acknowledged only once
        both are stored; nothing changes when the store refuses them."""
        table = self.table
        point = table.savepoint()
        try:
            applied = table.apply(step)
            assert applied.move is not None
            mine = self._updates(step.seat or 0, str(applied.move), applied.events, peer, reply_to)
            turn = ComputerTurn()
            if table.computer_to_move:
                with contextlib.suppress(TableError):  # refused: its own turn plays it, as before
                    turn = self._computer_plays(table, None)
        except BaseException:
            table.roll_back(point)  # whatever failed, the table stays as stored
            raise
        await self._store_applied(table, point, [step, *turn.steps])
        for to, message in [*mine, *turn.updates]:
            to.push(message)
        if turn.last is not None:
            try:  # the computer's move that ends the game, stored on its own
                self._announce(await self._commit(turn.last), None, None)
            except (RoomError, StoreConflict) as error:
                # the discard stands; the computer's own turn (started after this request)
                # plays that move again, or catches up with the log
                log.warning("room %s: the computer's last move waits: %s", self.code, error)
        return applied

    # ----------------------------------------------------------------- sending

    def _broadcast(self, message: messages.ServerMessage) -> None:
        for peers in self.peers:
            for peer in list(peers):
                peer.push(message)

    def announce_presence(self) -> None:
        """Tell every connection which seats are connected now (no lock: no await)."""
        self._broadcast_presence()

    def _broadcast_presence(self) -> None:
        self._broadcast(messages.Presence(connected=self.connected(), away=self.away()))

    def _broadcast_state(self, cause: str, origin: Peer | None, reply_to: int | str | None) -> None:
        for seat, peers in enumerate(self.peers):
            made: dict[str | None, messages.State] = {}  # one per language of the seat's peers
            for peer in list(peers):
                language = peer_language(peer)
                message = made.get(language)
                if message is None:
                    with in_language(language):
                        message = made[language] = self.state_message(seat, cause, None)
                if peer is origin:
                    peer.push(message.model_copy(update={"reply_to": reply_to}))
                else:
                    peer.push(message)

    def _broadcast_update(
        self,
        mover: int,
        move: str,
        events: list[Event],
        origin: Peer | None,
        reply_to: int | str | None,
    ) -> None:
        for peer, message in self._updates(mover, move, events, origin, reply_to):
            peer.push(message)

    def _updates(
        self,
        mover: int,
        move: str,
        events: list[Event],
        origin: Peer | None = None,
        reply_to: int | str | None = None,
    ) -> list[tuple[Peer, messages.Update]]:
        """The update of a move for every connection, with the state as it stands now
        (just after the move): made now, sent now or (a computer's turn) once stored."""
        made_for: list[tuple[Peer, messages.Update]] = []
        for seat, peers in enumerate(self.peers):
            made: dict[str | None, messages.Update] = {}  # one per language of the seat's peers
            for peer in list(peers):
                language = peer_language(peer)
                message = made.get(language)
                if message is None:
                    with in_language(language):
                        # built from our own data: pydantic's checks skipped (as in State)
                        message = made[language] = messages.Update.model_construct(
                            seat=mover,
                            move=move,
                            events=public_events(events, seat),
                            state=self.state_for(seat),
                        )
                if peer is origin:
                    message = message.model_copy(update={"reply_to": reply_to})
                made_for.append((peer, message))
        return made_for

    def close(self) -> None:
        self.table.close()


@dataclass
class ComputerTurn:
    """The computer's moves applied to a table but not yet stored (:meth:`Room._computer_plays`):
    their steps, the updates to send once they are stored, and a move that ends the game,
    checked only (it is stored on its own)."""

    steps: list[Step] = field(default_factory=list)
    updates: list[tuple[Peer, messages.Update]] = field(default_factory=list)
    last: Step | None = None


def _timed_think(table: Table) -> tuple[Move, float]:
    """``table.think()`` and the seconds it took."""
    started = time.perf_counter()
    move = table.think()
    return move, time.perf_counter() - started


def computer_seats(name: str, player: str, level: str) -> tuple[Seat, Seat]:
    from ..table import level_label

    return (Seat("person", name, player), Seat(COMPUTER, level_label(level)))


def friend_seats(name: str, player: str) -> tuple[Seat, Seat]:
    return (Seat("person", name, player), Seat("friend"))


__all__ = [
    "COMPUTER_MODE",
    "FRIEND_MODE",
    "MatchHeader",
    "Peer",
    "Room",
    "RoomClosed",
    "RoomError",
    "hash_token",
    "make_rules",
    "new_match_id",
    "new_token",
]
