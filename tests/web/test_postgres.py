"""The server on PostgreSQL through the same URL: a game against the computer is stored there
and resumes after a restart. Skipped without ``SPITE_MALICE_TEST_POSTGRES_URL``."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from spite_malice.web import create_app

from .conftest import PLAYER, new_player, new_room, open_seat
from .test_socket import play_turn

pytestmark = pytest.mark.postgres


def test_a_game_on_postgresql_resumes_after_a_restart(postgres_schema_url: str) -> None:
    with TestClient(create_app(postgres_schema_url)) as client:
        me = new_player(client, PLAYER)
        client.headers.update(me)
        answer = new_room(client, level="easy", rules={"payoff_size": 5}, seed=21)
        with open_seat(client, answer) as seat:
            play_turn(seat)
            seat.wait_my_turn_or_end()
            before = seat.request({"type": "sync"})["state"]
    with (
        TestClient(create_app(postgres_schema_url)) as client,
        open_seat(client, answer) as seat,
    ):
        client.headers.update(me)
        assert seat.state["observation"] == before["observation"]
        stats = client.get("/api/stats").json()
        assert stats["player"] == PLAYER
