"""Matches played offline in the page, sent back once replayed (``docs/offline.md``).

A match is kept once per player and match id, with the steps the server replayed; its
finished games and the match itself count in the player's offline statistics, apart from
the games played on the server, the daily deals and any rating. A match sent again (the page
sends whatever it has not heard back about, and sends a match again as it goes on) counts
only what it adds: its steps must go on from the ones kept, or it is refused.

The id is the page's, so a game is counted by what it is, not by its id: each counted game
carries its content key (:func:`game_key`, a hash of the replayed game: level, rules, deal,
who started, the moves that stand and the result), and each finished match the key of its
games (:func:`match_key`). A key counts once, for everyone: the same game sent again under
another id counts nothing more, and a copy sent by another player is refused
(:class:`CountedElsewhere`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from .access import Store
from .schema import utcnow
from .stats import PlayerStats, compute

_META = MetaData()
OFFLINE_MATCHES = Table(
    "offline_matches",
    _META,
    Column("player", String(128), primary_key=True),
    Column("match_id", String(32), primary_key=True),
    Column("level", String(64), nullable=False),
    Column("steps", JSON, nullable=False),
    Column("over", Boolean, nullable=False),
    Column("uploaded_at", DateTime(timezone=True), nullable=False),
)
OFFLINE_RESULTS = Table(
    "offline_results",
    _META,
    Column("player", String(128), primary_key=True),
    Column("match_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("level", String(64), nullable=False),
    Column("outcome", String(8), nullable=False),
    Column("points_for", Integer, nullable=False),
    Column("points_against", Integer, nullable=False),
    Column("assisted", Boolean, nullable=False),
    Column("record", JSON, nullable=True),
    Column("finished_at", DateTime(timezone=True), nullable=False),
    Column("content", String(64), nullable=True),
    Index("offline_results_content", "content", unique=True),
)
"""``content``: the row's :func:`game_key` (a game) or :func:`match_key` (the match itself),
unique: the same game counts once, whoever sends it under whatever id (migration 0011; rows
counted before it that repeat a kept key have none)."""
MATCH_NUMBER = 0
"""The ``number`` of a match's own row in ``offline_results`` (its games count from 1)."""


@dataclass(frozen=True, slots=True)
class OfflineGame:
    """A finished game of a match sent back, from the player's side."""

    number: int
    outcome: str
    points_for: int
    points_against: int
    assisted: bool
    record: dict[str, Any]


@dataclass(frozen=True, slots=True)
class OfflineMatch:
    """A replayed match, as the server keeps it."""

    match_id: str
    level: str
    steps: list[dict[str, Any]]
    games: Sequence[OfflineGame]
    over: bool
    won: bool | None


@dataclass(frozen=True, slots=True)
class Saved:
    """What keeping a match added: its games counted now (0 when sent before)."""

    new_games: int
    new_match: bool
    known: bool
    """Whether the match was kept before (sent again), under this id or, for its games,
    under another."""
    already_counted: int = 0
    """Its finished games that were counted before (under this id or another)."""


class StepsDiffer(Exception):
    """The match was kept before with other steps than the ones sent now."""


class CountedElsewhere(Exception):
    """A game of the match is counted for another player already: a copy of their game."""


def _digest(data: object) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def game_key(level: str, record: dict[str, Any]) -> str:
    """The content key of a finished game: a hash of its level and of what its replayed
    record says of the game itself (rules, the deal's seed, who started, the moves that
    stand, the result), not of the names, nor of the undos and hints on the way (a game
    sent again with a move taken back and played again is the same game)."""
    return _digest(
        {
            "level": level,
            "rules": record.get("rules"),
            "seed": record.get("seed"),
            "first": record.get("first"),
            "moves": record.get("moves"),
            "result": record.get("result"),
        }
    )


def match_key(level: str, games: Sequence[str], won: bool | None) -> str | None:
    """The content key of a finished match: a hash of its level, its games' keys in order
    and who won it; None for a match with no finished game (none ends so, R5.1)."""
    if not games:
        return None
    return _digest({"level": level, "games": list(games), "won": bool(won)})


def save_offline_match(store: Store, player: str, match: OfflineMatch) -> Saved:
    """Keep ``match`` for ``player`` and count what it adds (its games and itself whose
    content keys are not counted yet); StepsDiffer when it was kept before with steps it
    does not go on from, CountedElsewhere when a game of it is counted for another player.
    Two sendings at once count once."""
    try:
        return _save(store, player, match)
    except IntegrityError:
        return _save(store, player, match)  # the other sending won: count what is left


