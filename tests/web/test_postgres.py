"""The server on PostgreSQL through the same URL: a game against the computer is stored there
and resumes after a restart. Skipped without ``SPITE_MALICE_TEST_POSTGRES_URL``."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from spite_malice.web import create_app

from .conftest import PLAYER, new_room, open_seat
from .test_socket import play_turn

POSTGRES_ENV = "SPITE_MALICE_TEST_POSTGRES_URL"

pytestmark = pytest.mark.postgres


@pytest.fixture
def postgres_url() -> Iterator[str]:
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"no PostgreSQL server: set {POSTGRES_ENV} (.ci/run does) to run this test")
    schema = f"web_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def test_a_game_on_postgresql_resumes_after_a_restart(postgres_url: str) -> None:
    with TestClient(create_app(postgres_url, player=PLAYER)) as client:
        answer = new_room(client, level="easy", rules={"payoff_size": 5}, seed=21)
        with open_seat(client, answer) as seat:
            play_turn(seat)
            seat.wait_my_turn_or_end()
            before = seat.request({"type": "sync"})["state"]
    with (
        TestClient(create_app(postgres_url, player=PLAYER)) as client,
        open_seat(client, answer) as seat,
    ):
        assert seat.state["observation"] == before["observation"]
        stats = client.get("/api/stats").json()
        assert stats["player"] == PLAYER
