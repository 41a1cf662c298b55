"""Load benchmark: many concurrent games against one server process on loopback.

Starts ``spite-malice serve`` (one process, a fresh SQLite file unless ``--db`` names
another database), then runs ``--games`` clients at once (each a player of its own, made
with ``POST /api/players``; a server without players is asked without one), each playing
against the computer over the game WebSocket until ``--duration`` seconds have passed (it
then finishes the move in flight and stops). Each client plays a simple greedy policy with a
think time before each of its moves, and starts the next game or match when one ends.

Printed: the move round-trip latency (from sending a move to receiving the ``update`` that
acknowledges it; the computer's thinking is not in it, the computer plays after the
acknowledgement, except that a quick computer's turn, tens of microseconds at Easy, is
stored in one write with the discard that began it, and that discard is acknowledged once
both are stored) as p50/p95/p99/max; the error count (error replies, failed or dropped
connections, unexpected messages); lost games: every room is opened again at the end
(and after a restart) and must hold every move its client had acknowledged; the bytes sent a
client move (the clients ask for updates as deltas, as the page does, web-protocol.md 4.3;
``--whole-states`` for the whole state in every update); and the CPU a client move of the
server, of the clients and of both.

``--server-python PYTHON`` starts the server from another checkout's ``.venv/bin/python``,
to compare two versions on one machine, old and new alternated (an older server knows no
deltas: give it ``--whole-states``).

``--restart-after S`` kills the server (SIGKILL, no shutdown) S seconds in and starts it
again on the same database; the clients reconnect with their tokens and play on. Their
dropped connections are counted as reconnects, not errors.

    .venv/bin/python benchmarks/load.py --games 200 --duration 60
    .venv/bin/python benchmarks/load.py --games 200 --duration 60 --restart-after 30
    .venv/bin/python benchmarks/load.py --games 200 --duration 30 \
        --server-python ../old/.venv/bin/python --whole-states

Not a test: the figures depend on the machine. Target: p95 <= 50 ms, 0 errors, 0 lost games.

(``benchmarks/load.py`` launches this module.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import websockets

from spite_malice.bots.greedy import greedy
from spite_malice.table.seat_state import apply_delta
from spite_malice.web.limits import MAKE_LIMIT_ENV

json_loads: Callable[[str | bytes], Any] = json.loads
"""The clients' JSON parser: orjson's when it is installed (the dev extra), the same JSON
read in about a third of the standard parser's time (a fifth of the clients' CPU had gone to
reading the states), so that the clients take less of the machine they measure."""
try:
    import orjson
except ImportError:  # pragma: no cover - orjson comes with the dev extra
    pass
else:
    json_loads = orjson.loads

CONNECTION_ERRORS = (OSError, websockets.WebSocketException, TimeoutError)
T = TypeVar("T")


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run the clients on uvloop when it is installed (it comes with ``uvicorn[standard]``,
    the server's own loop), else on asyncio's: the clients share the machine's CPUs with the
    servers they measure, and uvloop's event loop costs them less per message."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    moves: int = 0
    games_finished: int = 0
    matches_finished: int = 0
    reconnects: int = 0
    received: int = 0
    """Bytes of the frames the clients received (UTF-8 JSON text, the server's whole word)."""
    updates: int = 0
    """``update`` messages the clients received (their own moves' and the computer's)."""
    lost: set[int] = field(default_factory=set)
    """Clients whose room lost an acknowledged move."""
    clients_cpu: float | None = None
    """CPU seconds the load clients used while they played (this process)."""
    killed_at: float | None = None
    """When the planned restart killed the server (monotonic clock)."""


CLIENTS_PER_ADDRESS = 16
"""Load clients that share one source address. A site's players come from many addresses, and
the server limits what one address may hold (web-protocol.md 7.2): on loopback the clients
spread over 127.0.0.2, 127.0.0.3, ... so that each address holds as many as a busy household."""


def source_address(number: int, base: str) -> str | None:
    """The loopback address client ``number`` connects from, or None when the server is not on
    this machine's loopback (then the clients use the system's choice)."""
    host = httpx.URL(base).host
    if host not in ("127.0.0.1", "localhost"):
        return None
    group = number // CLIENTS_PER_ADDRESS
    if group > 250:
        raise ValueError(f"at most {251 * CLIENTS_PER_ADDRESS} load clients on loopback")
    return f"127.0.0.{2 + group}"


def http_clients(games: int, base: str, timeout: float) -> list[httpx.AsyncClient]:
    """One HTTP client per source address (:func:`source_address`), in the order of the
    clients' numbers: client ``n`` uses ``clients[n // CLIENTS_PER_ADDRESS]``."""
    groups = (games + CLIENTS_PER_ADDRESS - 1) // CLIENTS_PER_ADDRESS
    made = []
    for group in range(groups):
        address = source_address(group * CLIENTS_PER_ADDRESS, base)
        limits = client_limits(CLIENTS_PER_ADDRESS)
        transport = httpx.AsyncHTTPTransport(limits=limits, local_address=address)
        made.append(httpx.AsyncClient(transport=transport, timeout=timeout))
    return made


async def play_all(
    players: list[Player],
    clients: list[httpx.AsyncClient],
    deadline: float,
    tasks: list[asyncio.Task[None]],
) -> None:
    """Run every player until ``deadline`` beside ``tasks``, each on its address's HTTP client
    (:func:`http_clients`); the clients are closed after."""
    try:
        runs = (
            player.run(clients[player.number // CLIENTS_PER_ADDRESS], deadline)
            for player in players
        )
        await asyncio.gather(*runs, *tasks)
    finally:
        for client in clients:
            await client.aclose()


class Player:
    """One client: one room against the computer, played until the deadline."""

    ws: Any

    def __init__(self, number: int, args: argparse.Namespace, base: str, totals: Totals) -> None:
        self.number = number
        self.args = args
        self.base = base
        self.totals = totals
        self.rng = random.Random(number)
        self.state: dict[str, Any] = {}
        self.seq: int | None = None
        """The number of ``state`` (web-protocol.md 4.3): the next delta's ``base``."""
        self.next_id = 0
        self.ws_url = ""
        self.hello = ""
        self.inbox: deque[dict[str, Any]] = deque()
        """Messages of a ``batch`` frame not read yet (web-protocol.md 4.3)."""
        self.acknowledged = (0, 1, 0)
        """(matches started, game number, moves in it) after the last acknowledged move."""
        self.matches = 0
        address = source_address(number, base)
        self.socket_options: dict[str, Any] = (
            {} if address is None else {"local_addr": (address, 0)}
        )

    async def run(self, http: httpx.AsyncClient, deadline: float) -> None:
        body = {
            "mode": "computer",
            "level": self.args.level,
            "rules": {"payoff_size": self.args.payoff_size},
            "seed": self.number,
        }
        try:
            name = {"name": f"load-{self.number}"}
            made = await http.post(f"{self.base}/api/players", json=name)
            headers = {"X-Player-Secret": made.json()["secret"]} if made.status_code == 201 else {}
            response = await http.post(f"{self.base}/api/rooms", json=body, headers=headers)
        except httpx.HTTPError as error:
            self.totals.errors.append(f"create room: {type(error).__name__}: {error}")
            return
        if response.status_code != 201:
            self.totals.errors.append(f"create room: {response.status_code} {response.text}")
            return
        self.ws_url = self.base.replace("http", "ws", 1) + response.json()["ws_url"]
        # batches: a discard's update and the computer's turn in one frame, as the page
        # and deltas, as the page, unless --whole-states (an older server knows no deltas)
        hello = {"type": "hello", "token": response.json()["token"], "batch": True}
        if not self.args.whole_states:
            hello["delta"] = True
        self.hello = json.dumps(hello)
        while time.monotonic() < deadline:
            phase = "connecting"  # said with an error: a handshake, or a wait in the game
            try:
                connecting = websockets.connect(self.ws_url, max_size=None, **self.socket_options)
                async with connecting as ws:
                    self.ws = ws
                    self.inbox.clear()
                    await ws.send(self.hello)
                    phase = "waiting for its welcome and state"
                    await self.expect("welcome")
                    self.check(await self.expect("state"))
                    phase = "playing"
                    await self.play(deadline)
                return
            except CONNECTION_ERRORS as error:
                killed = self.totals.killed_at
                if killed is None or time.monotonic() < killed:
                    kind = type(error).__name__
                    self.totals.errors.append(f"client {self.number} ({phase}): {kind}")
                    return
                self.totals.reconnects += 1  # the planned restart: connect again
                await asyncio.sleep(0.2)

    async def play(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            observation = self.state["observation"]
            if observation["outcome"] is not None:
                await self.next_game()
                continue
            if observation["to_move"] != 0 or self.state["thinking"]:
                while "state" not in await self.receive():
                    pass
                continue
            await asyncio.sleep(self.rng.uniform(0, 2 * self.args.think))
            move = greedy(observation)
            self.next_id += 1
            ident = self.next_id
            started = time.perf_counter()
            await self.ws.send(json.dumps({"type": "move", "move": move, "id": ident}))
            while True:
                message = await self.receive()
                if message.get("reply_to") == ident:
                    break
            if message["type"] != "update":
                self.totals.errors.append(f"move {move}: {message}")
                continue
            self.totals.latencies.append(time.perf_counter() - started)
            self.totals.moves += 1
            state = message["state"]
            self.acknowledged = (
                self.matches,
                state["match"]["game_number"],
                len(state["observation"]["history"]),
            )

    def check(self, message: dict[str, Any]) -> None:
        """A (re)connect's state must hold every move this client had acknowledged."""
        if not is_kept(self.acknowledged[1:], message["state"], self.acknowledged[0], self.matches):
            self.totals.lost.add(self.number)

    async def receive(self) -> dict[str, Any]:
        if not self.inbox:
            async with asyncio.timeout(self.args.timeout):  # no task per message, as wait_for
                text = await self.ws.recv()
            self.totals.received += len(text) if isinstance(text, bytes) else len(text.encode())
            self.inbox.extend(messages_of(text))
        message = self.inbox.popleft()
        kind = message["type"]
        if kind == "error":
            self.totals.errors.append(f"error: {message}")
        elif kind == "update":
            self.totals.updates += 1
            if "delta" in message:
                if message["base"] != self.seq:  # a missed update: never expected
                    self.totals.errors.append(f"a delta of state {message['base']}, not {self.seq}")
                message["state"] = apply_delta(self.state, message["delta"])
        if "state" in message:
            self.state = message["state"]
            self.seq = message.get("seq")
        return message

    async def expect(self, kind: str) -> dict[str, Any]:
        message = await self.receive()
        if message["type"] != kind:
            self.totals.errors.append(f"expected {kind}, got {message}")
        return message

    async def next_game(self) -> None:
        self.totals.games_finished += 1
        kind = "new_game"
        if self.state["match"]["over"]:
            self.totals.matches_finished += 1
            kind = "new_match"
        self.next_id += 1
        ident = self.next_id
        await self.ws.send(json.dumps({"type": kind, "id": ident}))
        while (await self.receive()).get("reply_to") != ident:
            pass
        if kind == "new_match":
            self.matches += 1


def messages_of(text: str | bytes) -> list[dict[str, Any]]:
    """The messages of one frame, in order: a ``batch`` frame's, else the frame's one."""
    message: dict[str, Any] = json_loads(text)
    if message["type"] == "batch":
        held: list[dict[str, Any]] = message["messages"]
        return held
    return [message]


def is_kept(acknowledged: tuple[int, int], server: dict[str, Any], ours: int, now: int) -> bool:
    """Whether the server's state still holds the acknowledged (game number, moves)."""
    if now > ours:
        return True  # a new match began since the acknowledgement
    number, moves = acknowledged
    served = server["match"]["game_number"]
    return served > number or (served == number and len(server["observation"]["history"]) >= moves)


async def check_rooms(players: list[Player], totals: Totals, timeout: float) -> None:
    """Open every room again at the end: it must hold every acknowledged move."""
    for player in players:
        if not player.ws_url:
            continue  # its room was never made (counted as an error): nothing to lose
        try:
            connecting = websockets.connect(player.ws_url, max_size=None, **player.socket_options)
            async with connecting as ws:
                await ws.send(player.hello)
                message: dict[str, Any] = {}
                while "state" not in message:
                    frame = await asyncio.wait_for(ws.recv(), timeout=timeout)
                    message = next((m for m in messages_of(frame) if "state" in m), {})
            matches = player.acknowledged[0]
            if not is_kept(player.acknowledged[1:], message["state"], matches, player.matches):
                totals.lost.add(player.number)
        except CONNECTION_ERRORS:
            totals.lost.add(player.number)


class Server:
    """``spite-malice serve`` as a child process."""

    def __init__(self, port: int, db: str, python: str | None = None) -> None:
        self.port = port
        self.db = db
        self.python = python or sys.executable
        """The Python whose ``spite_malice`` serves (another checkout's, to compare)."""
        self.process: subprocess.Popen[str] | None = None
        self.cpu = 0.0
        """CPU seconds of the processes already stopped."""

    def start(self) -> str:
        command = [self.python, "-m", "spite_malice", "serve", "--port", str(self.port)]
        self.process = subprocess.Popen(
            [*command, "--db", self.db], stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None
        return (
            f"{self.process.stdout.readline().strip()} | {self.process.stdout.readline().strip()}"
        )

    def kill(self) -> None:
        assert self.process is not None
        self.cpu += cpu_seconds(self.process.pid) or 0.0
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def cpu_seconds(self) -> float | None:
        if self.process is None:
            return None
        now = cpu_seconds(self.process.pid)
        return None if now is None else self.cpu + now


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def wait_healthy(base: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient() as http:
        while True:
            try:
                if (await http.get(f"{base}/api/health")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            await asyncio.sleep(0.1)


async def restart_later(server: Server, base: str, after: float, totals: Totals) -> None:
    await asyncio.sleep(after)
    totals.killed_at = time.monotonic()
    server.kill()
    print(f"killed the server after {after:.0f} s; started again: {server.start()}")
    await wait_healthy(base, 60)


def client_limits(games: int) -> httpx.Limits:
    """The clients' HTTP connections: a fresh one for each request (a player, then a room),
    none kept alive. On a saturated machine a client may read a response seconds after the
    server sent it; the server's keep-alive time (5 s) then runs out while the client still
    counts the connection as fresh, and a room creation sent on it just as the server closes it
    fails (likely the httpx ReadError that two to five of 600 creations met in a round). HAProxy
    does the same towards the instances (``http-reuse never``)."""
    return httpx.Limits(max_connections=games, max_keepalive_connections=0)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[index]


async def main_async(args: argparse.Namespace, base: str, server: Server | None) -> int:
    await wait_healthy(base, 60)
    totals = Totals()
    clients = http_clients(args.games, base, args.timeout)
    players = [Player(number, args, base, totals) for number in range(args.games)]
    started = time.monotonic()
    deadline = started + args.duration
    tasks = []
    if server is not None and args.restart_after is not None:
        restart = restart_later(server, base, args.restart_after, totals)
        tasks.append(asyncio.create_task(restart))
    clients_before = cpu_seconds(os.getpid())
    await play_all(players, clients, deadline, tasks)
    elapsed = time.monotonic() - started
    clients_after = cpu_seconds(os.getpid())
    if clients_before is not None and clients_after is not None:
        totals.clients_cpu = clients_after - clients_before
    await check_rooms(players, totals, args.timeout)
    report(args, totals, elapsed, server)
    p95 = percentile(totals.latencies, 0.95) if totals.latencies else float("inf")
    return 0 if not totals.errors and not totals.lost and p95 <= 0.050 else 1


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux), or None where /proc is missing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reaped_cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of the children a process has waited for (Linux; PostgreSQL's
    ended backends, for its main process), or None where /proc is missing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def machine_load() -> str:
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "unknown"
    return f"{one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} CPUs"


def report(args: argparse.Namespace, totals: Totals, elapsed: float, server: Server | None) -> None:
    ms = [latency * 1000 for latency in totals.latencies]
    print(
        f"{args.games} concurrent games against '{args.level}', pay-off piles of "
        f"{args.payoff_size}, think time {args.think:.2f} s on average, {elapsed:.0f} s"
    )
    print(
        f"moves acknowledged: {totals.moves} ({totals.moves / elapsed:.0f}/s from the clients); "
        f"games finished: {totals.games_finished}; matches finished: {totals.matches_finished}"
    )
    if ms:
        print(
            "move round trip (ms): "
            f"p50 {percentile(ms, 0.50):.1f}  p95 {percentile(ms, 0.95):.1f}  "
            f"p99 {percentile(ms, 0.99):.1f}  max {max(ms):.1f}  "
            f"mean {statistics.fmean(ms):.1f}"
        )
    print(f"errors: {len(totals.errors)}")
    for error in totals.errors[:10]:
        print(f"  {error[:200]}")
    if totals.killed_at is not None:
        print(f"reconnects after the restart: {totals.reconnects}")
    print(f"lost games: {len(totals.lost)}")
    if totals.moves:
        print(
            f"bytes sent per client move: {totals.received / totals.moves:.0f} "
            f"({totals.received / max(1, totals.updates):.0f} an update, "
            f"{totals.updates / totals.moves:.2f} updates a client move; "
            f"{'whole states' if args.whole_states else 'deltas'})"
        )
    used = server.cpu_seconds() if server is not None else None
    client = totals.clients_cpu
    if used is not None and client is not None and totals.moves:
        print(
            f"CPU: server {used:.1f} s ({used / elapsed:.0%} of one CPU, "
            f"{used * 1000 / totals.moves:.2f} ms per client move with the computer's "
            f"replies), clients {client:.1f} s ({client * 1000 / totals.moves:.2f} ms a move); "
            f"all parts {(used + client) * 1000 / totals.moves:.2f} ms per client move; "
            f"machine load {machine_load()}"
        )


CREATION_LIMIT_OFF = {MAKE_LIMIT_ENV: "off"}
"""The servers this benchmark starts let one address make every player and room: its
clients all come from this machine, where a site's players come from as many addresses
(web/limits.py's per-address limit on making players and rooms, off for the benchmark)."""


def lift_creation_limit() -> None:
    """Start every server of this process (and its clusters) with :data:`CREATION_LIMIT_OFF`."""
    os.environ.update(CREATION_LIMIT_OFF)


def main() -> int:
    lift_creation_limit()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (200)")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play (60)")
    parser.add_argument(
        "--think", type=float, default=0.5, help="mean seconds before each own move (0.5)"
    )
    parser.add_argument("--level", default="easy", help="the computer's level (easy)")
    parser.add_argument("--payoff-size", type=int, default=10, help="pay-off pile size (10)")
    parser.add_argument("--db", help="database of the server (default: a fresh SQLite file)")
    parser.add_argument("--url", help="use a running server at this URL instead of starting one")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait a reply")
    parser.add_argument(
        "--whole-states",
        action="store_true",
        help="clients ask for whole states in every update, not deltas (as an older server "
        "sends them, and the bytes before deltas)",
    )
    parser.add_argument(
        "--server-python",
        metavar="PYTHON",
        help="start the server with this Python's spite_malice (another checkout's "
        ".venv/bin/python, to compare; with an older one, --whole-states)",
    )
    parser.add_argument(
        "--restart-after",
        type=float,
        metavar="S",
        help="kill the server S seconds in (SIGKILL) and start it again on the same database",
    )
    args = parser.parse_args()
    if args.url:
        return run_loop(main_async(args, args.url.rstrip("/"), None))
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = Server(port, args.db or str(Path(folder) / "load.db"), args.server_python)
        try:
            print(server.start())
            return run_loop(main_async(args, f"http://127.0.0.1:{port}", server))
        finally:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
