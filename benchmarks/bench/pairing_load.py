"""Quick match under load through the balancer: ``--players`` players join one pool at once.

Starts ``spite-malice cluster``'s parts (a private PostgreSQL, three instances, HAProxy with
deploy/haproxy.cfg), makes the players through the balancer, gives each a rating in the
pool drawn from a normal law (mean 1500, ``--spread``; written in the store's ratings table,
as rated games would leave them), then every player joins the pool at the same moment and
waits on ``GET /api/pool`` (long-polls, as the page does) until it is paired. Prints:

- the time from a player's join to its answer ``paired``: p50, p95, max;
- the rating gap of the pairs made: mean, p50, p95, max;
- players paired twice (a player told of two rooms, asked twice, or a room with other than
  two players told of it: must be 0), players never paired (0 with an even count), and the stranger
  matches the store holds (must be half the players).

    .venv/bin/python benchmarks/pairing.py --players 200

Not a test: the figures depend on the machine (and on the wave interval, 2 s: a player
waits for the next wave, then its pairing's round trip).

(``benchmarks/pairing.py`` launches this module.)
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from spite_malice.cluster import Cluster
from spite_malice.cluster.balancer import BalancerMissing, find_config
from spite_malice.cluster.postgres import PostgresMissing

from . import server_load as load

MEAN = 1500.0


def _haproxy_config() -> Path:
    try:
        return find_config(Path(__file__).resolve().parent)
    except BalancerMissing:
        return find_config()


@dataclass
class Waiter:
    """One player of the run: its rating, when it joined and what it was told."""

    number: int
    headers: dict[str, str]
    player: str
    rating: float
    joined: float = 0.0
    in_pool: float | None = None
    """When the join was answered (the player is in the pool)."""
    paired: float | None = None
    games: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


async def make_players(
    base: str, count: int, clients: list[httpx.AsyncClient], spread: float, seed: int
) -> list[Waiter]:
    draws = random.Random(seed)

    async def one(number: int) -> Waiter:
        http = clients[number // load.CLIENTS_PER_ADDRESS]
        made = await http.post(f"{base}/api/players", json={"name": f"pool-{number}"})
        made.raise_for_status()
        body = made.json()
        rating = draws.gauss(MEAN, spread)
        return Waiter(number, {"X-Player-Secret": body["secret"]}, body["id"], rating)

    return list(await asyncio.gather(*(one(n) for n in range(count))))


def seed_ratings(url: str, waiters: list[Waiter], pool: str) -> None:
    """Write each player's rating in ``pool`` (as if it had played rated games)."""
    from sqlalchemy import insert

    from spite_malice.store import Store
    from spite_malice.store.schema_accounts import RATINGS

    now = datetime.now(UTC)
    with Store.open(url) as store, store.db.connection() as connection:
        connection.execute(
            insert(RATINGS),
            [
                {
                    "player": waiter.player,
                    "pool": pool,
                    "rating": waiter.rating,
                    "deviation": 60.0,
                    "volatility": 0.06,
                    "games": 30,
                    "updated_at": now,
                }
                for waiter in waiters
            ],
        )


async def join_and_wait(
    base: str, waiter: Waiter, http: httpx.AsyncClient, pool: str, start: asyncio.Event
) -> None:
    await start.wait()
    waiter.joined = time.perf_counter()
    try:
        joined = await http.post(f"{base}/api/pool", json={"pool": pool}, headers=waiter.headers)
        answer = joined.json()
        waiter.in_pool = time.perf_counter()
        if joined.status_code != 200:
            waiter.errors.append(f"join: {joined.status_code} {answer}")
            return
        deadline = waiter.joined + 120
        while answer.get("status") != "paired" and time.perf_counter() < deadline:
            news = await http.get(f"{base}/api/pool", params={"wait": 20}, headers=waiter.headers)
            answer = news.json()
            if answer.get("status") == "none":
                waiter.errors.append("left the pool without a game")
                return
        if answer.get("status") == "paired":
            waiter.paired = time.perf_counter()
            waiter.games.append(answer)
        # asking again brings the same game, never a second one
        again = await http.get(f"{base}/api/pool", headers=waiter.headers)
        if again.json().get("status") == "paired":
            waiter.games.append(again.json())
    except httpx.HTTPError as error:
        waiter.errors.append(f"{type(error).__name__}: {error}")


