"""Launcher of the Expert bot's search time on collected positions.

The code is :mod:`bench.bots_search_time`; the docs name this script as the command."""

from __future__ import annotations

import sys

from bench.bots_search_time import main

if __name__ == "__main__":
    sys.exit(main())
