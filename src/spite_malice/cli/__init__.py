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
    "spite_malice.cli.research_commands",
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
    """Run the command line; returns the exit status."""
    from ..i18n import from_environment, set_default_language

    set_default_language(from_environment())  # what the commands print (the terminal's locale)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
    except SpiteMaliceError as error:
        print(f"spite-malice {args.command}: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the output was cut short, e.g. by `| head`
        sys.stderr.close()
        return 0
    except OSError as error:  # a file that cannot be read or written: its name and why
        reason = error.strerror or str(error)
        where = f"{error.filename!r}: " if error.filename is not None else ""
        print(f"spite-malice {args.command}: {where}{reason}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
