"""Rooms: one match between two seats, held by the server (the lobby keeps them).

A room owns the engine's :class:`~spite_malice.engine.Match`, the seats' token hashes and
open connections, and (against the computer) the bot. Every change happens under the room's
lock, is written to the store before anyone hears of it, and is then sent to each seat as
that seat may see it (R6): messages are built from observations and public events only.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from ..bots import Bot
from ..engine.errors import GameOverError, IllegalMoveError, NotationError, SpiteMaliceError
from ..engine.events import Event
from ..engine.game import Game
from ..engine.match import Match
from ..engine.moves import Move
from ..engine.record import GameRecord
from ..engine.rules import PRESETS, Rules
from ..store import PLAYING, SavedMatch
from . import computer
from .protocol import (
    ClientMessage,
    HintMessage,
    MoveMessage,
    NewGameMessage,
    NewMatchMessage,
    PingMessage,
    SyncMessage,
    UndoMessage,
    public_events,
)

if TYPE_CHECKING:
    from .lobby import Lobby

log = logging.getLogger(__name__)

COMPUTER_MODE, FRIEND_MODE = "computer", "friend"
PERSON_SEAT, COMPUTER_SEAT = 0, 1


class RoomError(Exception):
    """A request a room refuses; ``code`` is one of ``web-protocol.md`` 4.5."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class RoomClosed(Exception):
    """The lobby forgot this room object (it was idle); load the room again to use it."""


class Peer(Protocol):
    """One open connection of a seat."""

    async def send(self, message: dict[str, Any]) -> None: ...


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def make_rules(rules: dict[str, Any] | None, preset: str | None) -> Rules:
    """The rules of a preset (by name) with ``rules`` options on top; RoomError if invalid."""
    base: dict[str, Any] = {}
    if preset is not None:
        chosen = PRESETS.get(preset)
        if chosen is None:
            known = ", ".join(PRESETS)
            raise RoomError("invalid", f"unknown preset {preset!r}; known: {known}")
        base = chosen.to_json()
    try:
        return Rules.from_json({**base, **(rules or {})})
    except (SpiteMaliceError, ValueError, TypeError) as error:
        raise RoomError("invalid", str(error)) from None


