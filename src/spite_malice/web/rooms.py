"""Rooms: a :class:`~spite_malice.table.Table` served to the connections of its two seats.

A room is transport only: it turns page messages into table requests and hands them to the
parts it is made of, each in a module of its own:

- ``room_steps``: the step pipeline (check, store in the move log, apply; catching up with
  and following the log other instances write);
- ``computer_player``: the computer's turns, thought and played, and the lease on them;
- ``presence``: which seats are connected, here or elsewhere, and for how long one is away;
- ``broadcast``: what each seat may see (R6) and sending it to every connection;
- ``friend_games``: a friend room's rematch, join and claim;
- ``stranger_games``: a rated match between strangers' clock, abort and claim;
- ``match_log``: the room's one way to the store.

A move's walk: :meth:`Room.handle` -> ``_move`` -> :meth:`StepPipeline.request` (the
table checks it, :meth:`MatchLog.append` stores it through the group commit, the table
applies it) -> :meth:`Broadcaster.announce` (one update a connection) -> back to the socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from typing import Any, ClassVar, Protocol

from ..engine.errors import SpiteMaliceError, quote
from ..engine.game import Game
from ..engine.rules import PRESETS, Rules
from ..i18n import _, use_language
from ..store import MatchHeader, SeatPresence, StoreConflict, StoredMatch, StoreUnavailable
from ..table import COMPUTER, Seat, is_level, levels
from . import limits, messages, validation
from .broadcast import Broadcaster
from .computer_player import LEASE_MARGIN_SECONDS, ComputerPlayer, ComputerTurn
from .friend_games import FriendGames
from .match_log import MatchLog
from .notifications import Notices
from .presence import CLAIM_ENV, CLAIM_SECONDS, Presence, claim_seconds, minutes
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
)
from .room_common import (
    COMPUTER_MODE,
    COMPUTER_SEAT,
    FRIEND_MODE,
    PERSON_SEAT,
    STORE_UNAVAILABLE,
    Peer,
    RoomClosed,
    RoomError,
    hash_token,
    new_token,
    peer_language,
    store_unavailable,
)
from .room_steps import StepPipeline, restore
from .stranger_games import StrangerGames


class RoomHost(Protocol):
    """What a room needs of the server holding it (the lobby, ``web/lobby.py``), so that
    rooms do not depend on the lobby that makes them: the match log (the room's way to the
    store: its log, the group commit, leases and presence)."""

    log: MatchLog


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
    """One table and the connections that play it: the request handlers, the seats'
    connections and the friend games' rematch, join and claim; the rest is its parts'."""

    def __init__(self, lobby: RoomHost, stored: StoredMatch) -> None:
        assert stored.header.room is not None
        self.log: MatchLog = lobby.log
        self.code: str = stored.header.room
        self.header = stored.header
        self.table = restore(stored)
        self.lock = asyncio.Lock()
        self.peers: tuple[set[Peer], set[Peer]] = (set(), set())
        self.generation = 0
        """Bumped by every new match, so a computer turn of an earlier match stops."""
        self.closed = False
        """Set by the lobby when it forgets this object; the room lives on in the store."""
        self.last_active = time.monotonic()
        self.writes: set[asyncio.Task[None]] = set()
        """Presence writes in flight (the lobby waits for them when it closes)."""
        self.presence = Presence(self)
        self.broadcaster = Broadcaster(self)
        self.computer = ComputerPlayer(self)
        self.steps = StepPipeline(self)
        self.friends = FriendGames(self)
        self.strangers = StrangerGames(self, getattr(lobby, "fair_play", None))
        self.notices = Notices(
            self, getattr(lobby, "notifier", None), getattr(lobby, "turns", None)
        )
        turns = getattr(lobby, "turns", None)
        self.broadcaster.extra = (
            self.strangers.view
            if turns is None
            else lambda seat: self.strangers.view(seat) | turns.view(self)
        )
        self.broadcaster.watch = self.notices.applied

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

    @property
    def computer_task(self) -> asyncio.Task[None] | None:
        return self.computer.task

    @property
    def follow_task(self) -> asyncio.Task[None] | None:
        return self.steps.follow_task

    @property
    def lease_until(self) -> float:
        """Until when (``time.monotonic()``) this instance surely holds the room's lease."""
        return self.computer.lease_until

    @lease_until.setter
    def lease_until(self, until: float) -> None:
        self.computer.lease_until = until

    @property
    def think_seconds(self) -> float | None:
        return self.computer.think_seconds

    @property
    def last_seen(self) -> list[float | None]:
        return self.presence.last_seen

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
        """Whether each seat has a connection open (:meth:`Presence.connected`)."""
        return self.presence.connected()

    def away(self) -> list[float | None]:
        """Seconds each seat of a friend room has been offline (:meth:`Presence.away`)."""
        return self.presence.away()

    def learn_presence(self, rows: list[SeatPresence]) -> None:
        """Take in the store's presence rows of this room (every instance's word)."""
        self.presence.learn(rows)

    def announce_presence(self) -> None:
        """Tell every connection which seats are connected now (no lock: no await)."""
        self.broadcaster.presence()

    def start_computer(self) -> None:
        """Let the computer play its turn in the background (:meth:`ComputerPlayer.start`)."""
        self.computer.start()

    async def release_lease(self) -> None:
        """Give back the computer-turn lease this instance keeps between turns."""
        await self.computer.release_lease()

    def follow(self) -> None:
        """Bring the table up to the log soon (another instance stored a step of this room)."""
        self.steps.follow()

    def close(self) -> None:
        self.strangers.stop()
        self.table.close()

    # ----------------------------------------------------------------- connections

    @contextlib.asynccontextmanager
    async def opened(self, *, use: bool = True) -> AsyncIterator[None]:
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
        async with self.opened():
            await self.steps.catch_up()
            self.peers[seat].add(peer)
            await self.presence.mark(seat, True)
            with use_language(peer_language(peer)):
                peer.push(self.broadcaster.welcome(seat))
                peer.push(self.broadcaster.state_message(seat, "connect", None))
            self.broadcaster.presence()
        self.computer.start()
        self.strangers.start()

    async def disconnect(self, peer: Peer, seat: int) -> None:
        async with self.lock:
            self.last_active = time.monotonic()
            self.peers[seat].discard(peer)
            gone = not self.peers[seat]
            if gone:
                self.presence.last_seen[seat] = time.time()
            self.broadcaster.presence()
        if gone and self.mode == FRIEND_MODE:
            # written in a task of its own: a closing connection's handler may be cancelled
            task = asyncio.get_running_loop().create_task(self._mark_gone(seat))
            self.writes.add(task)
            task.add_done_callback(self.writes.discard)

    async def _mark_gone(self, seat: int) -> None:
        """Write that this instance no longer holds a connection of ``seat`` (unless one
        came back meanwhile)."""
        await self.presence.mark(seat, bool(self.peers[seat]))

    async def refresh_seats(self) -> None:
        """Read the seats again from the store (a friend may have joined through another
        server process); the match itself is caught up from the log as usual."""
        async with self.opened():
            await self.reload_seats()

    async def reload_seats(self) -> None:
        """:meth:`refresh_seats` under the room's lock."""
        try:
            stored = await self.log.load_match(self.header.id)
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
        async with self.opened():
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
            async with self.opened():
                await self.steps.reload()
            raise RoomError(
                "conflict", _("The game changed meanwhile: here it is as it stands now.")
            ) from None
        finally:
            self.computer.start()

    # ----------------------------------------------------------------- requests

    async def _ping(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        peer.push(messages.Pong(reply_to=message.id))

    async def _sync(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        async with self.opened():
            await self.steps.catch_up()
            with use_language(peer_language(peer)):
                peer.push(self.broadcaster.state_message(seat, "sync", message.id))

    async def _move(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        assert isinstance(message, MoveMessage)
        if self.mode == FRIEND_MODE and not self.is_full():
            await self.refresh_seats()  # the friend may have joined through another process
            if not self.is_full():
                raise RoomError("waiting_for_opponent", _("Wait for your friend to join."))
        text = message.move
        await self.steps.request(lambda: self.table.check_move(seat, text), peer, message.id)

    async def _hint(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        async with self.opened():
            step = await self.steps.checked(lambda: self.table.check_hint(seat))
            with use_language(peer_language(peer)):  # the thread runs in a copy of it
                suggestion = await asyncio.to_thread(self.table.suggest, seat)
            # a hint leaves the same mark as undo, as in the terminal game
            if not self.table.is_assisted:
                await self.steps.commit(step)
            peer.push(
                messages.Hint(
                    reply_to=message.id,
                    moves=[str(move) for move in suggestion.moves],
                    reason=suggestion.reason,
                )
            )

    async def _undo(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        await self.steps.request(lambda: self.table.check_undo(seat), peer, message.id)

    async def _resign(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        await self.steps.request(lambda: self.table.check_resign(seat), peer, message.id)

    async def _new_game(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        await self.steps.request(self.table.check_deal, peer, message.id)

    async def _new_match(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        assert isinstance(message, NewMatchMessage)
        async with self.opened():
            await self.steps.catch_up()
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
                await self.friends.offer_rematch(peer, seat, message.id)
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
                await self.steps.commit(table.check_resign(seat))
            await self.start_match(rules, level, message.seed, peer, message.id)

    async def start_match(
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
            header = await self.log.create_match(header, deal)
        except StoreUnavailable:
            fresh.close()
            raise store_unavailable() from None
        fresh.apply(deal)
        table.close()
        self.table, self.header = fresh, header
        self.generation += 1
        self.broadcaster.state("new_match", peer, reply_to)
        self.strangers.start()  # a rated rematch between strangers has its clock again

    async def give_up(self, seat: int) -> dict[str, Any]:
        """Give up the unfinished match from the lobby (``web-protocol.md`` 3.6): it ends
        as a resignation, so its current game counts as lost by ``seat`` for no points.
        Between two games the next game is dealt first, so that the give-up still counts
        as a lost game (the same loss that ``new_match`` in the middle counts)."""
        async with self.opened():
            await self.steps.catch_up()
            table = self.table
            if table.status != "playing":
                raise RoomError("match_over", _("This match is over already."))
            if table.is_game_over:
                self.broadcaster.announce(await self.steps.commit(table.check_deal()), None, None)
            applied = await self.steps.commit(table.check_resign(seat))
            self.broadcaster.announce(applied, None, None)
            return {"room": self.code, "seat": seat, "status": table.status}

    # ----------------------------------------------------------------- friend games

    async def _rematch(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        await self.friends.rematch(peer, seat, message.id)

    async def _decline_rematch(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        await self.friends.decline_rematch(peer, seat, message.id)

    async def _claim(self, peer: Peer, seat: int, message: ClientMessage) -> None:
        if self.strangers.active:
            await self.strangers.claim(peer, seat, message.id)
        else:
            await self.friends.claim(peer, seat, message.id)

    async def join(self, player: str, name: str) -> str:
        """Seat the friend in seat 1; return its token (:meth:`FriendGames.join`)."""
        return await self.friends.join(player, name)

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


def computer_seats(name: str, player: str, level: str) -> tuple[Seat, Seat]:
    from ..table import level_label

    return (Seat("person", name, player), Seat(COMPUTER, level_label(level)))


def friend_seats(name: str, player: str) -> tuple[Seat, Seat]:
    return (Seat("person", name, player), Seat("friend"))


__all__ = [
    "CLAIM_ENV",
    "CLAIM_SECONDS",
    "COMPUTER_MODE",
    "COMPUTER_SEAT",
    "FRIEND_MODE",
    "LEASE_MARGIN_SECONDS",
    "PERSON_SEAT",
    "STORE_UNAVAILABLE",
    "ComputerTurn",
    "MatchHeader",
    "Peer",
    "Room",
    "RoomClosed",
    "RoomError",
    "claim_seconds",
    "hash_token",
    "make_rules",
    "minutes",
    "new_match_id",
    "new_token",
    "peer_language",
    "store_unavailable",
]
