"""Load through the balancer: benchmarks/load.py's clients against a cluster on this machine.

Starts ``spite-malice cluster``'s parts (a private PostgreSQL, three instances, HAProxy with
deploy/haproxy.cfg), then in one run, on the same database:

1. ``--games`` concurrent games through the balancer for ``--duration`` seconds;
2. the same with one instance killed (SIGKILL) half-way: its pages reconnect through the
   balancer to the others, and their dropped connections count as reconnects, not errors;
3. the same games against one instance directly, without the balancer (the single-instance
   figure beside it, so that the cost of the balancer and the fan-out shows).

Each prints :mod:`.server_load`'s report: the move round trip p50/p95/p99, errors and lost
games (every room is read back at the end and must hold every acknowledged move), the bytes
sent a client move (the clients ask for deltas as the page does; ``--whole-states`` for the
whole state in every update), and the CPU the round cost: the instances' (per client move,
with the computer's replies), PostgreSQL's (with its transactions and WAL flushes a client
move), HAProxy's, the load clients' own, all of them together, and how busy the whole machine
was (every process on it, other work too), so that whether the target is within the
machine's reach shows. A summary at the end gives each round's p95, errors, lost games, CPU
of all parts and bytes a client move.

    .venv/bin/python benchmarks/cluster_load.py --games 600 --duration 60

Not a test: the figures depend on the machine. Target on a 2-core machine with three
instances: p95 <= 50 ms, 0 errors, 0 lost games.

(``benchmarks/cluster_load.py`` launches this module.)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from spite_malice.cluster import Cluster
from spite_malice.cluster.balancer import BalancerMissing, find_config
from spite_malice.cluster.launcher import Instance

from . import server_load as load


def _haproxy_config() -> Path:
    """``deploy/haproxy.cfg`` of the repository these sources are in, else of the working
    folder's."""
    try:
        return find_config(Path(__file__).resolve().parent)
    except BalancerMissing:
        return find_config()


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (PostgreSQL's backends), read from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def _postmaster(cluster: Cluster) -> int | None:
    """The private PostgreSQL's main process, or None (another server was named)."""
    if cluster.postgres is None:
        return None
    try:
        return int((cluster.postgres.data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _machine_cpu() -> float | None:
    """CPU seconds every process of the machine has used (busy time in /proc/stat)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    ticks = [int(value) for value in fields]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _commits(cluster: Cluster) -> tuple[int, int] | None:
    """PostgreSQL's count of committed transactions in the game's database and of its WAL
    flushes (``pg_stat_database``, ``pg_stat_wal``; its statistics lag up to a second), or
    None when they cannot be read."""
    if not cluster.instances:
        return None
    import psycopg
    from sqlalchemy.engine import make_url

    plain = make_url(cluster.instances[0].database).set(drivername="postgresql")
    try:
        with psycopg.connect(plain.render_as_string(hide_password=False)) as connection:
            row = connection.execute(
                "SELECT (SELECT xact_commit FROM pg_stat_database"
                " WHERE datname = current_database()), (SELECT wal_sync FROM pg_stat_wal)"
            ).fetchone()
    except psycopg.Error:
        return None
    if row is None or row[0] is None or row[1] is None:
        return None
    return int(row[0]), int(row[1])


class Meter:
    """The CPU the cluster's parts and the machine use during one round."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.killed = 0.0
        """CPU seconds of instances killed during the round (read just before the kill)."""
        self.start = self._read()
        self.commits_start = _commits(cluster)
        self.clients_start = load.cpu_seconds(os.getpid())
        self.clients: float | None = None
        """CPU seconds the load clients (this process) used while they played."""

    def _instances(self) -> float:
        used = 0.0
        for instance in self.cluster.instances:
            if instance.process is not None and instance.process.poll() is None:
                used += load.cpu_seconds(instance.process.pid) or 0.0
        return used

    def _read(self) -> tuple[float, float, float, float | None]:
        postgres = 0.0
        postmaster = _postmaster(self.cluster)
        if postmaster is not None:  # its backends, those that ended too
            postgres += load.reaped_cpu_seconds(postmaster) or 0.0
            for pid in [postmaster, *_children(postmaster)]:
                postgres += load.cpu_seconds(pid) or 0.0
        balancer = self.cluster.balancer
        haproxy = 0.0
        if balancer is not None and balancer.process is not None:
            haproxy = load.cpu_seconds(balancer.process.pid) or 0.0
        return self._instances(), postgres, haproxy, _machine_cpu()

    def clients_done(self) -> None:
        """The clients stopped playing: what they used, before the rooms are read back."""
        now = load.cpu_seconds(os.getpid())
        if now is not None and self.clients_start is not None:
            self.clients = now - self.clients_start

    def before_kill(self, instance: Instance) -> None:
        if instance.process is not None:
            self.killed += load.cpu_seconds(instance.process.pid) or 0.0

    def report(self, moves: int, elapsed: float) -> float | None:
        """Print the round's CPU line; return the CPU of all parts a client move (ms), or
        None when the clients' could not be read or no move was made."""
        every_part: float | None = None
        instances, postgres, haproxy, machine = self._read()
        used = instances + self.killed - self.start[0]
        line = f"CPU: instances {used:.1f} s"
        if moves:
            line += f" ({used * 1000 / moves:.2f} ms per client move with the computer's replies)"
        line += f", PostgreSQL {postgres - self.start[1]:.1f} s"
        commits = _commits(self.cluster)
        if commits is not None and self.commits_start is not None and moves:
            made = commits[0] - self.commits_start[0]  # reads' transactions too
            flushed = commits[1] - self.commits_start[1]
            line += (
                f" ({made / moves:.2f} transactions and {flushed / moves:.2f} WAL flushes"
                " a client move)"
            )
        line += f", HAProxy {haproxy - self.start[2]:.1f} s"
        if self.clients is not None:
            line += f", the load clients {self.clients:.1f} s"
            if moves:
                line += f" ({self.clients * 1000 / moves:.2f} ms a move)"
        if self.clients is not None and moves:
            every = used + (postgres - self.start[1]) + (haproxy - self.start[2]) + self.clients
            every_part = every * 1000 / moves
            line += f"; all parts {every_part:.2f} ms per client move"
        if machine is not None and self.start[3] is not None:
            busy = (machine - self.start[3]) / elapsed
            line += f"; the machine {busy:.2f} of its {os.cpu_count()} CPUs busy"
        print(f"{line}; machine load {load.machine_load()}", flush=True)
        return every_part


async def run(
    args: argparse.Namespace,
    base: str,
    cluster: Cluster,
    victim: Instance | None = None,
) -> Round:
    """One round of :mod:`.server_load`'s clients against ``base`` (killing ``victim``
    half-way when given): what the summary says of it."""
    await load.wait_healthy(base, 60)
    meter = Meter(cluster)
    totals = load.Totals()
    clients = load.http_clients(args.games, base, args.timeout)
    players = [load.Player(number, args, base, totals) for number in range(args.games)]
    started = time.monotonic()
    deadline = started + args.duration
    tasks = []
    if victim is not None:
        killed = victim

        async def kill_later() -> None:
            await asyncio.sleep(args.duration / 2)
            totals.killed_at = time.monotonic()
            meter.before_kill(killed)
            killed.kill()
            print(f"killed an instance after {args.duration / 2:.0f} s", flush=True)

        tasks.append(asyncio.create_task(kill_later()))
    await load.play_all(players, clients, deadline, tasks)
    elapsed = time.monotonic() - started
    meter.clients_done()
    await load.check_rooms(players, totals, args.timeout)
    load.report(args, totals, elapsed, None)
    every_part = meter.report(totals.moves, elapsed)
    p95 = load.percentile(totals.latencies, 0.95) if totals.latencies else float("inf")
    sent = totals.received / totals.moves if totals.moves else 0.0
    return Round(p95 * 1000, len(totals.errors), len(totals.lost), every_part, sent)


@dataclass(frozen=True)
class Round:
    """A round's figures for the summary (the Measures of the load target)."""

    p95: float
    """Milliseconds."""
    errors: int
    lost: int
    every_part: float | None
    """CPU of all parts a client move, milliseconds (None: not read)."""
    sent: float
    """Bytes sent a client move."""

    @property
    def met(self) -> bool:
        return not self.errors and not self.lost and self.p95 <= 50.0

    def line(self, name: str) -> str:
        cpu = "?" if self.every_part is None else f"{self.every_part:.2f} ms"
        return (
            f"  {name}: p95 {self.p95:.1f} ms, errors {self.errors}, lost games {self.lost}, "
            f"CPU all parts {cpu} a client move, {self.sent:.0f} bytes sent a client move"
        )


def _rounds(text: str) -> tuple[int, ...]:
    """The rounds asked for by ``--rounds`` ("1,3"), each of 1, 2 and 3."""
    try:
        rounds = tuple(sorted({int(part) for part in text.split(",")}))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of round numbers: {text!r}") from None
    if not rounds or not set(rounds) <= {1, 2, 3}:
        raise argparse.ArgumentTypeError(f"rounds are 1, 2 and 3, not {text!r}")
    return rounds


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
    parser.add_argument(
        "--whole-states",
        action="store_true",
        help="clients ask for whole states in every update, not deltas (the bytes before)",
    )
    parser.add_argument(
        "--rounds",
        type=_rounds,
        default=(1, 2, 3),
        help="which rounds to run, e.g. 1 or 1,3 (all: 1 through the balancer, 2 with an "
        "instance killed, 3 one instance directly)",
    )
    args = parser.parse_args()
    load.lift_creation_limit()  # 600 players from this one machine (see server_load)
    cluster = Cluster(instances_wanted=3, config=_haproxy_config())
    print("starting PostgreSQL, three instances and HAProxy ...", flush=True)
    cluster.start()
    met: list[tuple[str, Round]] = []
    try:
        victim = cluster.instances[0]
        if 1 in args.rounds:
            print(f"\n== 1. three instances through the balancer ({cluster.address})", flush=True)
            met.append(("1 balancer", load.run_loop(run(args, cluster.address, cluster))))
        if 2 in args.rounds:
            print("\n== 2. the same, one instance killed half-way", flush=True)
            killed = load.run_loop(run(args, cluster.address, cluster, victim))
            met.append(("2 instance killed", killed))
            cluster.restart(victim)
        if 3 in args.rounds:
            print(f"\n== 3. one instance directly ({victim.url}), no balancer", flush=True)
            met.append(("3 one instance", load.run_loop(run(args, victim.url, cluster))))
    finally:
        cluster.stop()
        cluster.remove_folder()
    print(f"\nsummary (machine load {load.machine_load()}):")
    for name, figures in met:
        print(figures.line(name))
    print(
        "target (p95 <= 50 ms, 0 errors, 0 lost games) met:",
        [figures.met for _, figures in met],
        flush=True,
    )
    return 0 if all(figures.met for _, figures in met) else 1


if __name__ == "__main__":
    sys.exit(main())