class Room:
    """A match between two seats and the connections that play it."""

    def __init__(self, lobby: Lobby, saved: SavedMatch) -> None:
        assert saved.room is not None
        self.lobby = lobby
        self.code: str = saved.room
        self.saved = saved
        self.lock = asyncio.Lock()
        self.peers: tuple[set[Peer], set[Peer]] = (set(), set())
        self.generation = 0
        """Bumped by every new match, so a computer turn of an earlier match stops."""
        self.bot: Bot | None = None
        self.computer_task: asyncio.Task[None] | None = None
        self.computer_generation = 0
        self.closed = False
        """Set by the lobby when it forgets this object; the room lives on in the store."""
        self.last_active = time.monotonic()
        self.unsaved = False
        """The last save failed: the store is behind, so the lobby must keep this object."""
        if self.mode == COMPUTER_MODE:
            self._new_bot()

    # ----------------------------------------------------------------- reading

    @property
    def match(self) -> Match:
        return self.saved.match

    @property
    def game(self) -> Game:
        game = self.saved.match.game
        assert game is not None, "a room always has a dealt game"
        return game

    @property
    def mode(self) -> str:
        return self.saved.kind

    @property
    def level(self) -> str | None:
        return self.saved.level

    @property
    def names(self) -> list[str | None]:
        names: list[str | None] = list(self.saved.meta.get("names", [None, None]))
        return names

    def seat_for(self, token: str) -> int | None:
        """The seat ``token`` is for, or None."""
        given = hash_token(token)
        hashes = self.saved.meta.get("tokens", [None, None])
        for seat, stored in enumerate(hashes):
            if isinstance(stored, str) and hmac.compare_digest(stored, given):
                return seat
        return None

    def is_full(self) -> bool:
        return all(self.saved.meta.get("tokens", [None, None]))

    def connected(self) -> list[bool]:
        if self.mode == COMPUTER_MODE:
            return [bool(self.peers[0]), True]
        return [bool(self.peers[0]), bool(self.peers[1])]

    def computer_to_move(self) -> bool:
        game = self.game
        return self.mode == COMPUTER_MODE and not game.is_over and game.to_move == COMPUTER_SEAT

    def turn_moves(self) -> int:
        """Moves the player to move has made in the current turn (builds since the last
        discard: a turn ends with a discard, R2.3)."""
        count = 0
        for move in reversed(self.game.moves):
            if move.is_discard:
                break
            count += 1
        return count

    def can_undo(self, seat: int) -> bool:
        game = self.game
        return (
            self.mode == COMPUTER_MODE
            and seat == PERSON_SEAT
            and not game.is_over
            and game.to_move == seat
            and self.turn_moves() > 0
        )

    def can_hint(self, seat: int) -> bool:
        game = self.game
        return self.mode == COMPUTER_MODE and not game.is_over and game.to_move == seat

    def match_view(self) -> dict[str, Any]:
        match = self.match
        match.book()
        assisted = set(self.saved.meta.get("assisted_games", []))
        games = [
            {
                "number": number,
                "winner": record.result.winner if record.result else None,
                "points": record.result.points if record.result else 0,
                "reason": record.result.reason if record.result else "",
                "assisted": number in assisted,
            }
            for number, record in enumerate(match.records, start=1)
        ]
        return {
            "score": list(match.score),
            "target": match.rules.match_target,
            "game_number": len(match.records) + (0 if self.game.is_over else 1),
            "over": match.is_over,
            "winner": match.winner,
            "games": games,
        }

    def state_for(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see (``web-protocol.md`` 4.1)."""
        return {
            "room": self.code,
            "mode": self.mode,
            "seat": seat,
            "level": self.level,
            "players": self.names,
            "observation": self.game.observation(seat).to_json(),
            "match": self.match_view(),
            "assisted": self.saved.assisted,
            "can_undo": self.can_undo(seat),
            "can_hint": self.can_hint(seat) and seat == PERSON_SEAT,
            "connected": self.connected(),
            "thinking": self.computer_to_move(),
        }

    def welcome(self, seat: int) -> dict[str, Any]:
        return {
            "type": "welcome",
            "room": self.code,
            "seat": seat,
            "mode": self.mode,
            "level": self.level,
            "players": self.names,
        }

    def state_message(self, seat: int, cause: str, reply_to: int | str | None) -> dict[str, Any]:
        return {
            "type": "state",
            "reply_to": reply_to,
            "cause": cause,
            "state": self.state_for(seat),
            "log": public_events(self.game.events, seat),
        }

    # ----------------------------------------------------------------- connections

    @contextlib.asynccontextmanager
    async def _open(self) -> AsyncIterator[None]:
        """Hold the room's lock; RoomClosed when the lobby has forgotten this object."""
        async with self.lock:
            if self.closed:
                raise RoomClosed(self.code)
            self.last_active = time.monotonic()
            yield

    async def connect(self, peer: Peer, seat: int) -> None:
        """Add a connection of ``seat``; RoomClosed if this room object was forgotten."""
        async with self._open():
            self.peers[seat].add(peer)
            await self._send(peer, self.welcome(seat))
            await self._send(peer, self.state_message(seat, "connect", None))
            await self._broadcast_presence()
        self.start_computer()

    async def disconnect(self, peer: Peer, seat: int) -> None:
        async with self.lock:
            self.last_active = time.monotonic()
            self.peers[seat].discard(peer)
            await self._broadcast_presence()

    async def info(self, seat: int) -> dict[str, Any]:
        """What ``GET /api/rooms/<room>`` answers (``web-protocol.md`` 3.4)."""
        async with self._open():
            match = self.match_view()
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
        reply_to = message.id
        if isinstance(message, PingMessage):
            await peer.send({"type": "pong", "reply_to": reply_to})
        elif isinstance(message, SyncMessage):
            async with self._open():
                await self._send(peer, self.state_message(seat, "sync", reply_to))
        elif isinstance(message, MoveMessage):
            await self.play(peer, seat, message.move, reply_to)
        elif isinstance(message, HintMessage):
            await self.hint(peer, seat, reply_to)
        elif isinstance(message, UndoMessage):
            await self.undo(peer, seat, reply_to)
        elif isinstance(message, NewGameMessage):
            await self.new_game(peer, seat, reply_to)
        else:
            assert isinstance(message, NewMatchMessage)
            await self.new_match(peer, seat, message, reply_to)
        self.start_computer()

    # ----------------------------------------------------------------- requests

    async def play(self, peer: Peer, seat: int, text: str, reply_to: int | str | None) -> None:
        async with self._open():
            game = self.game
            if game.is_over:
                raise RoomError("game_over", f"illegal move {text!r}: the game is over")
            if self.mode == FRIEND_MODE and not self.is_full():
                raise RoomError("waiting_for_opponent", "wait for your friend to join")
            if game.to_move != seat:
                if self.mode == COMPUTER_MODE:
                    raise RoomError("busy", "the computer is playing its turn")
                raise RoomError("not_your_turn", f"illegal move {text!r}: it is not your turn")
            before = len(game.events)
            try:
                move = game.play(text)
            except NotationError as error:
                raise RoomError("bad_notation", str(error)) from None
            except IllegalMoveError as error:
                raise RoomError("illegal_move", str(error)) from None
            except GameOverError as error:
                raise RoomError("game_over", str(error)) from None
            await self._persist()
            await self._broadcast_update(seat, move, game.events[before:], peer, reply_to)

    async def hint(self, peer: Peer, seat: int, reply_to: int | str | None) -> None:
        async with self._open():
            if self.mode != COMPUTER_MODE:
                raise RoomError("not_available", "hints are for games against the computer")
            game = self.game
            if game.is_over:
                raise RoomError("game_over", "the game is over")
            if game.to_move != seat:
                raise RoomError("not_your_turn", "a hint is given on your turn")
            observation = game.observation(seat)
            seed = (game.seed or 0) + len(game.moves)
            suggestion = await asyncio.to_thread(computer.suggest, observation, seed)
            # a hint leaves the same mark as undo, as in the terminal game
            if not self.saved.assisted:
                self.saved.assisted = True
                await self._persist()
            await self._send(
                peer,
                {
                    "type": "hint",
                    "reply_to": reply_to,
                    "moves": list(suggestion.moves),
                    "reason": suggestion.reason,
                },
            )

    async def undo(self, peer: Peer, seat: int, reply_to: int | str | None) -> None:
        async with self._open():
            if self.mode != COMPUTER_MODE:
                raise RoomError("no_undo", "undo is for games against the computer")
            game = self.game
            if game.is_over:
                raise RoomError("game_over", "the game is over")
            if game.to_move != seat:
                raise RoomError("not_your_turn", "undo takes back a move of your current turn")
            if self.turn_moves() == 0:
                raise RoomError("no_undo", "nothing of your current turn to take back")
            record = GameRecord.from_game(game, self.match.players)
            shorter = replace(record, moves=record.moves[:-1], result=None)
            self.match.game = shorter.replay()  # exact: the deal and shuffles follow the seed
            self.saved.assisted = True
            await self._persist()
            await self._broadcast_state("undo", peer, reply_to)

    async def new_game(self, peer: Peer, seat: int, reply_to: int | str | None) -> None:
        async with self._open():
            if not self.game.is_over:
                raise RoomError("game_not_over", "the game is not over yet")
            self.match.book()
            if self.match.is_over:
                raise RoomError("match_over", "the match is over: start a new match")
            self.match.next_game()
            self._remember_assisted()
            self.saved.assisted = False
            if self.bot is not None:
                self.bot.new_game(COMPUTER_SEAT)
            await self._persist()
            await self._broadcast_state("new_game", peer, reply_to)

    async def new_match(
        self, peer: Peer, seat: int, message: NewMatchMessage, reply_to: int | str | None
    ) -> None:
        async with self._open():
            changes = message.level is not None or message.rules is not None
            if self.mode == FRIEND_MODE:
                if changes or message.preset is not None:
                    raise RoomError("invalid", "a friend room keeps its level and rules")
                self.match.book()
                if not self.match.is_over:
                    raise RoomError("match_not_over", "the match is not over yet")
            level = self.level
            if message.level is not None:
                if not computer.is_level(message.level):
                    raise RoomError("invalid", unknown_level(message.level))
                level = message.level
            rules = self.match.rules
            if message.rules is not None or message.preset is not None:
                rules = make_rules(message.rules, message.preset)
            old = self.saved
            self.match.book()
            if old.status == PLAYING and not self.match.is_over:
                self._remember_assisted()
                await self.lobby.run(self.lobby.store.abandon_match, old, seat)
            names = list(self.names)
            if self.mode == COMPUTER_MODE and level is not None:
                names[COMPUTER_SEAT] = computer.level_name(level)
            match = Match(rules, message.seed, (names[0] or "Player 1", names[1] or "Player 2"))
            match.next_game()
            meta = dict(old.meta)
            meta["names"] = names
            meta["assisted_games"] = []
            self.saved = SavedMatch(
                id=new_match_id(),
                match=match,
                kind=old.kind,
                level=level,
                players=old.players,
                source=old.source,
                meta=meta,
                room=self.code,
            )
            self.generation += 1
            if self.mode == COMPUTER_MODE:
                self._new_bot()
            await self._persist()
            await self._broadcast_state("new_match", peer, reply_to)

    async def join(self, player: str, name: str) -> str:
        """Seat the friend in seat 1; return its token."""
        async with self._open():
            if self.mode != FRIEND_MODE:
                raise RoomError("not_a_friend_room", "this is a game against the computer")
            if self.is_full():
                raise RoomError("room_full", "this room already has two players")
            token = new_token()
            meta = dict(self.saved.meta)
            meta["tokens"] = [meta["tokens"][0], hash_token(token)]
            meta["names"] = [meta["names"][0], name]
            self.saved.meta = meta
            self.saved.players = (self.saved.players[0], player)
            self.match.players = (self.match.players[0], name)
            await self._persist()
            await self._broadcast_state("joined", None, None)
            return token

    # ----------------------------------------------------------------- the computer

    def start_computer(self) -> None:
        """Let the computer play its turn in the background, when it is to move."""
        if not self.computer_to_move():
            return
        task = self.computer_task
        if task is not None and not task.done() and self.computer_generation == self.generation:
            return  # already playing this match's turn (an older match's task stops itself)
        self.computer_generation = self.generation
        self.computer_task = asyncio.get_running_loop().create_task(self._computer_turn())

    async def _computer_turn(self) -> None:
        with contextlib.suppress(RoomClosed):
            await self._computer_moves()

    async def _computer_moves(self) -> None:
        generation = self.generation
        announced = False
        while True:
            async with self._open():
                if generation != self.generation or not self.computer_to_move():
                    return
                game = self.game
                observation = game.observation(COMPUTER_SEAT)
                bot = self.bot
                assert bot is not None
                if not announced:
                    announced = True
                    await self._broadcast({"type": "thinking", "seat": COMPUTER_SEAT})
            move = await asyncio.to_thread(computer.choose, bot, observation)
            async with self._open():
                if generation != self.generation or self.match.game is not game:
                    return
                before = len(game.events)
                try:
                    game.play(move)
                except SpiteMaliceError:
                    log.exception("room %s: the computer's move %s was refused", self.code, move)
                    return
                await self._persist()
                await self._broadcast_update(COMPUTER_SEAT, move, game.events[before:], None, None)

    def _new_bot(self) -> None:
        if self.bot is not None:
            self.bot.close()
        level = self.level or computer.default_level()
        self.bot = computer.new_computer(level, self.match.seed)
        self.bot.new_game(COMPUTER_SEAT)

    # ----------------------------------------------------------------- internals

    def _remember_assisted(self) -> None:
        """Keep the assisted mark of the game just finished (or abandoned) in the meta."""
        if self.saved.assisted:
            self.match.book()
            number = len(self.match.records) + (0 if self.game.is_over else 1)
            marked = list(self.saved.meta.get("assisted_games", []))
            if number not in marked:
                marked.append(number)
            self.saved.meta = {**self.saved.meta, "assisted_games": marked}

    async def _persist(self) -> None:
        if self.game.is_over:
            self._remember_assisted()
        try:
            await self.lobby.save(self.saved)
            self.unsaved = False
        except Exception:  # the next save writes the whole match again
            self.unsaved = True
            log.exception("room %s: the match could not be saved", self.code)

    async def _send(self, peer: Peer, message: dict[str, Any]) -> None:
        try:
            await peer.send(message)
        except Exception:  # a closed connection: forget it
            log.debug("room %s: dropping a closed connection", self.code)
            for peers in self.peers:
                peers.discard(peer)

    async def _broadcast(self, message: dict[str, Any]) -> None:
        for peers in self.peers:
            for peer in list(peers):
                await self._send(peer, message)

    async def _broadcast_presence(self) -> None:
        await self._broadcast({"type": "presence", "connected": self.connected()})

    async def _broadcast_state(
        self, cause: str, origin: Peer | None, reply_to: int | str | None
    ) -> None:
        for seat, peers in enumerate(self.peers):
            if not peers:
                continue
            message = self.state_message(seat, cause, None)
            for peer in list(peers):
                if peer is origin:
                    await self._send(peer, {**message, "reply_to": reply_to})
                else:
                    await self._send(peer, message)

    async def _broadcast_update(
        self,
        mover: int,
        move: Move,
        events: list[Event],
        origin: Peer | None,
        reply_to: int | str | None,
    ) -> None:
        for seat, peers in enumerate(self.peers):
            if not peers:
                continue
            message = {
                "type": "update",
                "reply_to": None,
                "seat": mover,
                "move": str(move),
                "events": public_events(events, seat),
                "state": self.state_for(seat),
            }
            for peer in list(peers):
                if peer is origin:
                    await self._send(peer, {**message, "reply_to": reply_to})
                else:
                    await self._send(peer, message)


def new_match_id() -> str:
    return uuid.uuid4().hex


def unknown_level(level: str) -> str:
    return f"unknown level {level!r}; levels: {', '.join(computer.levels())}"