def _save(store: Store, player: str, match: OfflineMatch) -> Saved:
    now = utcnow()
    keys = {game.number: game_key(match.level, game.record) for game in match.games}
    ordered = [keys[number] for number in sorted(keys)]
    whole = match_key(match.level, ordered, match.won) if match.over else None
    wanted = [*keys.values(), *([whole] if whole is not None else [])]
    with store._session(write=True) as session:
        owners = dict(
            session.execute(
                select(OFFLINE_RESULTS.c.content, OFFLINE_RESULTS.c.player).where(
                    OFFLINE_RESULTS.c.content.in_(wanted)
                )
            ).all()
        )
        if any(owner != player for owner in owners.values()):
            raise CountedElsewhere(match.match_id)
        kept = session.execute(
            select(OFFLINE_MATCHES.c.steps).where(
                OFFLINE_MATCHES.c.player == player, OFFLINE_MATCHES.c.match_id == match.match_id
            )
        ).first()
        if kept is not None:
            before = list(kept[0])
            if match.steps[: len(before)] != before:
                raise StepsDiffer(match.match_id)
            if len(match.steps) > len(before):
                session.execute(
                    update(OFFLINE_MATCHES)
                    .where(
                        OFFLINE_MATCHES.c.player == player,
                        OFFLINE_MATCHES.c.match_id == match.match_id,
                    )
                    .values(steps=match.steps, over=match.over, uploaded_at=now)
                )
        else:
            session.execute(
                insert(OFFLINE_MATCHES).values(
                    player=player,
                    match_id=match.match_id,
                    level=match.level,
                    steps=match.steps,
                    over=match.over,
                    uploaded_at=now,
                )
            )
        counted = set(
            session.scalars(
                select(OFFLINE_RESULTS.c.number).where(
                    OFFLINE_RESULTS.c.player == player,
                    OFFLINE_RESULTS.c.match_id == match.match_id,
                )
            ).all()
        )
        fresh = [
            game
            for game in match.games
            if game.number not in counted and keys[game.number] not in owners
        ]
        rows = [
            {
                "player": player,
                "match_id": match.match_id,
                "number": game.number,
                "level": match.level,
                "outcome": game.outcome,
                "points_for": game.points_for,
                "points_against": game.points_against,
                "assisted": game.assisted,
                "record": game.record,
                "finished_at": now,
                "content": keys[game.number],
            }
            for game in fresh
        ]
        new_match = match.over and MATCH_NUMBER not in counted and whole not in owners
        if new_match:
            rows.append(
                {
                    "player": player,
                    "match_id": match.match_id,
                    "number": MATCH_NUMBER,
                    "level": match.level,
                    "outcome": "win" if match.won else "loss",
                    "points_for": 0,
                    "points_against": 0,
                    "assisted": False,
                    "record": None,
                    "finished_at": now,
                    "content": whole,
                }
            )
        if rows:
            session.execute(insert(OFFLINE_RESULTS), rows)
    already = len(match.games) - len(fresh)
    return Saved(len(fresh), new_match, kept is not None or bool(owners), already)


def offline_stats(store: Store, player: str) -> PlayerStats:
    """``player``'s statistics of the games played offline, per level and in total."""
    from .stats import GameOutcome

    with store._session() as session:
        rows = session.execute(
            select(
                OFFLINE_RESULTS.c.number,
                OFFLINE_RESULTS.c.level,
                OFFLINE_RESULTS.c.outcome,
                OFFLINE_RESULTS.c.points_for,
                OFFLINE_RESULTS.c.points_against,
                OFFLINE_RESULTS.c.assisted,
            )
            .where(OFFLINE_RESULTS.c.player == player)
            .order_by(
                OFFLINE_RESULTS.c.finished_at,
                OFFLINE_RESULTS.c.match_id,
                OFFLINE_RESULTS.c.number,
            )
        ).all()
    games = [
        GameOutcome(row[1], row[2], row[3], row[4], bool(row[5]))
        for row in rows
        if row[0] != MATCH_NUMBER
    ]
    matches = [(row[1], row[2] == "win") for row in rows if row[0] == MATCH_NUMBER]
    return compute(player, games, matches)


__all__ = [
    "OFFLINE_MATCHES",
    "OFFLINE_RESULTS",
    "CountedElsewhere",
    "OfflineGame",
    "OfflineMatch",
    "Saved",
    "StepsDiffer",
    "game_key",
    "kept_steps",
    "match_key",
    "offline_stats",
    "save_offline_match",
]


def kept_steps(store: Store, player: str, match_id: str) -> list[dict[str, Any]]:
    """The steps kept of ``player``'s offline match ``match_id`` (none when not kept)."""
    with store._session() as session:
        kept = session.execute(
            select(OFFLINE_MATCHES.c.steps).where(
                OFFLINE_MATCHES.c.player == player, OFFLINE_MATCHES.c.match_id == match_id
            )
        ).first()
    return list(kept[0]) if kept is not None else []
