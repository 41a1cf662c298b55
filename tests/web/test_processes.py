"""Many processes, one database, no fork (issue 11, item 4), and no client can stall a room
(item 5): real ``spite-malice serve`` processes on loopback.

Two servers share one database (an SQLite file, and PostgreSQL when
``SPITE_MALICE_TEST_POSTGRES_URL`` is set). Seat 0 plays through one process and seat 1
through the other, their moves interleaved; a third client races moves through both at
once. Every acknowledged move must be in the log, in the order acknowledged, and both
processes must serve the same game.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from spite_malice.store import Store
from spite_malice.table import Table
from waiting import wait_for_health

from .conftest import greedy
from .test_serve import free_port

STARTUP_SECONDS = 60.0
QUICK = {"payoff_size": 5}
UNENDING = {"payoff_size": 20}
"""A game that cannot end in under 20 moves (a win plays 20 pay-off cards, R4.1): with
QUICK's five, a game dealt from fresh randomness sometimes ended before the 20 moves the
interleaving test checks."""
INTERLEAVED_MOVES = 20
INTERLEAVED_TURNS = 4
"""The interleaving test plays until both: 20 moves, in at least four turns (so that each
seat has played twice through its own process, each after the other's moves)."""


@contextmanager
def serve(db: str, port: int) -> Iterator[subprocess.Popen[str]]:
    """``spite-malice serve`` on ``db``, once it answers."""
    command = [sys.executable, "-m", "spite_malice", "serve", "--port", str(port), "--db", db]
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ)
    )
    try:
        wait_for_health(f"http://127.0.0.1:{port}", process, STARTUP_SECONDS)
        yield process
    finally:
        process.kill()
        process.wait(timeout=30)


@contextmanager
def seat_socket(port: int, ticket: dict[str, Any]) -> Iterator[ClientConnection]:
    """A seat's WebSocket on the process at ``port``, after its ``hello`` (web-protocol 4)."""
    with connect(f"ws://127.0.0.1:{port}{ticket['ws_url']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": ticket["token"]}))
        yield ws


