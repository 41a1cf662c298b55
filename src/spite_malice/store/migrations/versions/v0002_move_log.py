"""Version 2: the move log is the truth; players with secrets.

Every match's ``state`` (``Match.to_json()``) becomes rows of ``moves`` (a deal with its seed,
then the moves; a game marked assisted gets a hint step), its ``meta`` becomes the table's
one shape (seats, level, token hashes), and the columns ``state`` and ``assisted`` go.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"

_matches = sa.table(
    "matches",
    sa.column("id", sa.String),
    sa.column("source", sa.String),
    sa.column("kind", sa.String),
    sa.column("level", sa.String),
    sa.column("player0", sa.String),
    sa.column("player1", sa.String),
    sa.column("state", sa.JSON),
    sa.column("assisted", sa.Boolean),
    sa.column("meta", sa.JSON),
    sa.column("rules", sa.JSON),
    sa.column("seed", sa.BigInteger),
    sa.column("score0", sa.Integer),
    sa.column("score1", sa.Integer),
    sa.column("game_number", sa.Integer),
)
_games = sa.table(
    "games",
    sa.column("match_id", sa.String),
    sa.column("number", sa.Integer),
    sa.column("assisted", sa.Boolean),
)
_moves = sa.table(
    "moves",
    sa.column("match_id", sa.String),
    sa.column("game", sa.Integer),
    sa.column("ply", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("seat", sa.Integer),
    sa.column("move", sa.String),
    sa.column("seed", sa.BigInteger),
    sa.column("created_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "moves",
        sa.Column(
            "match_id",
            sa.String(64),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("game", sa.Integer, primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("seat", sa.Integer),
        sa.Column("move", sa.String(16)),
        sa.Column("seed", sa.BigInteger),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("rules", sa.JSON))
        batch.add_column(sa.Column("seed", sa.BigInteger))
        batch.add_column(sa.Column("score0", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("score1", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("game_number", sa.Integer, nullable=False, server_default="0"))
    bind = op.get_bind()
    assisted_games: dict[str, set[int]] = {}
    for match_id, number, assisted in bind.execute(
        sa.select(_games.c.match_id, _games.c.number, _games.c.assisted)
    ):
        if assisted:
            assisted_games.setdefault(match_id, set()).add(number)
    now = datetime.now(UTC)
    for row in bind.execute(sa.select(_matches)).mappings().all():
        _convert(bind, dict(row), assisted_games.get(row["id"], set()), now)
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("state")
        batch.drop_column("assisted")
    op.execute("UPDATE store_info SET value = '2' WHERE key = 'schema_version'")


def _loads(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _convert(bind: sa.Connection, row: dict[str, Any], marked: set[int], now: datetime) -> None:
    from spite_malice.table.levels import level_label

    state = _loads(row["state"]) or {}
    meta = _loads(row["meta"]) or {}
    names = list(meta.get("names") or [meta.get("name"), None])
    computer = row["kind"] == "computer"
    level = row["level"]
    seats = [
        {"kind": "person", "name": names[0] or "You", "player": row["player0"]},
        (
            {"kind": "computer", "name": level_label(level or "medium"), "player": None}
            if computer
            else {"kind": "friend", "name": names[1], "player": row["player1"]}
        ),
    ]
    seed = state.get("seed")
    new_meta = {
        "format": 2,
        "seats": seats,
        "level": level,
        "tokens": list(meta.get("tokens") or [None, None]),
        "bot_seed": seed if isinstance(seed, int) else 0,
    }
    if meta.get("single_game"):
        new_meta["single_game"] = True
    marked = marked | {int(n) for n in meta.get("assisted_games") or [] if isinstance(n, int)}
    records = list(state.get("games") or [])
    if "current" in state:
        records.append(state["current"])
        if row["assisted"]:
            marked.add(len(records))
    steps: list[dict[str, Any]] = []
    for number, record in enumerate(records, start=1):
        steps.append(_step(row["id"], number, 0, "deal", None, None, record.get("seed"), now))
        for ply, move in enumerate(record.get("moves") or [], start=1):
            steps.append(_step(row["id"], number, ply, "move", None, str(move), None, now))
        if number in marked:
            ply = len(record.get("moves") or []) + 1
            steps.append(_step(row["id"], number, ply, "hint", 0, None, None, now))
    if steps:
        bind.execute(sa.insert(_moves), steps)
    score = state.get("score") or [0, 0]
    bind.execute(
        sa.update(_matches)
        .where(_matches.c.id == row["id"])
        .values(
            meta=new_meta,
            rules=state.get("rules") or {},
            seed=seed if isinstance(seed, int) else None,
            score0=int(score[0]),
            score1=int(score[1]),
            game_number=len(records),
        )
    )


def _step(
    match_id: str,
    game: int,
    ply: int,
    kind: str,
    seat: int | None,
    move: str | None,
    seed: int | None,
    now: datetime,
) -> dict[str, Any]:
    return {
        "match_id": match_id,
        "game": game,
        "ply": ply,
        "kind": kind,
        "seat": seat,
        "move": move,
        "seed": seed,
        "created_at": now,
    }
