"""Turn-based games ("correspondence" games, ``docs/browser.md``, "Games over days"): a
friend game played over days, with a time per move of 1, 3 or 7 days.

The clock is the store's ``turn_games`` row of the room (``store/turn_games.py``): the
instance that stores a step passing the turn starts the next turn's clock there
(:meth:`TurnClock.observe`, told by the room's broadcaster, as the notifications are), and
every instance's :meth:`TurnClock.tick` reads the rows that are due: at 80% of the time the
player to move is reminded (a notification), at 100% the game is lost on time (the other
player's claim, made by the server; a game between strangers, ``ratings.policy.TURN_POOLS``,
whose first player to move never moved is aborted instead, unrated, as a live one is).
Each tick acts on rows, never on what an instance
remembers, so the time runs on across restarts; two instances acting at once store one
step (the other's conflicts) and send one reminder (the outbox row).

The clock reads the time through ``now`` (``time.time`` unless a test injects its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from ..i18n import _, ngettext
from ..ratings.policy import TURN_POOLS
from ..store import Store, StoreConflict, StoreError
from ..store.turn_games import OVER, PLAYING, TurnGame
from .notifications import Notifier
from .room_common import FRIEND_MODE, RoomClosed, RoomError

log = logging.getLogger(__name__)

DAYS = (1, 3, 7)
"""The times per move a turn-based game may have, in days."""
REMIND_AT = 0.8
"""The share of the time per move after which the player to move is reminded."""
TICK_SECONDS = 60.0
"""How often each instance looks for reminders and time-outs that are due."""
KNOWN_LIMIT = 10_000
"""Rooms whose row (or its absence) is remembered before the memory starts again."""
DAY_SECONDS = 86400.0
"""A day, as the store counts the time for a move (``store/turn_games.py``)."""


class TurnRoom(Protocol):
    code: str
    header: Any
    table: Any
    steps: Any
    broadcaster: Any
    notices: Any

    @property
    def mode(self) -> str: ...

    def opened(self, *, use: bool = True) -> contextlib.AbstractAsyncContextManager[None]: ...


class Host(Protocol):
    store: Store
    notifier: Notifier

    async def run(self, function: Callable[..., Any], *args: Any) -> Any: ...

    async def get(self, code: str) -> Any: ...


def left_words(seconds: float) -> str:
    """'2 days and 5 hours', '5 hours', '1 day': the time left, in days and hours (at least
    one hour while any is left)."""
    hours = max(0, int(seconds // 3600))
    if seconds > 0 and hours == 0:
        hours = 1
    days, hours = divmod(hours, 24)
    day_words = ngettext("{n} day", "{n} days", days)
    hour_words = ngettext("{n} hour", "{n} hours", hours)
    if days and hours:
        # TRANSLATORS: "2 days and 5 hours": the time left for a move
        return _("{days} and {hours}", days=day_words, hours=hour_words)
    return day_words if days else hour_words


def turn_name(table: Any) -> str:
    """Names the turn being played: the game, and the turns ended in it."""
    return f"{table.game_number}.{table.turns}"


class TurnClock:
    """The clocks of the turn-based games, for one instance."""

    def __init__(self, host: Host, now: Callable[[], float] = time.time) -> None:
        self.host = host
        self.now = now
        self._known: dict[str, TurnGame | None] = {}
        """Rooms looked up: their row (None: not turn-based)."""
        self._task: asyncio.Task[None] | None = None
        self._writes: set[asyncio.Task[None]] = set()
        self.host.notifier.left = self.left_of

    # ----------------------------------------------------------------- what rooms are

    def create(self, room: str, match_id: str, days: int) -> None:
        """Make ``room`` turn-based (a store call: run it off the event loop)."""
        self.host.store.turn_games.create(room, match_id, days)

    async def game(self, room: str) -> TurnGame | None:
        """The row of ``room`` (None: not a turn-based game), read once."""
        if room not in self._known:
            if len(self._known) > KNOWN_LIMIT:
                self._known.clear()
            self._known[room] = await self.host.run(self.host.store.turn_games.get, room)
        return self._known[room]

    def left_of(self, room: Any) -> str | None:
        game = self._known.get(room.code)
        if game is None or game.deadline is None:
            return None
        return left_words(game.deadline - self.now())

    def view(self, room: TurnRoom) -> dict[str, Any]:
        """The ``turn_game`` field of a seat's state (``web-protocol.md`` 4.1): the days a
        move and the time (epoch seconds) by which the move being played must be made (None
        until the friend is seated, and once the game is over); nothing in other rooms. A turn
        that passed in this step and is not written yet is given its new time (now + days)."""
        game = self._known.get(room.code)
        if game is None:
            return {}
        table = room.table
        over = table.is_game_over or table.match.is_over or table.status != "playing"
        deadline = None
        if not over and table.is_full and table.is_dealt:
            if game.turn == turn_name(table) and game.deadline is not None:
                deadline = game.deadline
            else:
                deadline = self.now() + game.days * DAY_SECONDS
        return {
            "turn_game": {
                "days": game.days,
                "deadline": None if deadline is None else round(deadline),
            }
        }

    # ----------------------------------------------------------------- the turns

    def observe(self, room: TurnRoom) -> None:
        """A step was announced in ``room``: start the next turn's clock if it passed."""
        if room.mode != FRIEND_MODE:
            return
        task = asyncio.get_running_loop().create_task(self._observe(room))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _observe(self, room: TurnRoom) -> None:
        try:
            game = await self.game(room.code)
            if game is None:
                return
            table = room.table
            over = table.is_game_over or table.match.is_over or table.status != "playing"
            seats = table.meta.seats
            values: dict[str, Any] = {
                "match_id": room.header.id,
                "players": (seats[0].player, seats[1].player),
                "names": (seats[0].name, seats[1].name),
                "status": OVER if over else PLAYING,
                "to_move": None if over or not table.is_dealt else table.game.to_move,
                "turn": None if over else turn_name(table),
                "now": self.now(),
            }
            if not table.is_full:
                values["turn"] = None  # the clock starts once the friend is seated
            if (
                game.turn == values["turn"]
                and game.status == values["status"]
                and game.match_id == values["match_id"]
                and game.players == values["players"]
            ):
                return  # a play within the turn: nothing to write
            await self.host.run(lambda: self.host.store.turn_games.observe(game, **values))
            self._known[room.code] = await self.host.run(self.host.store.turn_games.get, room.code)
        except StoreError as error:
            log.warning("room %s: the turn clock could not be written: %s", room.code, error)

    async def settled(self) -> None:
        """Wait for the clock writes begun (tests)."""
        while self._writes:
            await asyncio.gather(*list(self._writes), return_exceptions=True)

    # ----------------------------------------------------------------- the clock

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._ticking())

    async def _ticking(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                await self.tick()
            except StoreError as error:
                log.warning("the turn clocks could not be read: %s", error)

    async def tick(self) -> int:
        """Send the reminders and end the games on time that are due now; how many acted."""
        now = self.now()
        due: list[TurnGame] = await self.host.run(self.host.store.turn_games.due, now, REMIND_AT)
        acted = 0
        for game in due:
            self._known[game.room] = game
            try:
                if game.deadline is not None and game.deadline <= now:
                    acted += await self._time_out(game)
                else:
                    acted += await self._remind(game)
            except (RoomClosed, RoomError, StoreError) as error:
                log.warning("room %s: the turn clock could not act: %s", game.room, error)
        return acted

    async def _remind(self, game: TurnGame) -> int:
        if game.turn is None or game.to_move is None:
            return 0
        if not await self.host.run(self.host.store.turn_games.mark_reminded, game.room, game.turn):
            return 0  # another instance reminded
        room = await self.host.get(game.room)
        if room is None:
            return 0
        room.notices.reminder(game.to_move, game.turn)
        return 1

    async def _time_out(self, game: TurnGame) -> int:
        """The player to move ran out of time: the game is lost (the other seat's claim),
        or, between strangers before both have moved, aborted (no result, never rated)."""
        room = await self.host.get(game.room)
        if room is None or game.to_move is None:
            return 0
        async with room.opened(use=False):
            await room.steps.catch_up()
            table = room.table
            if (
                table.status != "playing"
                or table.is_game_over
                or turn_name(table) != game.turn
                or table.game.to_move != game.to_move
            ):
                return 0  # moved meanwhile (the next tick reads the new row)
            if table.meta.pool in TURN_POOLS and table.game_number == 1 and len(table.moved) < 2:
                step = table.check_abort(game.to_move)
            else:
                step = table.check_claim(1 - game.to_move)
            try:
                applied = await room.steps.commit(step)
            except StoreConflict:
                await room.steps.reload()
                return 0
            room.broadcaster.announce(applied, None, None)
        return 1

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.settled()

    # ----------------------------------------------------------------- the list

    async def games_of(self, player: str) -> list[dict[str, Any]]:
        """The player's turn-based games: those where it is the player's turn first (least
        time left first), then the others (least time left first), then the finished."""
        games: list[TurnGame] = await self.host.run(self.host.store.turn_games.of_player, player)
        now = self.now()
        listed = []
        for game in games:
            seat = 0 if game.players[0] == player else 1
            mine = game.status == PLAYING and game.to_move == seat
            left = None if game.deadline is None else max(0.0, game.deadline - now)
            listed.append(
                {
                    "room": game.room,
                    "seat": seat,
                    "days": game.days,
                    "opponent": game.names[1 - seat],
                    "status": game.status,
                    "your_turn": mine,
                    "left_seconds": None if left is None else round(left),
                    "left": None if left is None else left_words(left),
                }
            )

        def order(item: dict[str, Any]) -> tuple[int, float]:
            rank = 0 if item["your_turn"] else 1 if item["status"] == PLAYING else 2
            return rank, item["left_seconds"] if item["left_seconds"] is not None else 1e18

        return sorted(listed, key=order)
