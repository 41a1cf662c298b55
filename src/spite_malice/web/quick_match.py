"""Quick match: the pools of players waiting for a stranger, the waves that pair them, and
telling each player its game (``web-protocol.md`` 3.8, ``docs/deploying.md`` "Quick match").

A pool per rules preset (``standard``, ``quick``: ``engine.rules.PRESETS``). A player joins
(``POST /api/pool``), then waits on ``GET /api/pool`` (answered at once when paired, else
after up to :data:`WAIT_SECONDS`; each call renews its place, and a place not renewed for
:data:`STALE_SECONDS` goes), or leaves (``DELETE /api/pool``).

Every :data:`WAVE_SECONDS` each instance asks for the waves' lease (``store.pairing``'s
:data:`~spite_malice.store.pairing.WAVE_LEASE`, :data:`LEASE_SECONDS` long, renewed at every
wave): the one holding it runs the wave, the others do nothing, and when the holder dies
another takes over once the lease runs out. A wave (``web/pairing_waves.py`` chooses the
pairs) first stores its pairs, then each pair's match (a rated match: ``TableMeta.pool``),
then marks them ready and announces it on the store's channel: the instance holding a
player's waiting call answers it. A wave cut short between its two halves is finished by
the next holder, so no pair is lost or made twice.

The turn-based pools (``days-1``, ``days-3``, ``days-7``: :data:`TURN_POOLS`, a time per
move of 1, 3 or 7 days) are paired by the same waves, by the turn-based rating. Their wait
is not a live one (``store/turn_pool.py``): a player joins (``POST /api/turn-pool``) and
waits until paired or cancelled (``DELETE /api/turn-pool``), with no page open, while
playing other games; a player waits in one turn-based pool at a time, and in a live pool too
if it likes. A pair's game is one game of the standard rules (as a friend game over days is,
``web/turn_api.py``) whose ``turn_games`` row is written right after its match, from the
stored deal, before the players are told, so that the clock of its first turn runs
(``web/turn_based.py``) from the wave on, whatever instance or restart follows; then both
seats become tickets that the players' browsers collect (``GET /api/turn-pool``) and the
game is in both players' lists of games over days.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from ..engine.errors import quote
from ..engine.rules import PRESETS
from ..i18n import _
from ..ratings.policy import TURN_POOLS, rating_pool
from ..store import MatchHeader, Store, StoreError, turn_pool
from ..store import pairing as stored
from ..store.pairing import Pairing, PoolEntry
from ..store.schema_pairing import POOL_ENTRIES
from ..store.turn_pool import TURN_POOL_ENTRIES, Ticket
from ..table import Seat, Table
from .notifications import STARTED
from .pairing_waves import Candidate, accepted_gap, pair_wave
from .room_common import CODE_ALPHABET, CODE_LENGTH, RoomError, hash_token, new_token
from .room_steps import restore

WAVE_SECONDS = 2.0
"""How often a wave pairs the waiting players (each pool, every instance asks the lease)."""
LEASE_SECONDS = 7.0
"""The waves' lease: renewed at every wave; another instance runs the waves within this
long (plus a wave) after the holder died."""
STALE_SECONDS = 45.0
"""A waiting player whose page has not asked for news this long has left the pool."""
STORE_AT_ONCE = 16
"""A wave stores this many pairs' matches at once (each on a worker thread of its own)."""
WAIT_SECONDS = 20.0
"""The longest ``GET /api/pool`` waits before answering that the player still waits."""
LIVE_POOLS = tuple(PRESETS)
"""The live pools: one per rules preset."""
POOLS = (*LIVE_POOLS, *TURN_POOLS)
"""Every pool: the live ones, then the turn-based ones."""
TURN_RULES = replace(PRESETS["standard"], match_target=1)
"""The rules of a turn-based game between strangers: the standard rules, one game (the
match ends with it, as a friend game over days does; ``match_records.meta.pool_rules``,
which a rematch keeps)."""
DEFAULT_RATING = 1500.0

RatingLookup = Callable[[str, str], float]
"""(player, pool) -> the rating pairing uses (called on a store thread)."""

log = logging.getLogger(__name__)
T = TypeVar("T")


def flat_ratings(player: str, pool: str) -> float:
    """Every player at :data:`DEFAULT_RATING` (the pure tests' lookup)."""
    return DEFAULT_RATING


def stored_ratings(store: Store) -> RatingLookup:
    """The players' Glicko-2 ratings in each pool, as the store keeps them
    (:meth:`Store.rating_of`: a new player's is 1500)."""

    def lookup(player: str, pool: str) -> float:
        return store.rating_of(player, rating_pool(pool)).rating

    return lookup


