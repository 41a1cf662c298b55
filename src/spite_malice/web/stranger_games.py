"""A rated match between strangers (its ``TableMeta.pool`` is a pool's name): the move clock,
the abort before both players moved, the claim once the opponent has gone, and counting the
matches a player ended badly towards a ban (``web/fair_play.py``; ``web-protocol.md`` 3.9
and 4.1 ``strangers``).

- The clock: each turn has :data:`~.move_clock.TURN_SECONDS` of its pool; when it runs out
  the player to move loses the match as if it had resigned (a claim by the opponent, rated),
  or, before both players moved in the first game, the match is aborted (never rated).
  Between two games the server deals the next one if neither player did.
- Abort: either player, before both have moved in the first game; the match ends without a
  result and no finished game is stored, so nothing is rated.
- Claim: once the opponent has had no connection to any instance for
  :data:`STRANGER_CLAIM_SECONDS` (friends wait 3 minutes).

A turn-based game between strangers (a pool of ``ratings.policy.TURN_POOLS``) has none of
the move clock and the claim: its time per move in days is ``web/turn_based.py``'s, which
ends it on time (aborted when the first player to move never did, else lost). Abort before
both have moved, resign and the rematch are as here and between friends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

from ..i18n import _
from ..ratings.policy import TURN_POOLS
from ..store import MatchHeader, StoreConflict, StoreError, StoreUnavailable
from ..table import Step, Table
from .broadcast import Broadcaster
from .fair_play import FairPlay
from .match_log import MatchLog
from .move_clock import TURN_SECONDS, MoveClock
from .presence import Presence, minutes
from .room_common import Peer, RoomClosed, RoomError, store_unavailable
from .room_steps import StepPipeline

STRANGER_CLAIM_SECONDS = 60.0
"""How long a stranger must have been offline before the other player may claim the game."""
POLL_SECONDS = 1.0
"""How often the clock's task looks at the clock (it reads no database meanwhile)."""

log = logging.getLogger(__name__)


class StrangerRoom(Protocol):
    """What a stranger room's parts read and change of the room."""

    code: str
    header: MatchHeader
    table: Table
    log: MatchLog
    steps: StepPipeline
    broadcaster: Broadcaster
    presence: Presence

    def away(self) -> list[float | None]: ...

    def opened(self, *, use: bool = True) -> contextlib.AbstractAsyncContextManager[None]: ...


