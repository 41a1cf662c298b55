"""Fixtures for the web server tests: an app on a fresh SQLite file, and seat clients that
keep every message they receive (the hidden-card test scans them all)."""

from __future__ import annotations

import json
import random
import re
import shutil
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")

from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from starlette.testclient import WebSocketTestSession  # noqa: E402

from spite_malice.bots.greedy import greedy as greedy  # noqa: E402  (the web tests' policy)
from spite_malice.engine import match as engine_match  # noqa: E402
from spite_malice.table.seat_state import apply_delta  # noqa: E402
from spite_malice.web import create_app  # noqa: E402
from spite_malice.web.api import PLAYER_HEADER  # noqa: E402
from spite_malice.web.rooms import Room  # noqa: E402

PLAYER = "alice"
CARD = re.compile(r"\b[A2-9TJQK][SHDC]\b")
MAX_MESSAGES = 5000
"""A bound on messages awaited for one condition, so a broken server fails instead of hanging."""


def card_strings(text: str) -> set[str]:
    """Every card notation in a JSON text."""
    return set(CARD.findall(text))


class Seat:
    """One seat's WebSocket: sends page messages and keeps every message received."""

    def __init__(self, socket: WebSocketTestSession, seat: int, deltas: bool = False) -> None:
        self.socket = socket
        self.seat = seat
        self.deltas = deltas
        """Whether its hello asked for deltas: each update's ``delta`` is applied to the last
        state (as ``net.js`` does) and the message kept with the ``state`` it makes."""
        self.messages: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self.state: dict[str, Any] = {}
        self.seq: int | None = None
        self.next_id = 0

    def receive(self) -> dict[str, Any]:
        text = self.socket.receive_text()
        message: dict[str, Any] = json.loads(text)
        self.texts.append(text)
        self.messages.append(message)
        if "delta" in message:
            assert self.deltas, f"a delta to a connection that did not ask: {text[:200]}"
            assert "state" not in message
            base = message["base"]
            assert base == self.seq, f"a delta of state {base}, not {self.seq}"
            message["state"] = apply_delta(self.state, message["delta"])
        elif message["type"] == "update":
            assert "state" in message and "base" not in message
        if "state" in message:
            self.state = message["state"]
            self.seq = message["seq"]
        return message

    def until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Receive until a message satisfies ``done``; return it."""
        for _ in range(MAX_MESSAGES):
            message = self.receive()
            if done(message):
                return message
        raise AssertionError("the awaited message never came")

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a message with a fresh id and return the direct reply to it."""
        self.next_id += 1
        ident = self.next_id
        self.socket.send_json({**message, "id": ident})
        return self.until(lambda m: m.get("reply_to") == ident)

    def send_raw(self, text: str) -> dict[str, Any]:
        """Send any text and return the next error or direct reply (the computer's moves,
        which may arrive meanwhile, are kept but skipped)."""
        self.socket.send_text(text)
        return self.until(lambda m: m["type"] in ("error", "pong") or m.get("reply_to") is not None)

    @property
    def observation(self) -> dict[str, Any]:
        obs: dict[str, Any] = self.state["observation"]
        return obs

    def my_turn(self) -> bool:
        obs = self.observation
        return obs["outcome"] is None and obs["to_move"] == self.seat

    def wait_my_turn_or_end(self) -> None:
        """Receive until it is this seat's turn or the game is over."""
        if self.state and (self.my_turn() or self.observation["outcome"] is not None):
            return
        self.until(
            lambda m: (
                "state" in m
                and (
                    m["state"]["observation"]["outcome"] is not None
                    or (
                        m["state"]["observation"]["to_move"] == self.seat
                        and not m["state"]["thinking"]
                    )
                )
            )
        )

    def play(self, move: str) -> dict[str, Any]:
        return self.request({"type": "move", "move": move})

    def hint_build_undo(self) -> None:
        """On this seat's turn: ask for a hint, play a build if there is one and take it
        back (the helps' messages: a hint, an update, an undo's state)."""
        self.request({"type": "hint"})
        builds = [m for m in self.observation["legal_moves"] if "-C" in m]
        if builds:
            self.play(builds[0])
            self.request({"type": "undo"})


@pytest.fixture
def db_path(tmp_path: Path, new_database: Path) -> Path:
    """This test's database file: a new one (a copy of ``new_database``, tests/conftest.py)."""
    path = tmp_path / "web.db"
    shutil.copyfile(new_database, path)
    return path


@pytest.fixture
def make_app(db_path: Path) -> Callable[[], FastAPI]:
    def make() -> FastAPI:
        return create_app(str(db_path))

    return make


def new_player(client: TestClient, name: str) -> dict[str, str]:
    """Make a player on the server; the header that carries its secret."""
    answer = client.post("/api/players", json={"name": name}, headers={PLAYER_HEADER: ""})
    assert answer.status_code == 201, answer.text
    return {PLAYER_HEADER: answer.json()["secret"]}


@pytest.fixture
def client(make_app: Callable[[], FastAPI]) -> Iterator[TestClient]:
    """A client that plays as the player ``alice`` (its secret in every request)."""
    with TestClient(make_app()) as test_client:
        test_client.headers.update(new_player(test_client, PLAYER))
        yield test_client


def fixed_deals(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Make the server's secret deals repeatable for one test (a friend room takes no seed:
    the server alone deals, issue 12), by seeding the randomness the deals come from."""
    draws = random.Random(seed)
    monkeypatch.setattr(engine_match, "secrets", SimpleNamespace(randbits=draws.getrandbits))


def hello(answer: dict[str, Any], deltas: bool = False) -> dict[str, Any]:
    """The first message of a seat's connection: its token (web-protocol 4), and whether it
    applies deltas (4.3)."""
    if deltas:
        return {"type": "hello", "token": answer["token"], "delta": True}
    return {"type": "hello", "token": answer["token"]}


def new_room(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("mode", "computer")
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def room_of(client: TestClient, code: str) -> Room:
    room: Room = client.app.state.lobby.rooms[code]  # type: ignore[attr-defined]
    return room


@contextmanager
def open_seat(
    client: TestClient,
    answer: dict[str, Any],
    *,
    deltas: bool = False,
    language: str | None = None,
) -> Iterator[Seat]:
    """The seat's connection, its hello said and its first state read; ``language`` as the
    page asks for one (``?lang=``)."""
    url = answer["ws_url"] + (f"?lang={language}" if language else "")
    with client.websocket_connect(url) as socket:
        socket.send_json(hello(answer, deltas))
        seat = Seat(socket, answer["seat"], deltas)
        assert seat.receive()["type"] == "welcome"
        first = seat.receive()
        assert first["type"] == "state" and first["cause"] == "connect"
        yield seat
