"""The ``spite-malice`` command. Each module of this package adds the subcommands of one layer.

A module listed in :data:`COMMAND_MODULES` defines ``register(subparsers)``, which adds its
subcommands and sets each one's ``handler(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from ..engine.errors import SpiteMaliceError

COMMAND_MODULES = (
    "spite_malice.cli.engine_commands",
    "spite_malice.cli.tui_commands",
    "spite_malice.cli.web_commands",
    "spite_malice.cli.bot_commands",
    "spite_malice.cli.cluster_commands",
    "spite_malice.cli.analysis_commands",
    "spite_malice.cli.replay_commands",
    "spite_malice.cli.daily_commands",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spite-malice",
        description="Spite & Malice: play it, watch it, measure it.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for a failure the player can act on:
    one sentence in their language, never a traceback)."""
    from ..i18n import from_environment, set_default_language
    from .errors import os_message, store_message, translate_argparse

    set_default_language(from_environment())  # what the commands print (the terminal's locale)
    translate_argparse()
    parser = build_parser()
    args = parser.parse_args(argv)

    def refuse(message: str) -> int:
        print(f"spite-malice {args.command}: {message}", file=sys.stderr)
        return 2

    try:
        status: int = args.handler(args)
    except SpiteMaliceError as error:
        return refuse(str(error))
    except BrokenPipeError:  # the output was cut short, e.g. by `| head`
        sys.stderr.close()
        return 0
    except OSError as error:  # a file that cannot be read or written: its name and why
        return refuse(os_message(error))
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        message = store_message(error, getattr(args, "db", None))
        if message is None:
            raise  # not a failure a player can meet: a bug, with its traceback
        return refuse(message)
    return status


if __name__ == "__main__":
    sys.exit(main())
