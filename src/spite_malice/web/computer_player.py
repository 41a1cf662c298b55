"""A room's computer player: it thinks the computer's moves (on the event loop when its
decisions are quick, else on a worker thread) and plays them, holding the room's lease so
that exactly one server instance on a database plays a room's computer turns.

A quick computer's whole turn is stored in one write with the person's discard that began it
(:meth:`ComputerPlayer.commit_with_computer`); a room played here keeps its lease through its
own writes (:meth:`ComputerPlayer.renewal`), so it asks the database for it about once per
:data:`LEASE_SECONDS`, not at every turn."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import Protocol

from ..engine.moves import Move
from ..store import MatchHeader, StoreConflict, StoreError, StoreUnavailable
from ..table import MOVE, Applied, Savepoint, Step, Table, TableError
from . import messages
from .broadcast import Broadcaster
from .match_log import MatchLog
from .room_common import (
    COMPUTER_MODE,
    COMPUTER_SEAT,
    PERSON_SEAT,
    Peer,
    RoomClosed,
    RoomError,
    store_unavailable,
)

log = logging.getLogger(__name__)

COMPUTER_RETRIES = 8
"""Times the computer's move is tried again when the store fails (with growing pauses)."""
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


class Steps(Protocol):
    """What the computer player asks of its room's step pipeline (``room_steps``)."""

    async def commit(self, step: Step) -> Applied: ...

    async def catch_up(self) -> bool: ...

    async def reload(self) -> None: ...


class PlayedRoom(Protocol):
    """What the computer player reads of its room."""

    code: str
    header: MatchHeader
    table: Table
    generation: int
    peers: tuple[set[Peer], set[Peer]]
    log: MatchLog
    steps: Steps
    broadcaster: Broadcaster

    @property
    def mode(self) -> str: ...

    def opened(self, *, use: bool = True) -> contextlib.AbstractAsyncContextManager[None]: ...


@dataclass
class ComputerTurn:
    """The computer's moves applied to a table but not yet stored (:meth:`ComputerPlayer.plays`):
    their steps, the updates to send once they are stored, and a move that ends the game,
    checked only (it is stored on its own)."""

    steps: list[Step] = field(default_factory=list)
    updates: list[tuple[Peer, messages.Update]] = field(default_factory=list)
    last: Step | None = None


