"""A SQLite file's group commit written on the event loop (``MoveLog.append_many_now``):
stored like any group commit, and refused at once, nothing written, when another writer
holds the file, so that the loop never waits for a lock (the group commit then writes on a
thread, as every other call does)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from spite_malice.store import Store
from spite_malice.store.database import WriteBusy

from .test_leases import _next_step
from .test_store import new_kept


def test_a_write_at_once_is_stored_or_refused_at_once(tmp_path: Path) -> None:
    store = Store.open(str(tmp_path / "now.db"))
    try:
        kept = new_kept(store, "m1", 11, room="ROOM01")
        assert store.db.writes_now
        header, step = _next_step(kept)
        store.append_many_now([(header, step)])
        assert store.head("m1") == (step.game, step.ply + 1)

        later = _next_step(kept)
        lock = store.db._write_lock
        assert lock is not None
        with lock, pytest.raises(WriteBusy):  # another thread of this process is writing
            store.append_many_now([later])
        other = sqlite3.connect(tmp_path / "now.db")
        other.execute("BEGIN IMMEDIATE")  # another process holds the file
        try:
            with pytest.raises(WriteBusy):
                store.append_many_now([later])
        finally:
            other.rollback()
            other.close()
        assert store.head("m1") == (step.game, step.ply + 1)  # nothing of it was written
        store.append_many_now([later])
        assert store.head("m1") == (later[1].game, later[1].ply + 1)
    finally:
        store.close()


def test_a_group_commit_stores_its_times_as_sqlalchemy_does(tmp_path: Path) -> None:
    """The group commit writes its rows with the driver's own statements: their times are
    the text SQLAlchemy's own statements store (the deal's row, written through them), and
    every match's time is the commit's."""
    store = Store.open(str(tmp_path / "times.db"))
    try:
        one, two = new_kept(store, "t1", 31, room="ROOMT1"), new_kept(store, "t2", 32)
        store.append_many_now([_next_step(one), _next_step(two), _next_step(one)])
        raw = sqlite3.connect(tmp_path / "times.db")
        try:
            rows = raw.execute(
                "SELECT match_id, ply, kind, seat, move, created_at FROM moves"
                " ORDER BY match_id, ply"
            ).fetchall()
            touched = dict(raw.execute("SELECT id, updated_at FROM matches").fetchall())
        finally:
            raw.close()
        sqlalchemy_time = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}")
        assert all(sqlalchemy_time.fullmatch(row[-1]) for row in rows), rows
        moves = [row for row in rows if row[2] == "move"]
        assert [(row[0], row[1]) for row in moves] == [("t1", 1), ("t1", 2), ("t2", 1)]
        assert len({row[-1] for row in moves}) == 1  # one commit, one time
        assert touched == {"t1": moves[0][-1], "t2": moves[0][-1]}
        assert store.head("t1") == (1, 3) and store.head("t2") == (1, 2)
        loaded = store.load_match("t1")
        assert loaded is not None
        assert [step.move for step in loaded.steps[1:]] == [row[4] for row in moves[:2]]
    finally:
        store.close()
