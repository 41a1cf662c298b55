"""The floor under a move's cost: a WebSocket echo on the game server's stack, no game work.

Serves a trivial echo through the same stack as ``spite-malice serve`` (uvicorn, uvloop,
httptools, one of uvicorn's WebSocket implementations, and Starlette's or FastAPI's
WebSocket wrapper or a bare ASGI handler) and drives it with the load clients' pattern
(:mod:`.server_load`: ``--clients`` connections, each sending a move-sized message after a
think time of ``--think`` seconds on average and waiting for its reply, a state-sized text of
``--reply-bytes``), directly to one server or through HAProxy (``deploy/haproxy.cfg``) to
three. It prints the CPU each part used a message (the servers', HAProxy's, the clients'),
so that what any game work may cost on top shows, and which transport is cheapest::

    nice -n 19 .venv/bin/python benchmarks/ws_floor.py --duration 20 --balanced

Not a test: the figures depend on the machine and what else runs on it. The reply's 3,000
bytes are about a game's frame (3.2 KB on average over three games against Easy, a batch
of a discard's update and the computer's turn included).

(``benchmarks/ws_floor.py`` launches this module.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

import websockets
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from spite_malice.cluster.balancer import Balancer, BalancerMissing, find_config
from spite_malice.cluster.processes import answers, free_port, stop, wait_until

from . import server_load as load

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

LAUNCHER = Path(__file__).resolve().parents[1] / "ws_floor.py"
"""The script that runs this module (``benchmarks/ws_floor.py``): each echo server is one."""

IMPLEMENTATIONS = ("websockets", "websockets-sansio", "wsproto")
APPS = ("bare", "starlette", "fastapi")


def reply_text(text: str, size: int) -> str:
    """The echo's reply: the message received inside a JSON object padded to ``size``."""
    return '{"echo":' + text + ',"pad":"' + "x" * max(0, size - len(text) - 20) + '"}'


def bare_app(size: int) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    """A bare ASGI application: ``GET /api/health`` and the echo at ``/ws/<anything>``."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while True:
                event = await receive()
                if event["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif event["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"ok"})
            return
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        while True:
            event = await receive()
            if event["type"] == "websocket.disconnect":
                return
            text = event.get("text") or (event.get("bytes") or b"").decode()
            await send({"type": "websocket.send", "text": reply_text(text, size)})

    return app


def starlette_app(size: int) -> Any:
    """The echo on Starlette's WebSocket (the wrapper FastAPI's routes hand the game)."""
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, WebSocketRoute

    async def health(request: Any) -> PlainTextResponse:
        return PlainTextResponse("ok")

    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            while True:
                text = await websocket.receive_text()
                await websocket.send_text(reply_text(text, size))
        except WebSocketDisconnect:
            return

    return Starlette(routes=[Route("/api/health", health), WebSocketRoute("/ws/{code}", echo)])


def fastapi_app(size: int) -> Any:
    """The echo as a FastAPI router's WebSocket route, as the game's ``/ws/{code}``."""
    app = FastAPI()

    @app.get("/api/health")
    async def health() -> str:
        return "ok"

    @app.websocket("/ws/{code}")
    async def echo(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        try:
            while True:
                text = await websocket.receive_text()
                await websocket.send_text(reply_text(text, size))
        except WebSocketDisconnect:
            return

    return app


def serve(port: int, implementation: str, kind: str, size: int) -> None:
    """Run one echo server in this process with ``spite-malice serve``'s uvicorn settings."""
    import uvicorn

    from spite_malice.web.limits import MAX_FRAME

    make = {"bare": bare_app, "starlette": starlette_app, "fastapi": fastapi_app}[kind]
    uvicorn.run(
        make(size),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws=implementation,
        ws_per_message_deflate=False,
        ws_max_size=MAX_FRAME,
        limit_concurrency=1000,
        timeout_keep_alive=5,
    )


class Server:
    """One echo server as a child process."""

    def __init__(self, implementation: str, kind: str, size: int) -> None:
        self.port = free_port()
        command = [sys.executable, str(LAUNCHER), "--serve"]
        command += [str(self.port), "--ws", implementation, "--app", kind]
        command += ["--reply-bytes", str(size)]
        # uvicorn's "websockets" warns that it is deprecated, once a process
        self.process = subprocess.Popen(command, start_new_session=True, stderr=subprocess.DEVNULL)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def wait(self) -> None:
        wait_until(lambda: answers(f"http://{self.address}/api/health"), 30, "the echo server")