class ComputerPlayer:
    """The computer's turns of one room and the lease on them."""

    def __init__(self, room: PlayedRoom) -> None:
        self.room = room
        self.task: asyncio.Task[None] | None = None
        self.generation = 0
        """The room's generation (its match) the running task plays."""
        self.lease_lost = False
        """Set when this instance could not renew its computer-turn lease: stop playing."""
        self.lease_until = 0.0
        """Until when (``time.monotonic()``) this instance surely holds the room's lease."""
        self.think_seconds: float | None = None
        """How long the computer's last decision took here (None before the first)."""

    def start(self) -> None:
        """Let the computer play its turn in the background, when it is to move and a seat
        of the room is connected here. The computer plays where the room is watched: the
        instance that made a room (its page then connects to another) or that only follows
        it leaves the turn to the instance the seats are on; a seat connecting starts it."""
        room = self.room
        if not room.table.computer_to_move or not (room.peers[0] or room.peers[1]):
            return
        task = self.task
        if task is not None and not task.done() and self.generation == room.generation:
            return  # already playing this match's turn (an older match's task stops itself)
        self.generation = room.generation
        self.task = asyncio.get_running_loop().create_task(self._turn())

    async def _turn(self) -> None:
        """Play the computer's turn, holding the room's lease so that exactly one instance on
        the database plays it; when another instance holds it, wait (its moves arrive through
        the fan-out) and take over if its lease runs out. The lease is kept after the turn
        (renewed at the next one, or left to run out), so a room played on one instance asks
        the database for it about once per :data:`LEASE_SECONDS`, not at every turn."""
        room = self.room
        generation = room.generation
        with contextlib.suppress(RoomClosed):
            # Again while the computer is to move: the person may have played meanwhile,
            # when this task still looked busy.
            while generation == room.generation and room.table.computer_to_move:
                if not await self._take_lease():
                    return
                reached = (room.table.game_number, room.table.plies)
                self.lease_lost = False
                renewing = asyncio.get_running_loop().create_task(self._keep_lease())
                try:
                    await self._moves()
                finally:
                    renewing.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await renewing
                if self.lease_lost or (room.table.game_number, room.table.plies) == reached:
                    return  # another instance plays on, or the turn failed (logged)

    async def _take_lease(self) -> bool:
        """Wait for the lease on this room's computer turns; False when the computer is no
        longer to move (another instance played its turn) or a new match began."""
        room = self.room
        generation = room.generation
        while True:
            if self.lease_until - time.monotonic() >= LEASE_MARGIN_SECONDS:
                # still ours: nobody else played here meanwhile, nothing to catch up with
                async with room.opened():
                    return generation == room.generation and room.table.computer_to_move
            head: tuple[int, int] | None = None
            asked = time.monotonic()
            try:
                taken, head = await room.log.take_lease(room.code, LEASE_SECONDS, room.header.id)
            except StoreError as error:
                # retried below; said, so that a database that keeps failing is seen
                log.warning("room %s: could not take the computer's lease: %s", room.code, error)
                taken = False
            if taken:
                self.lease_until = asked + LEASE_SECONDS
            async with room.opened():
                # what the previous holder stored, or what the holder stores meanwhile
                if head is None:
                    await room.steps.catch_up()
                elif head != (room.table.game_number, room.table.plies):
                    await room.steps.reload()
                if generation != room.generation or not room.table.computer_to_move:
                    return False
            if taken:
                return True
            await asyncio.sleep(LEASE_RETRY_SECONDS)

    async def _keep_lease(self) -> None:
        room = self.room
        while True:
            await asyncio.sleep(LEASE_RENEW_SECONDS)
            asked = time.monotonic()
            try:
                kept = await room.log.renew_lease(room.code, LEASE_SECONDS)
            except StoreError:
                kept = True  # the database hiccuped; the lease is still ours until it expires
            else:
                if kept:
                    self.lease_until = asked + LEASE_SECONDS
            if not kept:
                log.warning("room %s: another instance took over the computer's turn", room.code)
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
            await self.room.log.release_lease(self.room.code)

    def holds_lease(self) -> bool:
        """Whether this instance holds the room's lease now (as far as it knows)."""
        return self.lease_until > time.monotonic()

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

    def thinks_quickly(self) -> bool:
        """Whether the computer's next decision is thought on the event loop (its last one
        took under :data:`QUICK_THINK_SECONDS`)."""
        last = self.think_seconds
        return last is not None and last < QUICK_THINK_SECONDS

    async def _moves(self) -> None:
        room = self.room
        generation = room.generation
        announced = False
        failures = 0
        while True:
            async with room.opened():
                table = room.table
                if generation != room.generation or not table.computer_to_move:
                    return
                quick = self.thinks_quickly()
                if not announced and not quick:
                    # a turn that takes a while is said at once; the seats' states say it too
                    # (state.thinking, which the page shows), and a quick turn's moves follow
                    # at once, so a frame of its own would tell them nothing new
                    announced = True
                    room.broadcaster.broadcast(messages.Thinking(seat=COMPUTER_SEAT))
            # a slow decision is thought on a worker thread, the room free meanwhile
            move = None if quick else await self._think(table)
            async with room.opened():
                if generation != room.generation or room.table is not table or self.lease_lost:
                    return
                try:
                    await self._play(table, move)
                except StoreConflict:
                    await room.steps.reload()
                    continue
                except RoomError as error:
                    if error.code != "store_unavailable" or failures >= COMPUTER_RETRIES:
                        log.warning("room %s: the computer's move failed: %s", room.code, error)
                        return
                    failures += 1
                else:
                    failures = 0
            if failures:  # the store failed: the same moves are thought again after a pause
                await asyncio.sleep(min(0.05 * 2**failures, 2.0))

    async def _play(self, table: Table, move: Move | None) -> None:
        """Under the room's lock: the computer's moves from ``move`` (thought already, or
        None: thought here), and its next ones while its decisions are quick, applied to the
        table one by one and stored together as one entry of the group commit (a turn is
        one write, not one a move), then announced in order, one update each as before. A
        move that ends the game is stored on its own after them (its write carries the
        finished game). When the store refuses them the table goes back to its last stored
        step and nothing is announced."""
        point = table.savepoint()
        try:
            turn = self.plays(table, move)
        except BaseException:
            table.roll_back(point)  # whatever failed, the table stays as stored
            raise
        if turn.steps:
            await self._store_applied(table, point, turn.steps)
            for peer, message in turn.updates:
                peer.push(message)
        if turn.last is not None:
            self.room.broadcaster.announce(await self.room.steps.commit(turn.last), None, None)

    def plays(self, table: Table, move: Move | None) -> ComputerTurn:
        """The computer's moves from ``move`` (or thought here), while its decisions are
        quick, applied to the table (not stored: the caller stores them, or rolls back),
        with their updates made just after each move; a move that ends the game is only
        checked (``last``: stored on its own). TableError if the first move is refused."""
        turn = ComputerTurn()
        broadcaster = self.room.broadcaster
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
                turn.updates.extend(
                    broadcaster.updates(COMPUTER_SEAT, str(applied.move), applied.events)
                )
                move = None
                if not table.computer_to_move or not self.thinks_quickly():
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
        room = self.room
        asked, renew = self.renewal()
        try:
            if await room.log.append_steps(room.header, tuple(steps), renew):
                self.renewed(asked)
        except BaseException as error:
            table.roll_back(point)
            if isinstance(error, StoreUnavailable):
                log.warning("room %s: the store failed; %d steps refused", room.code, len(steps))
                raise store_unavailable() from None
            raise

    async def answers_at_once(self, step: Step, peer: Peer | None) -> bool:
        """Whether the person's ``step`` is a discard that hands the turn to a quick
        computer this instance surely holds the lease for: then the computer's turn is
        played at once, and stored in the same write as the discard. A lease this instance
        keeps with less than :data:`LEASE_MARGIN_SECONDS` left (or one run out) is taken
        again here first, so that the turn need not go through a task of its own."""
        if self.room.mode != COMPUTER_MODE or peer is None or step.kind != MOVE:
            return False
        if step.finished is not None or step.seat != PERSON_SEAT or step.move is None:
            return False
        task = self.task
        if not (
            self.thinks_quickly()
            and (task is None or task.done())
            and "-S" in step.move  # a discard (to a side stack): the turn ends (R2.3)
        ):
            return False
        if self.lease_until - time.monotonic() < LEASE_MARGIN_SECONDS:
            await self._take_lease_now()
        return self.lease_until - time.monotonic() >= LEASE_MARGIN_SECONDS

    def renewal(self) -> tuple[float, float | None]:
        """When the room's next write is asked for, and how long it should renew the
        computer's lease for: the lease's length when this instance holds it with less than
        :data:`LEASE_RENEW_IN_WRITES_SECONDS` left, else None (not held, or fresh)."""
        asked = time.monotonic()
        if self.room.mode != COMPUTER_MODE:
            return asked, None
        left = self.lease_until - asked
        return asked, LEASE_SECONDS if 0 < left < LEASE_RENEW_IN_WRITES_SECONDS else None

    def renewed(self, asked: float) -> None:
        """A write asked for at ``asked`` renewed the lease (from its commit, later)."""
        self.lease_until = max(self.lease_until, asked + LEASE_SECONDS)

    async def _take_lease_now(self) -> None:
        """Take (or renew) the computer's lease in one call, for a discard about to hand
        the turn to the computer (the caller holds the room's lock): held, it lasts
        :data:`LEASE_SECONDS` more; refused (another instance holds it) or failed, nothing
        changes and the computer's turn goes through its own task, as before. A log that
        moved on meanwhile is left to the discard's write, which then conflicts."""
        room = self.room
        asked = time.monotonic()
        try:
            taken, _head = await room.log.take_lease(room.code, LEASE_SECONDS, room.header.id)
        except StoreError:
            return
        if taken:
            self.lease_until = asked + LEASE_SECONDS

    async def commit_with_computer(
        self, step: Step, peer: Peer | None, reply_to: int | str | None
    ) -> Applied:
        """The person's turn-ending discard and the quick computer's whole turn after it,
        stored in one write (one entry of the group commit instead of two, and no task for
        the computer's turn), then the discard's update and the computer's, in order, as
        they would have gone out one after the other. The discard is acknowledged only once
        both are stored; nothing changes when the store refuses them."""
        room = self.room
        table = room.table
        point = table.savepoint()
        try:
            applied = table.apply(step)
            assert applied.move is not None
            mine = room.broadcaster.updates(
                step.seat or 0, str(applied.move), applied.events, peer, reply_to
            )
            turn = ComputerTurn()
            if table.computer_to_move:
                with contextlib.suppress(TableError):  # refused: its own turn plays it, as before
                    turn = self.plays(table, None)
        except BaseException:
            table.roll_back(point)  # whatever failed, the table stays as stored
            raise
        await self._store_applied(table, point, [step, *turn.steps])
        for to, message in [*mine, *turn.updates]:
            to.push(message)
        if turn.last is not None:
            try:  # the computer's move that ends the game, stored on its own
                room.broadcaster.announce(await room.steps.commit(turn.last), None, None)
            except (RoomError, StoreConflict) as error:
                # the discard stands; the computer's own turn (started after this request)
                # plays that move again, or catches up with the log
                log.warning("room %s: the computer's last move waits: %s", room.code, error)
        return applied


def _timed_think(table: Table) -> tuple[Move, float]:
    """``table.think()`` and the seconds it took."""
    started = time.perf_counter()
    move = table.think()
    return move, time.perf_counter() - started
