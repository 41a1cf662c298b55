"""Web subcommand: ``serve``, the browser game."""

from __future__ import annotations

import argparse
import gc
from typing import Any

from .arguments import port, proxies

TRUSTED_PROXIES = "none"
"""The balancers trusted by default: none. A server reached directly counts every player by
the connection's own address, whatever ``X-Forwarded-For`` says (any local program could
write one); ``spite-malice cluster`` passes its balancer's address."""


def register(subparsers: Any) -> None:
    serve = subparsers.add_parser(
        "serve",
        help="serve the browser game",
        description="Serve the game on http://HOST:PORT. Games, matches, statistics and "
        "settings are kept in a database: --db, else $SPITE_MALICE_DB, else $DATABASE_URL, "
        "else an SQLite file in the per-user data folder.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=port, default=8000, help="port to listen on (8000)")
    serve.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        default=None,
        help="an SQLite file, or a database URL such as postgresql://user:pw@host/db",
    )
    serve.add_argument(
        "--trusted-proxies",
        metavar="ADDRESSES",
        type=proxies,
        default=proxies(TRUSTED_PROXIES),
        help="load balancers (IP addresses or networks, comma-separated, or 'none') whose "
        "X-Forwarded-For header gives the player's address, which the limits count by "
        "(none: every connection's own address counts; give the balancer's address, e.g. "
        "127.0.0.1 for one on this machine)",
    )
    serve.add_argument(
        "--log-level",
        default="warning",
        choices=("critical", "error", "warning", "info", "debug"),
        help="how much the server logs (warning)",
    )
    serve.set_defaults(handler=_serve)


def _serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..store import Store
        from ..web import create_app
        from ..web.transport import uvicorn_limits
    except ImportError as error:
        print(
            f"spite-malice serve needs the web extras ({error.name} is missing): "
            "pip install 'spite-malice[web]'"
        )
        return 2
    store = Store.open(args.db)
    app = create_app(store=store)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Spite & Malice: http://{host}:{args.port}", flush=True)
    print(f"database: {store.location}", flush=True)
    tune_collector()
    raise_file_limit()
    try:
        uvicorn.run(
            app,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
            # messages are a few kilobytes: compressing each costs more CPU than it saves
            ws_per_message_deflate=False,
            # frames, request lines, headers and connections bounded before the application
            # reads them; behind a trusted balancer, each player's own address (the limits
            # count by address)
            **uvicorn_limits(args.trusted_proxies),
        )
    finally:
        store.close()
    return 0


GC_THRESHOLDS = (10_000, 20, 20)
"""The serving process's collector thresholds (Python's are 700, 10, 10)."""


def tune_collector() -> None:
    """Make the garbage collector cheaper for a long-running server, once it has started:
    what exists now (modules, the application) is frozen out of every later collection, and
    a collection runs after 10,000 new objects instead of 700, so that a move's short-lived
    messages are mostly freed before any collection sees them. Measured under the cluster
    load (150 games): the collector went from 5 to 8% of an instance's CPU to about 2%."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


FILES_WANTED = 2 * 4200
"""Open files the serving process asks for: every connection it admits is one (and as many
again for the store, logs and the balancer's checks)."""


def raise_file_limit() -> None:
    """Raise the process's open-file limit towards :data:`FILES_WANTED` (within the hard
    limit), so that the connection limits (web-protocol.md 7.1) are reached before it."""
    try:
        import resource
    except ImportError:  # not on this system: its own limit stands
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = FILES_WANTED if hard == resource.RLIM_INFINITY else min(FILES_WANTED, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
