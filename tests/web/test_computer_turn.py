"""The computer's turn is stored as one write (issue 13): its moves, while its decisions are
quick, are applied one by one and stored together as one entry of the group commit, then
announced in order, one ``update`` each as before (the page animates them one by one). When
the store refuses them, nothing is announced and the table goes back to the stored log."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from spite_malice.engine.rules import Rules
from spite_malice.store import LeaseRenewal, MatchHeader, Store, StoreUnavailable
from spite_malice.table import Step
from spite_malice.web import messages
from spite_malice.web.lobby import Lobby
from spite_malice.web.protocol import MoveMessage
from spite_malice.web.rooms import LEASE_MARGIN_SECONDS, Room, RoomError
from waiting import until

QUICK = Rules.from_json({"payoff_size": 5})


class Listener:
    """A connection that keeps what it is sent."""

    def __init__(self) -> None:
        self.messages: list[messages.ServerMessage] = []

    def push(self, message: messages.ServerMessage) -> None:
        self.messages.append(message)

    def updates(self) -> list[messages.Update]:
        return [m for m in self.messages if isinstance(m, messages.Update)]


def computer_done(room: Room) -> bool:
    task = room.computer_task
    return not room.table.computer_to_move and (task is None or task.done())


async def person_turn(room: Room, listener: Listener, ident: int = 0) -> str | None:
    """The person discards (ending the turn) once the computer is done; the refusal's code,
    if the move was refused."""
    await until(lambda: computer_done(room) or room.game.is_over)
    if room.game.is_over:
        return None
    legal = [str(move) for move in room.game.legal_moves()]
    move = next(m for m in legal if "-S" in m and m.startswith("H"))
    try:
        await room.handle(listener, 0, MoveMessage(type="move", move=move, id=ident))
    except RoomError as error:
        return error.code
    return None


def computer_moves(write: list[tuple[int | None, str | None]]) -> int:
    return sum(1 for seat, _ in write if seat == 1)


GroupCommit = Callable[[Sequence[tuple[MatchHeader, Step]], LeaseRenewal | None], frozenset[str]]
Commit = Callable[[Sequence[tuple[MatchHeader, Step]]], frozenset[str]]


def wrap_group_commits(
    store: Store,
    around: Callable[[Commit, Sequence[tuple[MatchHeader, Step]]], frozenset[str]],
) -> None:
    """Make both of ``store``'s group commits (the one that may wait, and SQLite's one that
    never does) go through ``around(commit, steps)``, which calls ``commit(steps)`` itself
    (with the caller's lease renewal)."""
    for name in ("append_many", "append_many_now"):
        original: GroupCommit = getattr(store, name)

        def wrapped(
            steps: Sequence[tuple[MatchHeader, Step]],
            renew: LeaseRenewal | None = None,
            original: GroupCommit = original,
        ) -> frozenset[str]:
            return around(lambda steps: original(steps, renew), steps)

        setattr(store, name, wrapped)


def recorded_writes(store: Store) -> list[list[tuple[int | None, str | None]]]:
    """The (seat, move) of each step of every group commit ``store`` makes from now on, a
    list a write (kept as they are stored)."""
    writes: list[list[tuple[int | None, str | None]]] = []

    def record(commit: Commit, steps: Sequence[tuple[MatchHeader, Step]]) -> frozenset[str]:
        renewed = commit(steps)
        writes.append([(step.seat, step.move) for _, step in steps])
        return renewed

    wrap_group_commits(store, record)
    return writes


def failing_writes(
    store: Store, error_for: Callable[[Sequence[tuple[MatchHeader, Step]]], Exception | None]
) -> None:
    """Make each group commit of ``store`` raise ``error_for(steps)`` when that is an error
    (and write nothing), and go through when it is None."""

    def fail(commit: Commit, steps: Sequence[tuple[MatchHeader, Step]]) -> frozenset[str]:
        error = error_for(steps)
        if error is not None:
            raise error
        return commit(steps)

    wrap_group_commits(store, fail)


@asynccontextmanager
async def quick_computer_room(
    path: Path,
    error_for: Callable[[Sequence[tuple[MatchHeader, Step]]], Exception | None] | None = None,
) -> AsyncIterator[tuple[Store, list[list[tuple[int | None, str | None]]], Room, Listener]]:
    """A room against Easy on the quick rules (deal 7) in a store at ``path``, its seat 0
    connected: the store, its recorded group commits, the room and the seat's listener.
    With ``error_for``, the store's group commits fail as :func:`failing_writes` says."""
    store = Store.open(str(path))
    writes = recorded_writes(store)
    if error_for is not None:
        failing_writes(store, error_for)
    lobby = Lobby(store)
    try:
        room, _ = await lobby.create(
            mode="computer", player="p", name="Ann", level="easy", rules=QUICK, seed=7
        )
        listener = Listener()
        await room.connect(listener, 0)
        yield store, writes, room, listener
    finally:
        await lobby.close()
        store.close()


def stored_moves(store: Store, room: Room) -> list[str]:
    stored = store.load_match(room.header.id)
    assert stored is not None
    return [
        str(step.move)
        for step in stored.steps
        if step.kind == "move" and step.game == room.table.game_number
    ]


async def test_a_computer_turn_is_one_write_and_its_updates_are_unchanged(
    tmp_path: Path,
) -> None:
    async with quick_computer_room(tmp_path / "turns.db") as (store, writes, room, listener):
        for _ in range(40):
            if room.game.is_over or any(computer_moves(write) >= 2 for write in writes):
                break
            await person_turn(room, listener)
        await until(lambda: computer_done(room) or room.game.is_over)
        # a turn of several computer moves went out in one write, not one write a move
        # (alone, or after the person's discard that began it)
        turns = [write for write in writes if computer_moves(write) >= 2]
        assert turns, writes
        seats = [seat for seat, _ in turns[0]]
        assert seats in ([1] * len(seats), [0] + [1] * (len(seats) - 1))
        # each computer move still has its own update, in the stored order, and the state
        # of each is the log up to that move
        stored = stored_moves(store, room)
        updates = [u for u in listener.updates() if u.state["match"]["game_number"] == 1]
        assert [u.move for u in updates] == stored
        for count, update in enumerate(updates, start=1):
            assert update.state["observation"]["history"] == stored[:count]
        # the page knows the computer is playing before each of its moves arrives: the
        # message before it (the person's last update, a state, the computer's update
        # before) says state.thinking, which the page shows as the banner's dots
        previous: messages.ServerMessage | None = None
        for message in listener.messages:
            if isinstance(message, messages.Update) and message.seat == 1:
                assert isinstance(previous, messages.Update | messages.State)
                assert previous.state["thinking"]
            if isinstance(message, messages.Update | messages.State):
                previous = message


async def test_a_refused_turn_is_not_announced_and_the_table_goes_back(tmp_path: Path) -> None:
    blocked = [True]
    refused: list[int] = []

    def refuse(steps: Sequence[tuple[MatchHeader, Step]]) -> Exception | None:
        if blocked[0] and sum(1 for _, step in steps if step.seat == 1) >= 2:
            refused.append(len(steps))  # a computer turn: refused, as by a failing store
            return StoreUnavailable("the database failed")
        return None

    async with quick_computer_room(tmp_path / "refused.db", refuse) as (store, _, room, listener):
        refusals: list[str | None] = []
        for _ in range(40):
            if room.game.is_over or refused:
                break
            refusals.append(await person_turn(room, listener))
            await until(lambda: computer_done(room) or room.game.is_over or bool(refused))
        assert refused, "no turn of two computer moves or more was played"
        # the refusal was said to the person when the discard was in the same write
        assert refusals[-1] in (None, "store_unavailable")
        # while the store refuses: the table is at the stored log (read under the room's
        # lock, so not in the middle of a write) and the refused moves were never announced
        async with room.lock:
            stored = stored_moves(store, room)
            assert room.table.plies == len(stored) + 1  # the deal is the first step
            assert [u.move for u in listener.updates()] == stored
        # the store works again: the turn goes through, stored and announced
        blocked[0] = False
        if refusals[-1] == "store_unavailable":
            assert await person_turn(room, listener) is None  # the person plays it again
        await until(lambda: computer_done(room) or room.game.is_over)
        stored = stored_moves(store, room)
        updates = listener.updates()
        assert [u.move for u in updates] == stored
        for count, update in enumerate(updates, start=1):
            assert update.state["observation"]["history"] == stored[:count]
        assert room.table.plies == len(stored) + 1


async def test_a_discard_and_the_quick_computers_turn_are_one_write(tmp_path: Path) -> None:
    """Once this instance holds the computer's lease, the person's discard and the quick
    computer's whole turn after it are stored together: the discard is acknowledged with
    its update, then the computer's updates follow, as before."""
    async with quick_computer_room(tmp_path / "together.db") as (store, writes, room, listener):
        together: list[tuple[int | None, str | None]] = []
        ident = 0
        for ident in range(1, 40):
            if room.game.is_over:
                break
            assert await person_turn(room, listener, ident) is None
            together = next((w for w in writes if w[0][0] == 0 and computer_moves(w)), [])
            if together:
                break
        assert together, writes
        # the discard's update answers it, and the computer's updates come right after it
        kinds = [(m.seat, m.reply_to) for m in listener.messages if isinstance(m, messages.Update)]
        moves = [u.move for u in listener.updates()]
        at = kinds.index((0, ident))  # the update answering the discard of that write
        assert moves[at] == together[0][1]
        assert moves[at : at + len(together)] == [move for _, move in together]
        assert all(seat == 1 for seat, _ in kinds[at + 1 : at + len(together)])
        # and the state of each is the game just after its own move
        await until(lambda: computer_done(room) or room.game.is_over)
        stored = stored_moves(store, room)
        for count, update in enumerate(listener.updates(), start=1):
            assert update.state["observation"]["history"] == stored[:count]


async def test_a_discard_takes_a_lease_running_out_again_and_is_one_write(
    tmp_path: Path,
) -> None:
    """A lease this instance keeps with under LEASE_MARGIN_SECONDS left (it is renewed only
    while a computer turn plays) is taken again inside the person's discard, so that the
    quick computer's turn still goes in the same write, not through a task of its own."""
    async with quick_computer_room(tmp_path / "renewed.db") as (_, writes, room, listener):
        together = False
        for ident in range(1, 40):
            await until(lambda: computer_done(room) or room.game.is_over)
            if room.game.is_over:
                break
            if room.lease_until <= time.monotonic() or room.think_seconds is None:
                await person_turn(room, listener, ident)  # the first turn takes the lease
                continue
            room.lease_until = time.monotonic() + LEASE_MARGIN_SECONDS / 2  # running out
            before = len(writes)
            assert await person_turn(room, listener, ident) is None
            if not room.table.computer_to_move and writes[before:]:
                write = writes[before]
                if write[0][0] == 0 and computer_moves(write):
                    together = True
                    break
        assert together, writes
        # the lease was taken again for a whole LEASE_SECONDS
        assert room.lease_until - time.monotonic() > LEASE_MARGIN_SECONDS
        assert room.computer_task is None or room.computer_task.done()


async def test_a_group_commit_that_fails_unexpectedly_answers_its_waiters(
    tmp_path: Path,
) -> None:
    """A write that fails with something other than the store's errors (a bug) is answered
    with that error, logged, rather than leaving the move waiting for ever; nothing of it is
    on the table, and the next write goes through."""
    broken = [True]

    def bug(steps: Sequence[tuple[MatchHeader, Step]]) -> Exception | None:
        return TypeError("a bug in the store") if broken[0] else None

    async with quick_computer_room(tmp_path / "bug.db", bug) as (_, _, room, listener):
        await until(lambda: room.game.to_move == 0 and not room.table.computer_to_move)
        plies = room.table.plies
        move = str(room.game.legal_moves()[0])
        try:
            await asyncio.wait_for(
                room.handle(listener, 0, MoveMessage(type="move", move=move, id=1)), 30
            )
        except TypeError:
            pass
        except RoomError:
            pass  # said to the person as a refusal: as good
        else:
            raise AssertionError("the failed write was acknowledged")
        assert room.table.plies == plies
        broken[0] = False
        assert await person_turn(room, listener, 2) is None
        assert room.table.plies > plies