class StrangerGames:
    """The clock, abort and claim of one room, active while its match has a pool."""

    def __init__(self, room: StrangerRoom, fair_play: FairPlay | None) -> None:
        self.room = room
        self.fair_play = fair_play
        stored = room.header.updated_at
        self.clock = MoveClock(
            TURN_SECONDS.get(room.header.meta.pool or "", 90.0),
            since=stored.timestamp() if stored is not None else None,
        )
        self.task: asyncio.Task[None] | None = None

    @property
    def active(self) -> bool:
        return self.room.table.meta.pool is not None

    @property
    def turn_based(self) -> bool:
        """A game over days between strangers: the days clock rules it, not this one."""
        return self.room.table.meta.pool in TURN_POOLS

    # ----------------------------------------------------------------- the page's view

    def view(self, seat: int) -> dict[str, Any]:
        """The state's fields of a stranger room (none elsewhere)."""
        table = self.room.table
        if not self.active:
            return {}
        playing = table.status == "playing"
        clock = None
        if playing and not self.turn_based:
            clock = {
                "seat": None if table.is_game_over else table.game.to_move,
                "left": round(self.clock.left(table), 1),
                "per_turn": self.clock.limit(table),
                "between_games": table.is_game_over,
            }
        view: dict[str, Any] = {
            "strangers": {
                "pool": table.meta.pool,
                "clock": clock,
                "can_abort": playing and self._may_abort(),
                "aborted": table.aborted,
            }
        }
        if not self.turn_based:
            view["claim_after"] = STRANGER_CLAIM_SECONDS
        return view

    def _may_abort(self) -> bool:
        table = self.room.table
        return (
            table.is_dealt
            and not table.is_game_over
            and table.game_number == 1
            and len(table.moved) < 2
        )

    # ----------------------------------------------------------------- the clock

    def start(self) -> None:
        """Watch the clock in the background (once; nothing at other rooms, nor at a game
        over days)."""
        if not self.active or self.turn_based or (self.task is not None and not self.task.done()):
            return
        self.task = asyncio.get_running_loop().create_task(self._watching())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def _watching(self) -> None:
        while self.active and self.room.table.status == "playing":
            left = self.clock.left(self.room.table)
            await asyncio.sleep(min(max(left, 0.05), POLL_SECONDS))
            try:
                await self.check_clock()
            except RoomClosed:
                return
            except (StoreError, RoomError) as error:
                log.warning("room %s: the move clock could not act: %s", self.room.code, error)

    async def check_clock(self) -> bool:
        """Act when the clock ran out: the match lost on time (or aborted before both
        moved), or the next game dealt between games. Whether it acted."""
        room = self.room
        async with room.opened(use=False):
            await room.steps.catch_up()
            table = room.table
            if (
                not self.active
                or self.turn_based
                or table.status != "playing"
                or not self.clock.expired(table)
            ):
                return False
            if table.is_game_over:
                await self._commit(table.check_deal())
                return True
            sitter = table.game.to_move
            step = table.check_abort(sitter) if self._may_abort() else table.check_claim(1 - sitter)
            return await self._commit(step, (sitter, "timeout"))

    async def _commit(self, step: Step, against: tuple[int, str] | None = None) -> bool:
        """Store and announce a step the server makes (counting the bad ending ``against``
        a seat first); False when another instance stored one first (the table is brought
        up to date instead)."""
        try:
            applied = await self.room.steps.commit(step)
        except StoreConflict:
            await self.room.steps.reload()
            return False
        if against is not None:
            await self._note(*against)
        self.room.broadcaster.announce(applied, None, None)
        return True

    # ----------------------------------------------------------------- the players' requests

    async def abort(self, seat: int) -> dict[str, Any]:
        """Call the match off before both players moved (``POST /api/rooms/<room>/abort``)."""
        room = self.room
        async with room.opened():
            await room.steps.catch_up()
            step = room.table.check_abort(seat)
            try:
                applied = await room.steps.commit(step)
            except StoreConflict:
                await room.steps.reload()
                raise RoomError(
                    "conflict", _("The game changed meanwhile: here it is as it stands now.")
                ) from None
            await self._note(seat, "abort")
            room.broadcaster.announce(applied, None, None)
        return {"room": room.code, "seat": seat, "status": room.table.status}

    async def claim(self, peer: Peer, seat: int, reply_to: int | str | None) -> None:
        """Claim the game when the opponent has been offline :data:`STRANGER_CLAIM_SECONDS`."""
        room = self.room
        absent = 1 - seat
        async with room.opened():
            await room.steps.catch_up()
            step = room.table.check_claim(seat)
            if self.turn_based:
                raise RoomError(
                    "turn_based",
                    _(
                        "A game played over days is not claimed: it is lost when the time "
                        "for a move runs out."
                    ),
                )
            try:
                await room.presence.read()
            except StoreUnavailable:
                raise store_unavailable() from None
            away = room.away()[absent]
            needed = STRANGER_CLAIM_SECONDS
            if away is None:
                raise RoomError(
                    "friend_online",
                    # TRANSLATORS: {needed} is a duration: "1 minute", "20 seconds"
                    _(
                        "Your opponent is connected, so the game cannot be claimed. A game "
                        "can be claimed once your opponent has been offline for {needed}.",
                        needed=minutes(needed),
                    ),
                )
            if away < needed:
                raise RoomError(
                    "too_soon",
                    # TRANSLATORS: {away} and {needed} are durations: "1 minute", "20 seconds"
                    _(
                        "Your opponent has been offline for {away}. You can claim the game "
                        "once they have been offline for {needed}.",
                        away=minutes(away),
                        needed=minutes(needed),
                    ),
                )
            applied = await room.steps.commit(step)
            await self._note(absent, "left")
            room.broadcaster.announce(applied, peer, reply_to)

    async def _note(self, seat: int, outcome: str) -> None:
        """Count the match against ``seat``'s player (a ban may follow)."""
        if self.fair_play is None:
            return
        player = self.room.table.seats[seat].player
        try:
            await self.fair_play.note(player, self.room.header.id, outcome)
        except StoreError as error:
            log.warning("room %s: a bad ending could not be counted: %s", self.room.code, error)
