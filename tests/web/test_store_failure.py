"""Acknowledged means stored (issue 11, item 3): with the database locked by another program
a move gets ``store_unavailable``, nobody hears of it and the room stays at its last stored
state; settings, statistics and other rooms keep answering meanwhile."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spite_malice.store import Store
from spite_malice.web import create_app

from .conftest import PLAYER, Seat, new_player, new_room, open_seat

QUICK = {"payoff_size": 5}


@pytest.fixture
def quick_client(tmp_path: Path) -> Iterator[tuple[TestClient, Path]]:
    """A server whose store gives up on a locked file after 0.2 s (instead of 5 s)."""
    path = tmp_path / "locked.db"
    store = Store(f"sqlite:///{path}", busy_timeout=0.2)
    with TestClient(create_app(store=store)) as client:
        client.headers.update(new_player(client, PLAYER))
        yield client, path
    store.close()


def my_turn(seat: Seat) -> None:
    seat.wait_my_turn_or_end()
    assert seat.my_turn()


def test_a_locked_database_refuses_the_move_and_nothing_else_waits(
    quick_client: tuple[TestClient, Path],
) -> None:
    client, path = quick_client
    first = new_room(client, level="reference", rules=QUICK, seed=31)
    second = new_room(client, level="reference", rules=QUICK, seed=32)
    with open_seat(client, first) as seat, open_seat(client, second) as other:
        my_turn(seat)
        before = seat.request({"type": "sync"})["state"]
        move = seat.observation["legal_moves"][0]
        locker = sqlite3.connect(path, timeout=0)
        try:
            locker.execute("BEGIN IMMEDIATE")  # another program holds the write lock
            refused = seat.play(move)
            assert refused["type"] == "error" and refused["code"] == "store_unavailable"
            assert "did not happen" in refused["message"]
            # no update went out for it, and the room is where it was
            assert not [m for m in seat.messages if m["type"] == "update"]
            assert seat.request({"type": "sync"})["state"]["observation"] == before["observation"]
            # other endpoints and rooms keep answering while the lock is held
            assert client.get("/api/stats").status_code == 200
            assert client.get("/api/settings").status_code == 200
            assert client.get("/api/rooms").status_code == 200
            assert other.request({"type": "ping"})["type"] == "pong"
            assert other.request({"type": "sync"})["type"] == "state"
            created = client.post("/api/rooms", json={"mode": "computer", "level": "easy"})
            assert created.status_code == 503
            assert created.json()["error"]["code"] == "store_unavailable"
        finally:
            locker.rollback()
            locker.close()
        # once the lock is gone the same move goes through, and is stored
        played = seat.play(move)
        assert played["type"] == "update"
        assert played["state"]["observation"]["history"] == [
            *before["observation"]["history"],
            move,
        ]
    with Store.open(str(path)) as store:
        stored = store.load_room(first["room"])
        assert stored is not None
        moves = [step.move for step in stored.steps if step.kind == "move"]
        assert moves[len(before["observation"]["history"])] == move
