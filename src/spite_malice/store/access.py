"""The store: players, the move log of every match, finished games, statistics, settings.

One :class:`Store` wraps one database (SQLite file or PostgreSQL server). Every method is a
short transaction of its own on a pooled connection, so it may be called from many threads
at once: a server runs each call on a worker thread of its own, and a slow or locked call
holds up only its caller.

:class:`Store` is a facade over four repositories on one :class:`~.database.Database`:

- :class:`~.players.Players` (``store.players``): players and their secrets;
- :class:`~.move_log.MoveLog` (``store.log``): matches, their steps, finished games and the
  group commit of many rooms' steps;
- :class:`~.stats_settings.StatsAndSettings` (``store.standing``): statistics and settings;
- :class:`~.leases.Leases` (``store.leases``): computer-turn leases and seats' presence.

A match is written as it is played: one row of ``moves`` per step (:meth:`append`), the
finished game's row and statistics in the same transaction as the move that ends it. A step
whose (match, game, ply) is already stored raises :class:`StoreConflict`: another process
wrote first, and the caller reloads the match (:meth:`load_match`) and answers from it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from ..engine.record import GameRecord
from ..match_records import Step
from ..ratings.policy import Rating
from .credentials import Credentials
from .database import (
    HEAD_REVISION,
    KNOWN_REVISIONS,
    MIGRATIONS,
    NOTIFY_CHANNEL,
    V1_REVISION,
    DailyTaken,
    Database,
    StoreConflict,
    StoreDataError,
    StoreError,
    StoreUnavailable,
    announcement,
    cannot_open,
    read_announcement,
)
from .email_addresses import EmailAddresses
from .leases import Leases
from .location import resolve_url
from .move_log import APPEND_MANY_POSTGRES, MoveLog, append_many_values
from .notifications import Notifications
from .players import Players, hash_secret
from .ratings import Ratings
from .records import (
    ABANDONED,
    COMPUTER,
    FINISHED,
    PLAYING,
    LeaseRenewal,
    MatchHeader,
    MatchSummary,
    Player,
    SeatPresence,
    StoredMatch,
)
from .stats import PlayerStats
from .stats_settings import StatsAndSettings
from .turn_games import TurnGames


class Store:
    """A database of players, matches, games, statistics and settings (see :meth:`open`):
    the facade of its repositories, each method handed to the one that does it."""

    def __init__(self, url: str, *, echo: bool = False, busy_timeout: float = 5.0) -> None:
        self.db = Database(url, echo=echo, busy_timeout=busy_timeout)
        self.url = url
        self.location = self.db.location
        self.busy_timeout = busy_timeout
        """Seconds a write waits for a locked SQLite file before it fails (unavailable)."""
        self.engine: Engine = self.db.engine
        self.origin = self.db.origin
        """This store object's name in the step announcements it makes (see
        :data:`NOTIFY_CHANNEL`), so that a server can skip its own."""
        self.announces = self.db.announces
        """Whether stored steps are announced to other processes (PostgreSQL only)."""
        self.players = Players(self.db)
        self.log = MoveLog(self.db)
        self.standing = StatsAndSettings(self.db)
        self.leases = Leases(self.db)
        self.ratings = Ratings(self.db)
        self.credentials = Credentials(self.db)
        self.notifications = Notifications(self.db)  # push keys, subscriptions, outbox
        self.turn_games = TurnGames(self.db)  # the clocks of turn-based games
        self.email_addresses = EmailAddresses(self.db)  # the daily summary's addresses

    @classmethod
    def open(cls, url: str | None = None, *, busy_timeout: float = 5.0) -> Store:
        """Open (creating or migrating it as needed) the database at ``url``, a URL or an
        SQLite path; None means ``$SPITE_MALICE_DB``, ``$DATABASE_URL`` or the per-user file."""
        try:
            return cls(resolve_url(url), busy_timeout=busy_timeout)
        except SQLAlchemyError as error:  # a bad URL, a server not reachable
            raise cannot_open(url, error) from error
        except ImportError as error:  # the database's driver is not installed
            raise cannot_open(url, error) from error
        except OSError as error:  # the SQLite file's folder cannot be made
            raise cannot_open(url, error) from error

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    @contextmanager
    def _session(self, *, write: bool = False) -> Iterator[Session]:
        """One transaction (:meth:`Database.session`), for the store's read-only helpers
        (``history``, ``daily``)."""
        with self.db.session(write=write) as session:
            yield session

    def ping(self) -> None:
        """Check that the database answers; :class:`StoreUnavailable` when it does not."""
        self.db.ping()

    # ----------------------------------------------------------------- players

    def create_player(self, name: str, source: str = "web") -> tuple[Player, str]:
        """A new player named ``name``; returns it and its secret (kept only as a hash)."""
        return self.players.create_player(name, source)

    def player_for(self, secret: str) -> Player | None:
        """The player whose secret this is (its first browser's, or one a browser got by
        signing in: :class:`~.credentials.Credentials`), or None."""
        return self.players.player_for(secret) or self.credentials.player_for_device(secret)

    def player(self, player_id: str) -> Player | None:
        return self.players.player(player_id)

    def rename_player(self, player_id: str, name: str) -> None:
        self.players.rename_player(player_id, name)

    def local_player(self, source: str = "terminal") -> Player:
        """The one player of this store's local program (the terminal), made on first use."""
        return self.players.local_player(source)

    # ----------------------------------------------------------------- the move log

    def create_match(self, header: MatchHeader, deal: Step) -> MatchHeader:
        """Store a new match with its first step (see :meth:`MoveLog.create_match`)."""
        return self.log.create_match(header, deal)

    def append(self, header: MatchHeader, step: Step) -> None:
        """Write one step of the match (see :meth:`MoveLog.append`)."""
        self.log.append(header, step)

    def append_many(
        self,
        steps: Sequence[tuple[MatchHeader, Step]],
        renew: LeaseRenewal | None = None,
    ) -> frozenset[str]:
        """A group commit of several matches' steps (see :meth:`MoveLog.append_many`)."""
        return self.log.append_many(steps, renew)

    def append_many_now(
        self,
        steps: Sequence[tuple[MatchHeader, Step]],
        renew: LeaseRenewal | None = None,
    ) -> frozenset[str]:
        """:meth:`append_many` on a SQLite file, never waiting (:meth:`MoveLog.append_many_now`)."""
        return self.log.append_many_now(steps, renew)

    def update_header(self, header: MatchHeader) -> None:
        """Write the match's seats and meta again (a friend took a seat)."""
        self.log.update_header(header)

    def claim_seat(self, header: MatchHeader, seat: int) -> bool:
        """Write ``header`` only if ``seat`` is still empty (see :meth:`MoveLog.claim_seat`)."""
        return self.log.claim_seat(header, seat)

    def load_match(self, match_id: str) -> StoredMatch | None:
        """The stored match and its log, or None when unknown."""
        return self.log.load_match(match_id)

    def head(self, match_id: str) -> tuple[int, int]:
        """(game number, steps in that game) of the match's last stored step."""
        return self.log.head(match_id)

    def latest_in_room(self, room: str) -> str | None:
        """The id of the latest match of a web room, or None when the room is unknown."""
        return self.log.latest_in_room(room)

    def load_room(self, room: str) -> StoredMatch | None:
        """The latest match of a web room, or None when the room is unknown."""
        return self.log.load_room(room)

    def has_room(self, room: str) -> bool:
        return self.log.has_room(room)

    def matches(
        self,
        *,
        status: str | None = PLAYING,
        source: str | None = None,
        player: str | None = None,
    ) -> list[MatchSummary]:
        """Stored matches, most recently played first (by default the unfinished ones)."""
        return self.log.matches(status=status, source=source, player=player)

    def delete_match(self, match_id: str) -> None:
        """Forget a match, its log and its games (and so their statistics)."""
        self.log.delete_match(match_id)

    def games(self, match_id: str) -> list[GameRecord]:
        """The stored records of a match's finished games, in order (resigned ones too)."""
        return self.log.games(match_id)

    def steps_after(self, match_id: str, game: int, ply: int) -> list[Step]:
        """The match's stored steps after ``ply`` of ``game``, in order."""
        return self.log.steps_after(match_id, game, ply)

    # ----------------------------------------------------------------- statistics, settings

    def stats(self, player: str) -> PlayerStats:
        """``player``'s statistics per level, from every stored game and match."""
        return self.standing.stats(player)

    def settings(self, player: str) -> dict[str, Any] | None:
        """The settings stored for ``player``, or None."""
        return self.standing.settings(player)

    def save_settings(self, player: str, data: dict[str, Any]) -> None:
        self.standing.save_settings(player, data)

    # ----------------------------------------------------------------- ratings

    def rating_of(self, player_id: str, pool: str) -> Rating:
        """``player_id``'s Glicko-2 rating in ``pool`` (``standard``, ``quick`` or
        ``computer``); a new player's is 1500, 350, 0.06, provisional (``docs/ratings.md``)."""
        return self.ratings.rating_of(player_id, pool)

    # ----------------------------------------------------------------- leases, presence

    def acquire_lease(self, room: str, owner: str, seconds: float) -> bool:
        """Take or renew the lease on ``room``'s computer turns (:meth:`Leases.acquire_lease`)."""
        return self.leases.acquire_lease(room, owner, seconds)

    def take_lease(
        self, room: str, owner: str, seconds: float, match_id: str
    ) -> tuple[bool, tuple[int, int]]:
        """:meth:`acquire_lease` and :meth:`head` of ``match_id`` in one transaction."""
        return self.leases.take_lease(room, owner, seconds, match_id)

    def release_lease(self, room: str, owner: str) -> None:
        """Give up ``owner``'s lease on ``room`` (nothing when another owner holds it)."""
        self.leases.release_lease(room, owner)

    def lease_owner(self, room: str) -> str | None:
        """Who holds an unexpired lease on ``room``, or None."""
        return self.leases.lease_owner(room)

    def mark_presence(self, marks: Sequence[tuple[str, int, bool]]) -> None:
        """This instance's presence of each (room, seat, online) (:meth:`Leases.mark_presence`)."""
        self.leases.mark_presence(marks)

    def presence(self, rooms: Sequence[str]) -> dict[str, list[SeatPresence]]:
        """Every instance's presence rows of these rooms (rooms without any are left out)."""
        return self.leases.presence(rooms)


__all__: Sequence[str] = [
    "ABANDONED",
    "APPEND_MANY_POSTGRES",
    "COMPUTER",
    "FINISHED",
    "HEAD_REVISION",
    "KNOWN_REVISIONS",
    "MIGRATIONS",
    "NOTIFY_CHANNEL",
    "PLAYING",
    "V1_REVISION",
    "DailyTaken",
    "LeaseRenewal",
    "MatchHeader",
    "MatchSummary",
    "Player",
    "Rating",
    "SeatPresence",
    "Store",
    "StoreConflict",
    "StoreDataError",
    "StoreError",
    "StoreUnavailable",
    "StoredMatch",
    "announcement",
    "append_many_values",
    "hash_secret",
    "read_announcement",
]
