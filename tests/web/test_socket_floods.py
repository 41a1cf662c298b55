"""One player opening a thousand game sockets with the right tokens, under the real
``spite-malice serve`` (``web-protocol.md`` 7.2): past the per-player limit each further
socket is closed with 4429 and a plain reason, and another client's requests, its own
game socket and /api/health are answered meanwhile (everyone else got 503)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from contextlib import suppress
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from spite_malice.web.limits import SOCKETS_PER_PLAYER

from .servers import STRANGER, raise_file_limit, serving

FLOOD = 1000
ROOMS = 5
WAIT = 60.0


@pytest.fixture
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    raise_file_limit(FLOOD * 2 + 200)
    with serving(tmp_path_factory.mktemp("sockets") / "games.db") as url:
        yield url


def _player_and_rooms(base: str, rooms: int) -> tuple[dict[str, str], list[dict[str, Any]]]:
    with httpx.Client(base_url=base, timeout=WAIT) as client:
        made = client.post("/api/players", json={"name": "Flood"})
        assert made.status_code == 201, made.text
        header = {"X-Player-Secret": made.json()["secret"]}
        answers = []
        for _ in range(rooms):
            room = client.post("/api/rooms", json={"mode": "computer"}, headers=header)
            assert room.status_code == 201, room.text
            answers.append(room.json())
        return header, answers


async def _open(base: str, ticket: dict[str, Any], host: str) -> ClientConnection | int:
    """A seat's socket after its ``hello`` and first state; else the close code (or the
    HTTP status of a refused handshake)."""
    url = base.replace("http://", "ws://") + ticket["ws_url"]
    try:
        socket = await connect(url, local_addr=(host, 0), open_timeout=WAIT, max_size=None)
    except InvalidStatus as refused:
        return refused.response.status_code
    try:
        await socket.send(json.dumps({"type": "hello", "token": ticket["token"]}))
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), WAIT))
            if message.get("type") == "state":
                return socket
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else 1006


async def _flood_and_check(base: str) -> tuple[int, list[int]]:
    _, rooms = _player_and_rooms(base, ROOMS)
    _, mine = _player_and_rooms(base, 1)
    held: list[ClientConnection] = []
    refusals: list[int] = []
    try:
        for start in range(0, FLOOD, 100):
            opened = await asyncio.gather(
                *(_open(base, rooms[n % ROOMS], STRANGER) for n in range(start, start + 100))
            )
            held += [s for s in opened if not isinstance(s, int)]
            refusals += [s for s in opened if isinstance(s, int)]
        async with httpx.AsyncClient(base_url=base, timeout=WAIT) as client:
            for path in ("/api/health", "/api/config"):
                started = time.monotonic()
                status = (await client.get(path)).status_code
                took = 1000 * (time.monotonic() - started)
                print(f"during the flood {path}: {status} in {took:.0f} ms")
                assert status == 200, (path, status)
        started = time.monotonic()
        own = await _open(base, mine[0], "127.0.0.1")
        took = 1000 * (time.monotonic() - started)
        print(f"during the flood another player's socket: {took:.0f} ms")
        assert not isinstance(own, int), f"another player's socket was refused: {own}"
        await own.close()
        return len(held), refusals
    finally:
        for socket in held:
            with suppress(Exception):
                await socket.close()


def test_a_thousand_sockets_of_one_player_leave_others_served(base: str) -> None:
    held, refusals = asyncio.run(_flood_and_check(base))
    assert held == SOCKETS_PER_PLAYER, held
    assert set(refusals) <= {4429, 429}, set(refusals)
