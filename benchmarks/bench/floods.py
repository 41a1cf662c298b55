"""What a hostile client's floods cost a server: its memory and another room's move latency
while each flood is held (``benchmarks/floods.py``; docs/deploying.md "Floods").

One ``spite-malice serve`` on a fresh SQLite file, on loopback. The floods come from
127.0.0.2 (one stranger); the honest player, from 127.0.0.1, plays a room against the
computer and times each of its moves (sent to acknowledged) while the flood is held:

- ``idle``: 1,000 TCP connections that send nothing;
- ``half``: 1,000 connections with half a request header;
- ``headers``: 300 connections each sending 1 MB of one header, unfinished;
- ``sockets``: 1,000 game sockets of one player (5 rooms, the right tokens);
- ``new-match``: one socket sending ``new_match`` as fast as it is answered;
- ``replays``: 40 replays of a 10 KB record asked at once, again and again (measured
  from the second 40 on).

``--source PATH`` runs the server from another checkout's ``src`` (the code before a
change, for a before/after comparison). Figures vary with the machine and its load: compare
runs made on the same machine one after the other.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from spite_malice.bots.greedy import greedy
from spite_malice.engine import Game, GameRecord
from spite_malice.engine.rules import Rules

STRANGER = "127.0.0.2"
HONEST = "127.0.0.1"
WAIT = 30.0
PROBE_MOVES = 15
"""Moves the honest player times during each flood."""
FLOODS = ("idle", "half", "headers", "sockets", "new-match", "replays")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def rss_mb(pid: int) -> float:
    """The process's resident memory in MB (Linux's /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Honest:
    """The honest player: a room against the computer, its moves timed."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] = {}
        self.next_id = 0

    async def open(self) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=HONEST)
        async with httpx.AsyncClient(base_url=self.base, transport=transport, timeout=WAIT) as c:
            made = (await c.post("/api/players", json={"name": "Honest"})).json()
            header = {"X-Player-Secret": made["secret"]}
            room = await c.post(
                "/api/rooms", json={"mode": "computer", "level": "easy"}, headers=header
            )
            ticket = room.json()
        url = self.base.replace("http://", "ws://") + ticket["ws_url"]
        self.ws = await connect(url, local_addr=(HONEST, 0), open_timeout=WAIT, max_size=None)
        await self.ws.send(json.dumps({"type": "hello", "token": ticket["token"]}))
        await self._until(lambda m: m.get("type") == "state")

    async def _until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        assert self.ws is not None
        while True:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), WAIT))
            if "state" in message:
                self.state = message["state"]
            if done(message):
                return message

    def _my_turn(self) -> bool:
        observation = self.state.get("observation", {})
        return bool(
            observation.get("to_move") == 0
            and not self.state.get("thinking")
            and observation.get("outcome") is None
        )

    async def timed_moves(self, count: int) -> list[float]:
        """Play ``count`` moves (new games as needed); each move's milliseconds."""
        assert self.ws is not None
        times: list[float] = []
        while len(times) < count:
            if self.state.get("observation", {}).get("outcome") is not None:
                await self._request({"type": "new_game"})
                continue
            if not self._my_turn():
                await self._until(lambda m: "state" in m and self._my_turn())
                continue
            move = greedy(self.state["observation"])
            started = time.perf_counter()
            await self._request({"type": "move", "move": move})
            times.append(1000 * (time.perf_counter() - started))
        return times

    async def _request(self, message: dict[str, Any]) -> dict[str, Any]:
        assert self.ws is not None
        self.next_id += 1
        ident = self.next_id
        await self.ws.send(json.dumps({**message, "id": ident}))
        return await self._until(lambda m: m.get("reply_to") == ident)


# ----------------------------------------------------------------- the floods


async def raw_connections(port: int, count: int, first: bytes) -> list[socket.socket]:
    held = []
    for _ in range(count):
        connection = socket.socket()
        connection.setblocking(False)
        connection.bind((STRANGER, 0))
        with contextlib.suppress(OSError):
            connection.connect_ex(("127.0.0.1", port))
        held.append(connection)
    await asyncio.sleep(0.5)
    if first:
        for connection in held:
            with contextlib.suppress(OSError):
                connection.send(first)
    return held


