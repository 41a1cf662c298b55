"""Load through the balancer: benchmarks/load.py's clients against a cluster on this machine.

Starts ``spite-malice cluster``'s parts (a private PostgreSQL, three instances, HAProxy with
deploy/haproxy.cfg), then in one run, on the same database:

1. ``--games`` concurrent games through the balancer for ``--duration`` seconds;
2. the same with one instance killed (SIGKILL) half-way: its pages reconnect through the
   balancer to the others, and their dropped connections count as reconnects, not errors;
3. the same games against one instance directly, without the balancer (the single-instance
   figure beside it, so that the cost of the balancer and the fan-out shows).

Each prints :mod:`.server_load`'s report: the move round trip p50/p95/p99, errors and lost
games (every room is read back at the end and must hold every acknowledged move).

    .venv/bin/python benchmarks/cluster_load.py --games 600 --duration 60

Not a test: the figures depend on the machine. Target on a 2-core machine with three
instances: p95 <= 50 ms, 0 errors, 0 lost games.

(``benchmarks/cluster_load.py`` launches this module.)
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from ..cluster import Cluster
from ..cluster.balancer import BalancerMissing, find_config
from . import server_load as load


def _haproxy_config() -> Path:
    """``deploy/haproxy.cfg`` of the repository these sources are in, else of the working
    folder's."""
    try:
        return find_config(Path(__file__).resolve().parent)
    except BalancerMissing:
        return find_config()


async def run(args: argparse.Namespace, base: str, kill: Callable[[], None] | None = None) -> bool:
    """One round of :mod:`.server_load`'s clients against ``base``; True when it met the target."""
    await load.wait_healthy(base, 60)
    totals = load.Totals()
    # idle connections are dropped after 1 s, well before the server's keep-alive timeout
    # (5 s): a request sent just as the server closes an idle connection would fail
    limits = httpx.Limits(
        max_connections=args.games, max_keepalive_connections=args.games, keepalive_expiry=1.0
    )
    players = [load.Player(number, args, base, totals) for number in range(args.games)]
    started = time.monotonic()
    deadline = started + args.duration
    tasks = []
    if kill is not None:

        async def kill_later() -> None:
            await asyncio.sleep(args.duration / 2)
            totals.killed_at = time.monotonic()
            kill()
            print(f"killed an instance after {args.duration / 2:.0f} s", flush=True)

        tasks.append(asyncio.create_task(kill_later()))
    async with httpx.AsyncClient(limits=limits, timeout=args.timeout) as http:
        await asyncio.gather(*(player.run(http, deadline) for player in players), *tasks)
    elapsed = time.monotonic() - started
    await load.check_rooms(players, totals, args.timeout)
    load.report(args, totals, elapsed, None)
    p95 = load.percentile(totals.latencies, 0.95) if totals.latencies else float("inf")
    return not totals.errors and not totals.lost and p95 <= 0.050


def main() -> int:
    # SIGTERM stops the run as Ctrl-C does, so the cluster's processes are stopped too
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600, help="concurrent games (600)")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds a round (60)")
    parser.add_argument("--think", type=float, default=0.5, help="mean think time (0.5 s)")
    parser.add_argument("--level", default="easy", help="the computer's level (easy)")
    parser.add_argument("--payoff-size", type=int, default=10, help="pay-off pile size (10)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait a reply")
    args = parser.parse_args()
    cluster = Cluster(instances_wanted=3, config=_haproxy_config())
    print("starting PostgreSQL, three instances and HAProxy ...", flush=True)
    cluster.start()
    met = []
    try:
        print(f"\n== 1. three instances through the balancer ({cluster.address})", flush=True)
        met.append(asyncio.run(run(args, cluster.address)))
        print("\n== 2. the same, one instance killed half-way", flush=True)
        victim = cluster.instances[0]
        met.append(asyncio.run(run(args, cluster.address, victim.kill)))
        cluster.restart(victim)
        print(f"\n== 3. one instance directly ({victim.url}), no balancer", flush=True)
        met.append(asyncio.run(run(args, victim.url)))
    finally:
        cluster.stop()
        cluster.remove_folder()
    print("\ntarget (p95 <= 50 ms, 0 errors, 0 lost games) met:", met, flush=True)
    return 0 if all(met) else 1


if __name__ == "__main__":
    sys.exit(main())