def new_player(base: str, name: str) -> dict[str, str]:
    """The header of a new player of the server at ``base``."""
    answer = httpx.post(f"{base}/api/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    return {"X-Player-Secret": answer.json()["secret"]}


def reply(ws: ClientConnection, ident: int) -> dict[str, Any]:
    """Receive until the direct reply to ``ident``."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if message.get("reply_to") == ident:
            return message


def request(ws: ClientConnection, message: dict[str, Any], ident: int) -> dict[str, Any]:
    ws.send(json.dumps({**message, "id": ident}))
    return reply(ws, ident)


def stored_history(db: str, room: str) -> list[str]:
    with Store.open(db) as store:
        stored = store.load_room(room)
        assert stored is not None
        header = stored.header
        table = Table.restore(header.rules, header.seed, header.meta, stored.steps)
        return [str(move) for move in table.game.moves]


@dataclass(frozen=True)
class Pair:
    """Two ``spite-malice serve`` processes on one database."""

    db: str
    ports: tuple[int, int]

    @property
    def bases(self) -> tuple[str, str]:
        return (f"http://127.0.0.1:{self.ports[0]}", f"http://127.0.0.1:{self.ports[1]}")


@contextmanager
def serving_pair(db: str) -> Iterator[Pair]:
    ports = (free_port(), free_port())
    with serve(db, ports[0]), serve(db, ports[1]):
        yield Pair(db, ports)


@pytest.fixture(scope="module")
def sqlite_pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    """Two processes on one SQLite file, for the whole module (each test plays its own
    room; starting a pair costs two seconds of CPU)."""
    with serving_pair(str(tmp_path_factory.mktemp("processes") / "shared.db")) as pair:
        yield pair


@pytest.fixture(scope="module")
def postgresql_pair(postgres_module_url: str) -> Iterator[Pair]:
    with serving_pair(postgres_module_url) as pair:
        yield pair


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def pair(request: pytest.FixtureRequest) -> Pair:
    """Each database's pair of processes in turn."""
    found: Pair = request.getfixturevalue(f"{request.param}_pair")
    return found


def friend_room(host_base: str, guest_base: str, rules: Any) -> tuple[Any, Any]:
    """A friend room made by Ann through ``host_base`` and joined by Bob through
    ``guest_base``: the tickets of both seats."""
    host = httpx.post(
        f"{host_base}/api/rooms",
        json={"mode": "friend", "rules": rules},
        headers=new_player(host_base, "Ann"),
    ).json()
    guest = httpx.post(
        f"{guest_base}/api/rooms/{host['room']}/join", headers=new_player(guest_base, "Bob")
    ).json()
    return host, guest


def turns(movers: list[int]) -> int:
    """The turns in a run of moves, from the seat that made each."""
    return 1 + sum(a != b for a, b in pairwise(movers))


def test_two_processes_interleaving_moves_lose_and_fork_nothing(pair: Pair) -> None:
    ports, bases = pair.ports, pair.bases
    # the friend joins through the other process, which loads the room from the log
    host, guest = friend_room(bases[0], bases[1], UNENDING)
    assert guest["seat"] == 1, guest
    acknowledged: list[str] = []
    movers: list[int] = []
    with seat_socket(ports[0], host) as one, seat_socket(ports[1], guest) as two:
        seats = (one, two)
        ident = 0
        for _ in range(80):
            if len(acknowledged) >= INTERLEAVED_MOVES and turns(movers) >= INTERLEAVED_TURNS:
                break
            # whoever is to move asks its own process, which catches up with the log
            ident += 1
            state = request(one, {"type": "sync"}, ident)["state"]
            observation = state["observation"]
            if observation["outcome"] is not None:
                break
            mover = seats[observation["to_move"]]
            ident += 1
            synced = request(mover, {"type": "sync"}, ident)["state"]["observation"]
            assert synced["history"] == acknowledged  # nothing lost, nothing forked
            ident += 1
            answer = request(mover, {"type": "move", "move": greedy(synced)}, ident)
            assert answer["type"] == "update", answer
            acknowledged.append(answer["move"])
            movers.append(observation["to_move"])
            assert answer["state"]["observation"]["history"] == acknowledged
        assert len(acknowledged) >= INTERLEAVED_MOVES
        assert turns(movers) >= INTERLEAVED_TURNS, movers
        for seat, ws in enumerate(seats):
            ident += 1
            seen = request(ws, {"type": "sync"}, ident)["state"]["observation"]
            assert seen["history"] == acknowledged, f"seat {seat} sees another game"
    assert stored_history(pair.db, host["room"]) == acknowledged


def test_moves_raced_through_two_processes_never_fork(pair: Pair) -> None:
    """Both processes get a move for the same turn at the same moment: one is stored first;
    the other conflicts, reloads from the log and answers from it. Every acknowledged
    history is a prefix of the stored one: nothing forked, nothing acknowledged was lost."""
    ports, bases = pair.ports, pair.bases
    histories: list[list[str]] = []
    # 20 pay-off cards: with 5, on some deals a game ends in a few moves, before the ten
    # histories asked for below
    answer, guest = friend_room(bases[0], bases[0], UNENDING)
    tickets = (answer, guest)
    with (
        seat_socket(ports[0], tickets[0]) as a0,
        seat_socket(ports[0], tickets[1]) as a1,
        seat_socket(ports[1], tickets[0]) as b0,
        seat_socket(ports[1], tickets[1]) as b1,
    ):
        ident = 0
        for _ in range(25):
            ident += 1
            state = request(a0, {"type": "sync"}, ident)["state"]["observation"]
            if state["outcome"] is not None:
                break
            mover = state["to_move"]
            both = ((a0, b0), (a1, b1))[mover]  # the mover's seat on each process
            ident += 1
            request(both[1], {"type": "sync"}, ident)
            ident += 1
            mine = request(both[0], {"type": "sync"}, ident)["state"]["observation"]
            moves = (greedy(mine), mine["legal_moves"][-1])
            ident += 1
            for ws, move in zip(both, moves, strict=True):
                ws.send(json.dumps({"type": "move", "move": move, "id": ident}))
            answers = [reply(ws, ident) for ws in both]
            updates = [a for a in answers if a["type"] == "update"]
            assert updates, answers  # one of them is stored at least
            histories.extend(u["state"]["observation"]["history"] for u in updates)
        assert len(histories) >= 10
    stored = stored_history(pair.db, answer["room"])
    for history in histories:
        assert stored[: len(history)] == history


def _raw_socket(port: int, path: str) -> socket.socket:
    """A WebSocket client that completes the handshake and then never reads: a reader that
    does not keep up, as small buffers make it."""
    raw = socket.create_connection(("127.0.0.1", port))
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += raw.recv(1)
    assert b" 101 " in head.split(b"\r\n", 1)[0], head
    return raw


def _frame(text: str) -> bytes:
    """One masked text frame (a client's, RFC 6455 5.2)."""
    payload = text.encode()
    mask = os.urandom(4)
    length = len(payload)
    header = bytes([0x81])
    if length < 126:
        header += bytes([0x80 | length])
    else:
        header += bytes([0x80 | 126]) + length.to_bytes(2, "big")
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_socket_that_never_reads_does_not_stall_its_room(sqlite_pair: Pair) -> None:
    port, base = sqlite_pair.ports[0], sqlite_pair.bases[0]
    host, guest = friend_room(base, base, QUICK)
    with (
        seat_socket(port, host) as one,
        seat_socket(port, guest) as two,
    ):
        # a second tab of seat 1 that never reads, and sends 500 requests
        stuck = _raw_socket(port, guest["ws_url"])
        try:
            stuck.sendall(
                _frame(json.dumps({"type": "hello", "token": guest["token"]}))
                + b"".join(_frame(json.dumps({"type": "sync", "id": n})) for n in range(500))
            )
            seats = (one, two)
            ident = 0
            for _ in range(30):
                ident += 1
                state = request(one, {"type": "sync"}, ident)["state"]["observation"]
                if state["outcome"] is not None:
                    break
                mover = seats[state["to_move"]]
                ident += 1
                seen = request(mover, {"type": "sync"}, ident)["state"]["observation"]
                ident += 1
                answer = request(mover, {"type": "move", "move": greedy(seen)}, ident)
                assert answer["type"] == "update", answer  # answered, not stalled
        finally:
            stuck.close()