async def header_stream(
    port: int, stop: asyncio.Event, ready: asyncio.Event, tally: dict[str, Any]
) -> None:
    """300 connections each sending 1 MB of one unfinished header."""

    async def one() -> None:
        with contextlib.suppress(OSError):
            _reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(STRANGER, 0)
            )
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ")
            for _ in range(16):
                if stop.is_set():
                    break
                writer.write(b"a" * 65536)
                await writer.drain()
            await stop.wait()
            writer.close()

    ready.set()
    await asyncio.gather(*(one() for _ in range(300)), return_exceptions=True)


async def stranger_rooms(base: str, rooms: int) -> list[dict[str, Any]]:
    transport = httpx.AsyncHTTPTransport(local_address=STRANGER)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=WAIT) as client:
        made = (await client.post("/api/players", json={"name": "Flood"})).json()
        header = {"X-Player-Secret": made["secret"]}
        tickets = []
        for _ in range(rooms):
            answer = await client.post("/api/rooms", json={"mode": "computer"}, headers=header)
            tickets.append(answer.json())
        return tickets


async def socket_flood(
    base: str, stop: asyncio.Event, ready: asyncio.Event, tally: dict[str, Any]
) -> None:
    tickets = await stranger_rooms(base, 5)
    held: list[ClientConnection] = []
    tally["sockets served"] = 0

    async def one(ticket: dict[str, Any]) -> None:
        url = base.replace("http://", "ws://") + ticket["ws_url"]
        with contextlib.suppress(Exception):
            ws = await connect(url, local_addr=(STRANGER, 0), open_timeout=WAIT, max_size=None)
            held.append(ws)
            await ws.send(json.dumps({"type": "hello", "token": ticket["token"]}))
            while json.loads(await asyncio.wait_for(ws.recv(), WAIT)).get("type") != "state":
                pass
            tally["sockets served"] += 1

    for start in range(0, 1000, 100):
        await asyncio.gather(*(one(tickets[n % 5]) for n in range(start, start + 100)))
    ready.set()
    await stop.wait()
    for ws in held:
        with contextlib.suppress(Exception):
            await ws.close()


async def new_match_flood(
    base: str, stop: asyncio.Event, ready: asyncio.Event, tally: dict[str, Any]
) -> None:
    ticket = (await stranger_rooms(base, 1))[0]
    url = base.replace("http://", "ws://") + ticket["ws_url"]
    tally["new matches started"] = tally["refused"] = 0
    ready.set()
    async with connect(url, local_addr=(STRANGER, 0), max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": ticket["token"]}))
        ident = 0
        while not stop.is_set():
            ident += 1
            await ws.send(json.dumps({"type": "new_match", "id": ident}))
            with contextlib.suppress(TimeoutError):
                while True:
                    answer = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
                    if answer.get("reply_to") == ident:
                        break
                if answer.get("cause") == "new_match":
                    tally["new matches started"] += 1
                else:
                    tally["refused"] += 1


def long_record() -> bytes:
    """A long unfinished game's record (~10 KB, 1,100 moves: random builds first, on three
    decks and 30-card pay-off piles), as a player could upload it."""
    draws = random.Random(7)
    game = Game.new(7, Rules(payoff_size=30, decks=3))
    while game.outcome is None and len(game.moves) < 1100:
        legal = game.legal_moves()
        builds = [m for m in legal if "-C" in str(m) and not str(m).startswith("P-")]
        game.apply(draws.choice(builds or legal))
    return GameRecord.from_game(game).dumps().encode()


async def replay_flood(
    base: str, stop: asyncio.Event, ready: asyncio.Event, tally: dict[str, Any]
) -> None:
    body = long_record()
    transport = httpx.AsyncHTTPTransport(local_address=STRANGER)
    tally.update({"record bytes": len(body), "replays served": 0, "refused": 0})
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=WAIT) as client:
        made = (await client.post("/api/players", json={"name": "Flood"})).json()
        header = {"X-Player-Secret": made["secret"]}

        async def one() -> None:
            async with client.stream(
                "POST", "/api/replays", content=body, headers=header
            ) as answer:
                sent = b"".join([chunk async for chunk in answer.aiter_raw()])
            if answer.status_code == 200:
                tally["replays served"] += 1
                tally["answer bytes sent"] = len(sent)
            else:
                tally["refused"] += 1

        while not stop.is_set():
            await asyncio.gather(*(one() for _ in range(40)), return_exceptions=True)
            ready.set()  # measured from the second batch on: the flood as it goes on


