"""Launcher of the flood benchmark (a server's memory and another room's move latency while a
stranger floods it).

The code is :mod:`bench.floods`; the docs name this script as the command."""

from __future__ import annotations

import sys

from bench.floods import main

if __name__ == "__main__":
    sys.exit(main())