def unknown_pool(pool: str, names: tuple[str, ...] = LIVE_POOLS) -> RoomError:
    return RoomError(
        "invalid",
        _(
            "There is no pool {pool}. The pools are: {names}.",
            pool=quote(pool),
            names=", ".join(names),
        ),
    )


def ticket_answer(ticket: Ticket) -> dict[str, Any]:
    """A seat of a turn-based game between strangers, as the page keeps it (a room's
    ticket, ``web-protocol.md`` 3.2)."""
    return {
        "room": ticket.room,
        "seat": ticket.seat,
        "token": ticket.token,
        "mode": "friend",
        "ws_url": f"/ws/{ticket.room}",
        "pool": ticket.pool,
        "days": TURN_POOLS.get(ticket.pool),
    }


class PairingHost(Protocol):
    """What the pools need of the server instance (its lobby): the store, the instance's
    name in leases, and a way to call the store off the event loop."""

    store: Store
    instance: str

    async def run(self, function: Callable[..., T], *args: Any) -> T: ...


class QuickMatch:
    """The pools as one server instance serves them: joining, waiting, leaving, and the
    waves when this instance holds their lease."""

    def __init__(self, lobby: PairingHost, ratings: RatingLookup | None = None) -> None:
        self.lobby = lobby
        self.store = lobby.store
        self.instance = lobby.instance
        self.ratings = ratings or stored_ratings(lobby.store)
        self._news = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.now: Callable[[], float] = time.time
        """The wall clock of the turn-based games' first turns (tests inject theirs, as
        for :class:`~.turn_based.TurnClock`)."""
        self.waves_run = 0
        """Waves this instance ran (it held the lease)."""

    # ----------------------------------------------------------------- players

    async def join(self, player: str, pool: str, name: str) -> PoolEntry:
        """Put ``player`` in ``pool``; a paired player's entry comes back unchanged."""
        if pool not in LIVE_POOLS:
            raise unknown_pool(pool)
        rating = await self.lobby.run(self.ratings, player, pool)
        entry: PoolEntry = await self._call(
            stored.join_pool, self.store, player, pool, name, float(rating)
        )
        return entry

    async def leave(self, player: str) -> PoolEntry | None:
        """Take ``player`` out of its pool; its entry when a wave paired it meanwhile."""
        entry: PoolEntry | None = await self._call(stored.leave_pool, self.store, player)
        return entry

    async def wait(self, player: str, timeout: float = WAIT_SECONDS) -> dict[str, Any]:
        """What ``GET /api/pool`` answers: the game once paired (told again for a while:
        ``store.pairing.TOLD_SECONDS``), else the place in the pool after up to ``timeout``
        seconds (or ``none``: in no pool)."""
        deadline = time.monotonic() + timeout
        while True:
            news = self._news
            paired = await self._call(stored.collect, self.store, player)
            if paired is not None:
                return self.paired_answer(paired)
            entry = await self._call(stored.pool_entry, self.store, player)
            if entry is None:
                return {"status": "none"}
            left = deadline - time.monotonic()
            if left <= 0:
                return self.waiting_answer(entry)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(news.wait(), left)

    # ----------------------------------------------------------------- turn-based waits

    async def join_turn(self, player: str, pool: str, name: str) -> dict[str, Any]:
        """Put ``player`` in the turn-based ``pool`` (or move it there from another): what
        :meth:`turn_news` answers then."""
        if pool not in TURN_POOLS:
            raise unknown_pool(pool, tuple(TURN_POOLS))
        rating = await self.lobby.run(self.ratings, player, pool)
        await self._call(turn_pool.join, self.store, player, pool, name, float(rating))
        return await self.turn_news(player)

    async def leave_turn(self, player: str) -> dict[str, Any]:
        """End ``player``'s turn-based wait (a game being made for it meanwhile comes
        anyway): what :meth:`turn_news` answers then."""
        await self._call(turn_pool.leave, self.store, player)
        return await self.turn_news(player)

    async def turn_news(self, player: str) -> dict[str, Any]:
        """What ``GET /api/turn-pool`` answers: the turn-based wait (None: not waiting) and
        the seats of the player's turn-based games between strangers being played, newest
        first, for its browser to keep."""
        entry = await self._call(turn_pool.entry, self.store, player)
        tickets = await self._call(turn_pool.tickets_of, self.store, player)
        waiting = None
        if entry is not None:
            waiting = self.waiting_answer(entry) | {
                "days": TURN_POOLS[entry.pool],
                "since": entry.joined_at.isoformat(),
            }
        return {"waiting": waiting, "games": [ticket_answer(t) for t in tickets]}

    @staticmethod
    def waiting_answer(entry: PoolEntry) -> dict[str, Any]:
        gap = accepted_gap(entry.waves)
        return {
            "status": "waiting" if entry.waiting else "pairing",
            "pool": entry.pool,
            "waves": entry.waves,
            "gap": None if gap == float("inf") else gap,
            "wave_seconds": WAVE_SECONDS,
        }

    @staticmethod
    def paired_answer(entry: PoolEntry) -> dict[str, Any]:
        assert entry.room is not None and entry.seat is not None
        return {
            "status": "paired",
            "pool": entry.pool,
            "room": entry.room,
            "seat": entry.seat,
            "token": entry.token,
            "mode": "friend",
            "ws_url": f"/ws/{entry.room}",
            "invite_url": None,
        }

    def heard(self) -> None:
        """A wave's rooms are ready (here or on another instance): wake the waiting calls."""
        news, self._news = self._news, asyncio.Event()
        news.set()

    # ----------------------------------------------------------------- the waves

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._running())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _running(self) -> None:
        while True:
            await asyncio.sleep(WAVE_SECONDS)
            try:
                await self.wave()
            except StoreError as error:
                log.warning("a quick-match wave failed: %s", error)
            except Exception:  # never the end of the waves: the next one finishes this one
                log.exception("a quick-match wave failed")

    async def wave(self) -> list[Pairing]:
        """One wave of every pool, if this instance holds (or takes) the waves' lease: the
        pairs made (none when another instance holds the lease)."""
        held = await self.lobby.run(
            self.store.acquire_lease, stored.WAVE_LEASE, self.instance, LEASE_SECONDS
        )
        if not held:
            return []
        self.waves_run += 1
        made = await self.finish_pending()
        made += await self.finish_pending_turns()
        for pool in POOLS:
            pairs = await self.pair_pool(pool)
            made += await self.store_matches(pool, pairs)
        return made

    async def pair_pool(self, pool: str) -> list[Pairing]:
        """A wave's first half for ``pool``: choose and store its pairs."""
        if pool in TURN_POOLS:
            entries = await self._call(turn_pool.waiting, self.store, pool)
            table = TURN_POOL_ENTRIES
        else:
            entries = await self._call(stored.waiting, self.store, pool, STALE_SECONDS)
            table = POOL_ENTRIES
        if len(entries) < 2:
            if entries:
                await self._call(
                    stored.record_pairs, self.store, pool, [], [entries[0].player], table
                )
            return []
        blocks = await self._call(stored.blocks_among, self.store, [e.player for e in entries])
        candidates = [Candidate(e.player, e.rating, e.waves) for e in entries]
        pairs, passed = pair_wave(candidates, lambda a, b: frozenset((a, b)) in blocks)
        names = {entry.player: entry.name for entry in entries}
        codes = await self._free_codes(len(pairs))
        pairings: list[Pairing] = []
        for (first, second), room in zip(pairs, codes, strict=True):
            if secrets.randbelow(2):  # who sits in seat 0 (the rules say who starts)
                first, second = second, first
            pairings.append(
                Pairing(
                    room,
                    uuid.uuid4().hex,
                    (first.player, second.player),
                    (new_token(), new_token()),
                    (names[first.player], names[second.player]),
                )
            )
        made: list[Pairing] = await self._call(
            stored.record_pairs, self.store, pool, pairings, [c.player for c in passed], table
        )
        return made

    async def store_matches(self, pool: str, pairs: list[Pairing]) -> list[Pairing]:
        """A wave's second half: each pair's match, then tell the players."""
        if not pairs:
            return []
        await self._store_all([(pair, pool, pair.names) for pair in pairs], fresh=True)
        rooms = [pair.room for pair in pairs]
        if pool in TURN_POOLS:
            started = await self._call(turn_pool.start, self.store, rooms)
            await self.tell_started(sorted({entry.room for entry in started if entry.room}))
        else:
            await self._call(stored.mark_ready, self.store, rooms)
        self.heard()
        return pairs

    async def finish_pending(self) -> list[Pairing]:
        """Store the matches of pairs a wave stored without them (its instance died)."""
        pending = await self._call(stored.unready, self.store)
        await self._store_all(pending, fresh=False)
        if pending:
            await self._call(stored.mark_ready, self.store, [pair.room for pair, _, _ in pending])
            self.heard()
        return [pair for pair, _, _ in pending]

    async def finish_pending_turns(self) -> list[Pairing]:
        """The same for the turn-based pools' pairs, each with its clock (written after its
        match: a match stored without one gets it now)."""
        pending = await self._call(stored.unready, self.store, TURN_POOL_ENTRIES)
        rooms = [pair.room for pair, _, _ in pending]
        done = await self._call(stored.taken_rooms, self.store, rooms)
        clocked = await self._call(self.store.turn_games.rooms, sorted(done))
        for pair, pool, _names in pending:
            if pair.room in done and pair.room not in clocked:
                await self.start_clock(pair, TURN_POOLS[pool])
        await self._store_all(pending, fresh=False)
        if pending:
            rooms = [pair.room for pair, _, _ in pending]
            started = await self._call(turn_pool.start, self.store, rooms)
            await self.tell_started(sorted({entry.room for entry in started if entry.room}))
            self.heard()
        return [pair for pair, _, _ in pending]

    async def tell_started(self, rooms: list[str]) -> None:
        """Notify both players of each new game over days (``started``: a push, if they
        turned notifications on and are not on its page; once across the cluster)."""
        notifier = getattr(self.lobby, "notifier", None)
        get = getattr(self.lobby, "get", None)
        if notifier is None or get is None:
            return
        for code in rooms:
            try:
                room = await get(code)
            except StoreError as error:
                log.warning("room %s: its start was not notified: %s", code, error)
                continue
            if room is None:
                continue
            for seat in (0, 1):
                notifier.tell(room, seat, STARTED, f"{room.header.id}:started:{seat}")

    async def _store_all(
        self, pairs: list[tuple[Pairing, str, tuple[str, str]]], *, fresh: bool
    ) -> None:
        """Store the pairs' matches, :data:`STORE_AT_ONCE` at a time (``fresh``: pairs of
        this wave, whose rooms cannot exist yet; else those already stored are skipped)."""
        if not fresh:
            done = await self._call(stored.taken_rooms, self.store, [p.room for p, _, _ in pairs])
            pairs = [entry for entry in pairs if entry[0].room not in done]
        for start in range(0, len(pairs), STORE_AT_ONCE):
            batch = pairs[start : start + STORE_AT_ONCE]
            await asyncio.gather(
                *(self.store_match(pool, pair, names) for pair, pool, names in batch)
            )

    async def store_match(self, pool: str, pair: Pairing, names: tuple[str, str]) -> None:
        """The rated match of ``pair``; in a turn-based pool, then its clock (the
        ``turn_games`` row, its first turn's time per move running from now)."""
        days = TURN_POOLS.get(pool)
        rules = PRESETS[pool] if days is None else TURN_RULES
        seats = (
            Seat("person", names[0], pair.players[0]),
            Seat("friend", names[1], pair.players[1]),
        )
        tokens = (hash_token(pair.tokens[0]), hash_token(pair.tokens[1]))
        table = Table.new(rules, seats, tokens=tokens)
        try:
            table.meta = replace(table.meta, pool=pool, joined_at=time.time())
            deal = table.check_deal()
            header = MatchHeader(
                id=pair.match_id, rules=rules, meta=table.meta, seed=None, room=pair.room
            )
            # another instance finishing this wave may store it first: that one stays
            await self._call(stored.create_match_once, self.store, header, deal)
        finally:
            table.close()
        if days is not None:
            await self.start_clock(pair, days)

    async def start_clock(self, pair: Pairing, days: int) -> None:
        """Write the ``turn_games`` row of a turn-based pair's stored match: who moves first
        (R1.4) read from the stored deal, so that two instances finishing one wave at once
        (whichever deal was stored) write the same row; its first turn's time from now."""
        found = await self._call(self.store.load_room, pair.room)
        if found is None or found.header.id != pair.match_id:
            raise StoreError(f"the match of pair {pair.room} is not stored")
        table = restore(found)
        try:
            seats = table.meta.seats
            await self._call(
                self.store.turn_games.start,
                pair.room,
                pair.match_id,
                days,
                players=pair.players,
                names=(seats[0].name or "", seats[1].name or ""),
                to_move=table.game.to_move,
                turn=f"{table.game_number}.{table.turns}",
                now=self.now(),
            )
        finally:
            table.close()

    async def _free_codes(self, count: int) -> list[str]:
        """``count`` new room codes, unused in the store (one query a try)."""
        codes: set[str] = set()
        while len(codes) < count:
            tried = {
                "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                for _ in range(count - len(codes))
            } - codes
            codes |= tried - await self._call(stored.taken_rooms, self.store, sorted(tried))
        return sorted(codes)

    async def _call(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """A store call on one of the lobby's worker threads."""
        return await self.lobby.run(lambda: function(*args, **kwargs))
