"""Cluster subcommand: ``cluster``, several instances behind HAProxy on one machine."""

from __future__ import annotations

import argparse
import signal
import threading
from pathlib import Path
from typing import Any

from .arguments import port, positive


def register(subparsers: Any) -> None:
    cluster = subparsers.add_parser(
        "cluster",
        help="try several servers behind a load balancer on this machine",
        description="Start PostgreSQL (a private server in a temporary folder unless --db "
        "names one), N instances of `spite-malice serve` and HAProxy with deploy/haproxy.cfg, "
        "print the one address to open, and stop them all on Ctrl-C. Needs PostgreSQL's server "
        "programs and HAProxy (`make cluster` installs both when run as root).",
    )
    cluster.add_argument(
        "--instances", type=positive, default=3, help="how many game servers to start (3)"
    )
    cluster.add_argument("--host", default="127.0.0.1", help="address the balancer listens on")
    cluster.add_argument("--port", type=port, default=8080, help="port the balancer listens on")
    cluster.add_argument(
        "--db", metavar="URL", default=None, help="an existing PostgreSQL database URL"
    )
    cluster.add_argument(
        "--haproxy-config",
        type=Path,
        default=None,
        help="HAProxy's configuration (deploy/haproxy.cfg of the repository)",
    )
    cluster.add_argument(
        "--folder",
        type=Path,
        default=None,
        help="where the logs and the database go, kept "
        "after the cluster stops (by default a temporary folder, removed at the end)",
    )
    cluster.set_defaults(handler=_cluster)


def _cluster(args: argparse.Namespace) -> int:
    from ..cluster import Cluster, ClusterError

    cluster = Cluster(
        instances_wanted=args.instances,
        database=args.db,
        host=args.host,
        port=args.port,
        config=args.haproxy_config,
        folder=args.folder,
    )
    print(f"starting PostgreSQL, {args.instances} instances and HAProxy ...", flush=True)
    try:
        cluster.start()
    except ClusterError as error:
        print(f"spite-malice cluster: {error}")
        return 2
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    try:
        print(f"Spite & Malice: {cluster.address}", flush=True)
        for instance in cluster.instances:
            print(f"  instance {instance.number}: {instance.url}", flush=True)
        assert cluster.balancer is not None
        print(f"  balancer status: {cluster.balancer.stats_address}", flush=True)
        print(f"  logs and data: {cluster.folder}", flush=True)
        print("Ctrl-C stops them all.", flush=True)
        stopped.wait()
    except KeyboardInterrupt:
        pass
    finally:
        print("stopping ...", flush=True)
        cluster.stop()
        cluster.remove_folder()
    return 0
