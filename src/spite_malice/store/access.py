"""The store: save and load matches, record finished games, read statistics and settings.

One :class:`Store` wraps one database (SQLite file or PostgreSQL server). It is synchronous
and safe to use from one thread at a time; a server calls it from a single worker thread.
"""

from __future__ import annotations

import getpass
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from sqlalchemy import (
    Engine,
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from ..engine.errors import SpiteMaliceError
from ..engine.match import Match
from ..engine.record import GameRecord
from .location import describe, prepare, resolve_url
from .schema import (
    SCHEMA_VERSION,
    Base,
    GameRow,
    MatchResultRow,
    MatchRow,
    ResultRow,
    SettingsRow,
    StoreInfo,
    utcnow,
)
from .stats import FRIEND, LOSS, WIN, GameOutcome, PlayerStats, compute, outcome_for

PLAYING, FINISHED, ABANDONED = "playing", "finished", "abandoned"
_MATCHES: Table = MatchRow.__table__  # type: ignore[assignment]
_SAVED_COLUMNS = (
    "room",
    "source",
    "kind",
    "level",
    "player0",
    "player1",
    "status",
    "state",
    "assisted",
    "meta",
    "updated_at",
)
_UPDATE_MATCH = (
    update(_MATCHES)
    .where(_MATCHES.c.id == bindparam("match_id"))
    .values({name: bindparam(name) for name in _SAVED_COLUMNS})
)
COMPUTER = "computer"


class StoreError(SpiteMaliceError):
    """The database cannot be used, or holds something this version cannot read."""


def default_player() -> str:
    """The player id of whoever runs this program: the operating-system user name.

    The terminal game and the web server both use it by default, so one person's games in
    both count in one set of statistics.
    """
    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        name = ""
    return name or "player"


@dataclass(slots=True)
class SavedMatch:
    """A match as the store keeps it, with what is needed to resume and count it."""

    id: str
    match: Match
    kind: str = COMPUTER
    """``computer`` or ``friend``."""
    level: str | None = None
    """The computer's level (a computer match)."""
    players: tuple[str | None, str | None] = (None, None)
    """Statistics ids of seats 0 and 1; None for the computer or an empty seat."""
    source: str = "web"
    """The program playing it: ``web`` or ``terminal``."""
    assisted: bool = False
    """Whether the current game used undo (kept with the game once it is over)."""
    status: str = PLAYING
    meta: dict[str, Any] = field(default_factory=dict)
    """Anything else the program needs (JSON): display names, token hashes..."""
    room: str | None = None
    """The web room playing it, if any."""
    created_at: datetime | None = None
    updated_at: datetime | None = None
    stored_games: int = 0
    """How many of ``match.records`` are stored as games (kept by the store)."""

    @property
    def stats_level(self) -> str:
        """The level the games count under: the computer's level, or ``friend``."""
        return (self.level or COMPUTER) if self.kind == COMPUTER else FRIEND


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A stored match without replaying it: enough for a list of games to resume."""

    id: str
    room: str | None
    source: str
    kind: str
    level: str | None
    players: tuple[str | None, str | None]
    status: str
    score: tuple[int, int]
    game_number: int
    meta: dict[str, Any]
    updated_at: datetime


class Store:
    """A database of matches, games, statistics and settings. Open one with :meth:`open`."""

    def __init__(self, url: str, *, echo: bool = False) -> None:
        self.url = url
        self.location = describe(url)
        prepare(url)
        backend = make_url(url).get_backend_name()
        if backend == "sqlite":
            self.engine: Engine = create_engine(
                url, echo=echo, connect_args={"timeout": 30, "check_same_thread": False}
            )
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(url, echo=echo, pool_pre_ping=True)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._create_schema()

    @classmethod
    def open(cls, url: str | None = None) -> Store:
        """Open (creating it as needed) the database at ``url``, a URL or an SQLite path;
        None means ``$SPITE_MALICE_DB``, ``$DATABASE_URL`` or the per-user file."""
        try:
            return cls(resolve_url(url))
        except SpiteMaliceError:
            raise
        except Exception as error:  # a bad URL, a missing driver, a server not reachable
            where = _printable(url)
            reason = str(error).split("\n(Background", 1)[0]
            raise StoreError(f"cannot open the database {where}: {reason}") from error

    def close(self) -> None:
        self.engine.dispose()

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
    def _session(self) -> Iterator[Session]:
        with self._sessions.begin() as session:
            yield session

    def _create_schema(self) -> None:
        Base.metadata.create_all(self.engine)
        with self._session() as session:
            info = session.get(StoreInfo, "schema_version")
            if info is None:
                session.add(StoreInfo(key="schema_version", value=str(SCHEMA_VERSION)))
            elif info.value != str(SCHEMA_VERSION):
                raise StoreError(
                    f"the database {self.location} has schema version {info.value}; "
                    f"this program reads version {SCHEMA_VERSION}"
                )

    # ----------------------------------------------------------------- matches

    def save_match(self, saved: SavedMatch) -> None:
        """Write the match as it is now (call it after every move).

        Games of the match that ended since the last save are stored as games and counted in
        the statistics of the seats' players, in the same transaction; the last of them
        takes ``saved.assisted``. When the match has reached its target it is marked
        finished and counted too.
        """
        self.save_matches([saved])

    def save_matches(self, matches: Sequence[SavedMatch]) -> None:
        """:meth:`save_match` for several matches in one transaction (a server saving the
        moves of many rooms at once commits once, with one batched UPDATE)."""
        now = utcnow()
        rows: list[dict[str, Any]] = []
        statuses: list[str] = []
        for saved in matches:
            status = saved.status
            state = saved.match.to_json()  # books a finished current game
            if saved.match.is_over and status == PLAYING:
                status = FINISHED
            statuses.append(status)
            rows.append(
                {
                    "match_id": saved.id,
                    "room": saved.room,
                    "source": saved.source,
                    "kind": saved.kind,
                    "level": saved.level,
                    "player0": saved.players[0],
                    "player1": saved.players[1],
                    "status": status,
                    "state": state,
                    "assisted": saved.assisted,
                    "meta": dict(saved.meta),
                    "updated_at": now,
                }
            )
        with self._session() as session:
            # a match this program has not stored yet may still exist (made elsewhere)
            fresh = {saved.id for saved in matches if saved.created_at is None}
            if fresh:
                known = set(session.scalars(select(MatchRow.id).where(MatchRow.id.in_(fresh))))
                fresh -= known
            inserts = [row for row in rows if row["match_id"] in fresh]
            updates = [row for row in rows if row["match_id"] not in fresh]
            if inserts:
                session.execute(
                    insert(_MATCHES),
                    [
                        {"id": row["match_id"], "created_at": now}
                        | {k: v for k, v in row.items() if k != "match_id"}
                        for row in inserts
                    ],
                )
            if updates:  # the common case, moves: one prepared UPDATE for the whole batch
                session.execute(_UPDATE_MATCH, updates)
            for saved, status in zip(matches, statuses, strict=True):
                records = saved.match.records
                for number in range(saved.stored_games + 1, len(records) + 1):
                    assisted = saved.assisted and number == len(records)
                    self._add_game(session, saved, number, records[number - 1], assisted)
                if status != saved.status:
                    self._add_match_results(session, saved)
        for saved, status in zip(matches, statuses, strict=True):
            saved.stored_games = len(saved.match.records)
            saved.status = status
            saved.updated_at = now
            if saved.created_at is None:
                saved.created_at = now

    def abandon_match(self, saved: SavedMatch, by: int) -> None:
        """Give up the match: an unfinished game with at least one move counts as a loss
        scoring 0 for seat ``by`` (and a win scoring 0 for a person in the other seat)."""
        self.save_match(saved)
        game = saved.match.game
        with self._session() as session:
            if game is not None and not game.is_over and game.moves:
                record = GameRecord.from_game(game, saved.match.players)
                number = len(saved.match.records) + 1
                winner = 1 - by
                row = GameRow(
                    match_id=saved.id,
                    number=number,
                    seed=record.seed,
                    record=record.to_json(),
                    winner=winner,
                    points=0,
                    reason="abandoned",
                    assisted=saved.assisted,
                    abandoned=True,
                )
                session.add(row)
                session.flush()
                for seat, player in enumerate(saved.players):
                    if player is not None:
                        session.add(
                            ResultRow(
                                game_id=row.id,
                                player=player,
                                seat=seat,
                                level=saved.stats_level,
                                outcome=WIN if seat == winner else LOSS,
                                points_for=0,
                                points_against=0,
                                assisted=saved.assisted and seat == by,
                            )
                        )
            match_row = session.get(MatchRow, saved.id)
            if match_row is not None and match_row.status == PLAYING:
                match_row.status = ABANDONED
                match_row.updated_at = utcnow()
        if saved.status == PLAYING:
            saved.status = ABANDONED

    def load_match(self, match_id: str) -> SavedMatch | None:
        """The stored match (replayed exactly from its records), or None when unknown."""
        with self._session() as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                return None
            stored = session.scalar(
                select(func.count())
                .select_from(GameRow)
                .where(GameRow.match_id == match_id, GameRow.abandoned.is_(False))
            )
        try:
            match = Match.from_json(row.state)
        except (SpiteMaliceError, ValueError, TypeError, KeyError) as error:
            raise StoreError(f"match {match_id!r} cannot be replayed: {error}") from error
        return SavedMatch(
            id=row.id,
            match=match,
            kind=row.kind,
            level=row.level,
            players=(row.player0, row.player1),
            source=row.source,
            assisted=row.assisted,
            status=row.status,
            meta=dict(row.meta),
            room=row.room,
            created_at=_aware(row.created_at),
            updated_at=_aware(row.updated_at),
            stored_games=stored or 0,
        )

    def load_room(self, room: str) -> SavedMatch | None:
        """The latest match of a web room, or None when the room is unknown."""
        with self._session() as session:
            match_id = session.scalar(
                select(MatchRow.id)
                .where(MatchRow.room == room)
                .order_by(MatchRow.created_at.desc(), MatchRow.id.desc())
                .limit(1)
            )
        return None if match_id is None else self.load_match(match_id)

    def has_room(self, room: str) -> bool:
        with self._session() as session:
            found = session.scalar(select(MatchRow.id).where(MatchRow.room == room).limit(1))
            return found is not None

    def has_match(self, match_id: str) -> bool:
        with self._session() as session:
            return session.get(MatchRow, match_id) is not None

    def matches(
        self,
        *,
        status: str | None = PLAYING,
        source: str | None = None,
        player: str | None = None,
    ) -> list[MatchSummary]:
        """Stored matches, most recently played first (by default the unfinished ones)."""
        query = select(MatchRow).order_by(MatchRow.updated_at.desc(), MatchRow.id)
        if status is not None:
            query = query.where(MatchRow.status == status)
        if source is not None:
            query = query.where(MatchRow.source == source)
        if player is not None:
            query = query.where((MatchRow.player0 == player) | (MatchRow.player1 == player))
        with self._session() as session:
            rows = session.scalars(query).all()
            return [_summary(row) for row in rows]

    def delete_match(self, match_id: str) -> None:
        """Forget a match and its games (and so their statistics)."""
        with self._session() as session:
            games = select(GameRow.id).where(GameRow.match_id == match_id)
            session.execute(delete(ResultRow).where(ResultRow.game_id.in_(games)))
            session.execute(delete(GameRow).where(GameRow.match_id == match_id))
            session.execute(delete(MatchResultRow).where(MatchResultRow.match_id == match_id))
            session.execute(delete(MatchRow).where(MatchRow.id == match_id))

    def games(self, match_id: str) -> list[GameRecord]:
        """The stored records of a match's finished games, in order (abandoned ones too)."""
        with self._session() as session:
            rows = session.scalars(
                select(GameRow).where(GameRow.match_id == match_id).order_by(GameRow.number)
            ).all()
            return [GameRecord.from_json(row.record) for row in rows]

    # ----------------------------------------------------------------- statistics

    def stats(self, player: str) -> PlayerStats:
        """``player``'s statistics per level, from every stored game and match."""
        with self._session() as session:
            results = session.execute(
                select(
                    ResultRow.level,
                    ResultRow.outcome,
                    ResultRow.points_for,
                    ResultRow.points_against,
                    ResultRow.assisted,
                )
                .where(ResultRow.player == player)
                .order_by(ResultRow.finished_at, ResultRow.id)
            ).all()
            matches = session.execute(
                select(MatchResultRow.level, MatchResultRow.won)
                .where(MatchResultRow.player == player)
                .order_by(MatchResultRow.finished_at, MatchResultRow.id)
            ).all()
        games = [GameOutcome(r[0], r[1], r[2], r[3], bool(r[4])) for r in results]
        return compute(player, games, [(m[0], bool(m[1])) for m in matches])

    def record_game(
        self,
        record: GameRecord,
        *,
        level: str,
        players: tuple[str | None, str | None],
        assisted: bool = False,
        source: str = "terminal",
    ) -> None:
        """Count one finished game that is not part of a stored match (a one-off game).

        ``players`` are the statistics ids of the seats (None for the computer).
        """
        if record.result is None:
            raise StoreError("only a finished game can be recorded")
        saved = SavedMatch(
            id=f"game-{utcnow().strftime('%Y%m%d%H%M%S%f')}-{record.seed}",
            match=Match(record.rules, record.seed, record.players),
            kind=FRIEND if level == FRIEND else COMPUTER,
            level=None if level == FRIEND else level,
            players=players,
            source=source,
            status=FINISHED,
        )
        with self._session() as session:
            session.add(
                MatchRow(
                    id=saved.id,
                    source=source,
                    kind=saved.kind,
                    level=saved.level,
                    player0=players[0],
                    player1=players[1],
                    status=FINISHED,
                    state={"format": 1, "single_game": True},
                    assisted=assisted,
                    meta={"single_game": True},
                )
            )
            session.flush()
            self._add_game(session, saved, 1, record, assisted)

    # ----------------------------------------------------------------- settings

    def settings(self, player: str) -> dict[str, Any] | None:
        """The settings stored for ``player``, or None."""
        with self._session() as session:
            row = session.get(SettingsRow, player)
            return None if row is None else dict(row.data)

    def save_settings(self, player: str, data: dict[str, Any]) -> None:
        with self._session() as session:
            row = session.get(SettingsRow, player)
            if row is None:
                session.add(SettingsRow(player=player, data=dict(data)))
            else:
                row.data = dict(data)
                row.updated_at = utcnow()

    # ----------------------------------------------------------------- internals

    def _add_game(
        self, session: Session, saved: SavedMatch, number: int, record: GameRecord, assisted: bool
    ) -> None:
        result = record.result
        assert result is not None
        exists = session.scalar(
            select(GameRow.id).where(GameRow.match_id == saved.id, GameRow.number == number)
        )
        if exists is not None:
            return
        row = GameRow(
            match_id=saved.id,
            number=number,
            seed=record.seed,
            record=record.to_json(),
            winner=result.winner,
            points=result.points,
            reason=result.reason,
            assisted=assisted,
            abandoned=False,
        )
        session.add(row)
        session.flush()
        for seat, player in enumerate(saved.players):
            if player is None:
                continue
            scored = result.points if result.winner == seat else 0
            conceded = result.points if result.winner == 1 - seat else 0
            session.add(
                ResultRow(
                    game_id=row.id,
                    player=player,
                    seat=seat,
                    level=saved.stats_level,
                    outcome=outcome_for(seat, result.winner),
                    points_for=scored,
                    points_against=conceded,
                    # undo exists only against the computer, for the person's seat
                    assisted=assisted,
                )
            )

    def _add_match_results(self, session: Session, saved: SavedMatch) -> None:
        winner = saved.match.winner
        for seat, player in enumerate(saved.players):
            if player is None:
                continue
            exists = session.scalar(
                select(MatchResultRow.id).where(
                    MatchResultRow.match_id == saved.id, MatchResultRow.seat == seat
                )
            )
            if exists is None:
                session.add(
                    MatchResultRow(
                        match_id=saved.id,
                        player=player,
                        seat=seat,
                        level=saved.stats_level,
                        won=winner == seat,
                    )
                )


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _printable(url: str | None) -> str:
    """The database's place for a message, never with its password."""
    try:
        return describe(resolve_url(url))
    except Exception:
        return "(an unreadable database URL)"


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _summary(row: MatchRow) -> MatchSummary:
    state = row.state
    score = state.get("score", [0, 0])
    games = state.get("games", [])
    return MatchSummary(
        id=row.id,
        room=row.room,
        source=row.source,
        kind=row.kind,
        level=row.level,
        players=(row.player0, row.player1),
        status=row.status,
        score=(int(score[0]), int(score[1])),
        game_number=len(games) + (1 if "current" in state or not games else 0),
        meta=dict(row.meta),
        updated_at=_aware(row.updated_at),
    )


__all__: Sequence[str] = [
    "ABANDONED",
    "FINISHED",
    "PLAYING",
    "MatchSummary",
    "SavedMatch",
    "Store",
    "StoreError",
    "default_player",
]