def stranger_matches(url: str, pool: str) -> Counter[str]:
    """How many stranger matches of ``pool`` each player sits in, from the store."""
    from sqlalchemy import select

    from spite_malice.store import Store
    from spite_malice.store.schema import MatchRow

    seats: Counter[str] = Counter()
    with Store.open(url) as store, store._session() as session:
        for row in session.scalars(select(MatchRow)):
            meta = row.meta or {}
            if meta.get("pool") != pool:
                continue
            for seat in meta.get("seats", []):
                if seat.get("player"):
                    seats[seat["player"]] += 1
    return seats


async def run(args: argparse.Namespace, cluster: Cluster) -> int:
    base = cluster.address
    assert cluster.postgres is not None
    url = cluster.postgres.url
    clients = load.http_clients(args.players, base, timeout=60)
    try:
        waiters = await make_players(base, args.players, clients, args.spread, args.seed)
        seed_ratings(url, waiters, args.pool)
        start = asyncio.Event()
        tasks = [
            asyncio.create_task(
                join_and_wait(
                    base, w, clients[w.number // load.CLIENTS_PER_ADDRESS], args.pool, start
                )
            )
            for w in waiters
        ]
        await asyncio.sleep(0.5)  # every task is waiting on the start
        began = time.perf_counter()
        start.set()
        await asyncio.gather(*tasks)
        took = time.perf_counter() - began
    finally:
        for client in clients:
            await client.aclose()
    return report(args, waiters, stranger_matches(url, args.pool), took)


def report(
    args: argparse.Namespace, waiters: list[Waiter], stored: Counter[str], took: float
) -> int:
    by_player = {w.player: w for w in waiters}
    times = [w.paired - w.joined for w in waiters if w.paired is not None]
    rooms: dict[str, set[str]] = {}
    for waiter in waiters:
        for game in waiter.games:
            rooms.setdefault(game["room"], set()).add(waiter.player)
    twice = sum(1 for w in waiters if len({game["room"] for game in w.games}) > 1)
    twice += sum(1 for players in rooms.values() if len(players) != 2)
    twice += sum(1 for count in stored.values() if count > 1)
    gaps = [
        abs(by_player[a].rating - by_player[b].rating)
        for a, b in (sorted(players) for players in rooms.values() if len(players) == 2)
    ]
    unpaired = sum(1 for w in waiters if w.paired is None)
    errors = [error for w in waiters for error in w.errors]
    print(
        f"{args.players} players joined pool {args.pool!r} at once through the balancer "
        f"(ratings N(1500, {args.spread:g}), seed {args.seed}); all answered in {took:.1f} s"
    )
    print(
        f"time to paired: p50 {percentile(times, 0.5):.2f} s, "
        f"p95 {percentile(times, 0.95):.2f} s, max {max(times, default=float('nan')):.2f} s"
    )
    joins = [w.in_pool - w.joined for w in waiters if w.in_pool is not None]
    print(f"join answered: p50 {percentile(joins, 0.5):.2f} s, p95 {percentile(joins, 0.95):.2f} s")
    print(
        f"rating gap of the {len(gaps)} pairs: mean {statistics.fmean(gaps) if gaps else 0:.0f}, "
        f"p50 {percentile(gaps, 0.5):.0f}, p95 {percentile(gaps, 0.95):.0f}, "
        f"max {max(gaps, default=0):.0f}"
    )
    print(
        f"paired twice: {twice}; never paired: {unpaired}; stranger matches stored: "
        f"{sum(stored.values()) // 2}; errors: {len(errors)}"
    )
    for error in errors[:10]:
        print(f"  {error}")
    return 0 if twice == 0 and not errors and unpaired == args.players % 2 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="pairing.py", description="Players joining a quick-match pool at once."
    )
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--pool", choices=("standard", "quick"), default="standard")
    parser.add_argument("--spread", type=float, default=300.0, help="the ratings' deviation")
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument("--instances", type=int, default=3)
    args = parser.parse_args(argv)
    if args.players < 2:
        parser.error("--players must be at least 2")
    cluster = Cluster(instances_wanted=args.instances, config=_haproxy_config())
    try:
        cluster.start()
    except (PostgresMissing, BalancerMissing, RuntimeError) as error:
        print(f"cannot start the cluster: {error}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(run(args, cluster))
    finally:
        cluster.stop()
        cluster.remove_folder()
