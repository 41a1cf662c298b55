"""``python -m spite_malice.bot_client NAME``: one of our own bots served over the text
protocol on standard input and output (any name :func:`~spite_malice.bot_registry.make_bot`
knows, ``reference`` among them)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..bot_registry import make_bot
from .client import serve_bot


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m spite_malice.bot_client",
        description="Serve one of our bots over the text protocol on stdin/stdout.",
    )
    parser.add_argument("bot", help="a bot name, such as reference")
    parser.add_argument("--seed", type=int, default=None, help="the bot's seed")
    args = parser.parse_args(argv)
    return serve_bot(make_bot(args.bot, seed=args.seed))


if __name__ == "__main__":
    sys.exit(main())
