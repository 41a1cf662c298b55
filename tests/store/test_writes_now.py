"""A SQLite file's group commit written on the event loop (``MoveLog.append_many_now``):
stored like any group commit, and refused at once, nothing written, when another writer
holds the file, so that the loop never waits for a lock (the group commit then writes on a
thread, as every other call does)."""

from __future__ import annotations

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
