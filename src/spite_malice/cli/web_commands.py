"""Web subcommand: ``serve``, the browser game."""

from __future__ import annotations

import argparse
import gc
from typing import Any

from .arguments import port, proxies

TRUSTED_PROXIES = "127.0.0.1,::1"
"""The balancers trusted by default: one on this machine (``spite-malice cluster``'s)."""


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
        f"({TRUSTED_PROXIES}: a balancer on this machine)",
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
        from ..web.limits import uvicorn_limits
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
    try:
        uvicorn.run(
            app,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
            # messages are a few kilobytes: compressing each costs more CPU than it saves
            ws_per_message_deflate=False,
            # behind a balancer, each player's own address (the limits count by address)
            proxy_headers=True,
            forwarded_allow_ips=args.trusted_proxies,
            # frames, request lines and headers bounded before the application reads them
            **uvicorn_limits(),
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