# ----------------------------------------------------------------- one run


async def measure(base: str, pid: int, flood: str) -> dict[str, Any]:
    port = int(base.rsplit(":", 1)[1])
    honest = Honest(base)
    await honest.open()
    await honest.timed_moves(3)  # warmed up
    idle_ms = await honest.timed_moves(PROBE_MOVES)
    before = rss_mb(pid)
    stop, ready = asyncio.Event(), asyncio.Event()
    tally: dict[str, Any] = {}
    held: list[socket.socket] = []
    task: asyncio.Task[None] | None = None
    starters: dict[str, Callable[[], Awaitable[None]]] = {
        "headers": lambda: header_stream(port, stop, ready, tally),
        "sockets": lambda: socket_flood(base, stop, ready, tally),
        "new-match": lambda: new_match_flood(base, stop, ready, tally),
        "replays": lambda: replay_flood(base, stop, ready, tally),
    }
    if flood in ("idle", "half"):
        first = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " if flood == "half" else b""
        held = await raw_connections(port, 1000, first)
        ready.set()
    else:
        task = asyncio.get_running_loop().create_task(starters[flood]())  # type: ignore[arg-type]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(ready.wait(), 4 * WAIT)  # the flood is all open
    flood_started = time.monotonic()
    await asyncio.sleep(3.0)  # and under way
    peak = rss_mb(pid)
    health_ms: float | str
    try:
        transport = httpx.AsyncHTTPTransport(local_address=HONEST)
        async with httpx.AsyncClient(transport=transport, timeout=WAIT) as client:
            started = time.perf_counter()
            status = (await client.get(f"{base}/api/health")).status_code
            health_ms = f"{status} in {1000 * (time.perf_counter() - started):.0f} ms"
        during = await asyncio.wait_for(honest.timed_moves(PROBE_MOVES), 4 * WAIT)
        moves = f"median {statistics.median(during):.1f} ms, max {max(during):.1f} ms"
    except Exception as error:  # the honest player was refused or cut off: say so
        moves = f"failed: {type(error).__name__}"
        health_ms = locals().get("health_ms", "failed")
    peak = max(peak, rss_mb(pid))
    stop.set()
    tally["seconds"] = round(time.monotonic() - flood_started, 1)
    for connection in held:
        connection.close()
    if task is not None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, WAIT)
    with contextlib.suppress(Exception):
        assert honest.ws is not None
        await honest.ws.close()
    return {
        "flood": flood,
        "rss_before_mb": round(before, 1),
        "rss_during_mb": round(peak, 1),
        "health": health_ms,
        "moves_idle": f"median {statistics.median(idle_ms):.1f} ms",
        "moves_during": moves,
        "flood_result": dict(tally),
    }


def serve(db: Path, port: int, source: str | None) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    if source:
        env["PYTHONPATH"] = source
    command = [sys.executable, "-m", "spite_malice", "serve", "--port", str(port), "--db", str(db)]
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_up(base: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/api/health").status_code == 200:
                return
        time.sleep(0.1)
    raise SystemExit("the server did not start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--floods", default=",".join(FLOODS), help="which (all)")
    parser.add_argument("--source", default=None, help="run the server from this src folder")
    args = parser.parse_args()
    unknown = sorted(set(args.floods.split(",")) - set(FLOODS))
    if unknown:
        parser.error(
            f"--floods: {', '.join(map(repr, unknown))}: the floods are {', '.join(FLOODS)}"
        )
    import resource

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(8192, hard), hard))
    rows = []
    for flood in args.floods.split(","):
        with tempfile.TemporaryDirectory() as folder:
            port = free_port()
            process = serve(Path(folder) / "games.db", port, args.source)
            base = f"http://127.0.0.1:{port}"
            try:
                wait_up(base)
                row = asyncio.run(measure(base, process.pid, flood))
            finally:
                process.kill()
                process.wait()
        print(json.dumps(row), flush=True)
        rows.append(row)
    return 0


__all__ = ["main"]