class Figures:
    """What the clients saw: each message's round trip (seconds) and the errors."""

    latencies: list[float]
    errors: int

    def __init__(self) -> None:
        self.latencies = []
        self.errors = 0


async def client(number: int, url: str, args: argparse.Namespace, figures: Figures) -> None:
    """One load client: connect, then a message after each think time, until the deadline."""
    rng = random.Random(number)
    deadline = time.monotonic() + args.duration
    try:
        async with websockets.connect(f"{url}/ws/room{number}", max_size=None) as ws:
            ident = 0
            while time.monotonic() < deadline:
                await asyncio.sleep(rng.uniform(0, 2 * args.think))
                ident += 1
                started = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": "H1-C1", "id": ident}))
                async with asyncio.timeout(30):
                    reply = load.json_loads(await ws.recv())
                if reply["echo"]["id"] != ident:
                    figures.errors += 1
                figures.latencies.append(time.perf_counter() - started)
    except load.CONNECTION_ERRORS:
        figures.errors += 1


async def drive(url: str, args: argparse.Namespace) -> Figures:
    figures = Figures()
    await asyncio.gather(*(client(n, url, args, figures) for n in range(args.clients)))
    return figures


def cpu(pid: int | None) -> float:
    return (load.cpu_seconds(pid) or 0.0) if pid is not None else 0.0


def measure(args: argparse.Namespace, implementation: str, kind: str, balanced: bool) -> None:
    """One round: start the servers (and HAProxy), drive them, print the CPU a message."""
    servers = [Server(implementation, kind, args.reply_bytes) for _ in range(3 if balanced else 1)]
    balancer: Balancer | None = None
    try:
        for server in servers:
            server.wait()
        url = f"ws://{servers[0].address}"
        if balanced:
            try:
                config = find_config(Path(__file__).resolve().parent)
            except BalancerMissing:
                config = find_config()
            balancer = Balancer(config, [server.address for server in servers])
            balancer.start()
            url = balancer.address.replace("http", "ws", 1)
            wait_until(lambda: answers(f"{balancer.address}/api/health"), 30, "HAProxy")
        haproxy_pid = balancer.process.pid if balancer and balancer.process else None
        before = ([cpu(s.process.pid) for s in servers], cpu(haproxy_pid), cpu(os.getpid()))
        started = time.monotonic()
        figures = load.run_loop(drive(url, args))
        elapsed = time.monotonic() - started
        served = sum(cpu(s.process.pid) for s in servers) - sum(before[0])
        haproxy = cpu(haproxy_pid) - before[1]
        clients = cpu(os.getpid()) - before[2]
    finally:
        if balancer is not None:
            balancer.stop()
        for server in servers:
            stop(server.process)
    messages = len(figures.latencies)
    if not messages:
        print(f"{implementation} {kind}: no message answered ({figures.errors} errors)")
        return
    ms = sorted(latency * 1000 for latency in figures.latencies)
    where = "through HAProxy to 3 servers" if balanced else "1 server directly"
    print(
        f"{implementation:17} {kind:9} {where}: {messages} messages "
        f"({messages / elapsed:.0f}/s), p50 {load.percentile(ms, 0.5):.1f} ms, "
        f"p95 {load.percentile(ms, 0.95):.1f} ms, errors {figures.errors}; CPU a message: "
        f"server(s) {served * 1000 / messages:.3f} ms, HAProxy {haproxy * 1000 / messages:.3f} "
        f"ms, clients {clients * 1000 / messages:.3f} ms; machine load {load.machine_load()}",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=600, help="connections at once (600)")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds a round (20)")
    parser.add_argument("--think", type=float, default=0.5, help="mean think time (0.5 s)")
    parser.add_argument("--reply-bytes", type=int, default=3000, help="reply size (3000)")
    parser.add_argument(
        "--ws", action="append", choices=IMPLEMENTATIONS, help="implementation(s) (all)"
    )
    parser.add_argument("--app", action="append", choices=APPS, help="handler(s) (all)")
    parser.add_argument(
        "--balanced", action="store_true", help="also through HAProxy to three servers"
    )
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.ws[0], args.app[0], args.reply_bytes)
        return 0
    for implementation in args.ws or IMPLEMENTATIONS:
        for kind in args.app or APPS:
            measure(args, implementation, kind, False)
            if args.balanced:
                measure(args, implementation, kind, True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
