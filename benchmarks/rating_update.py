"""Launcher of the ratings benchmark (the CPU a rated game's end costs).

The code is :mod:`bench.rating_update`; the docs name this script as the
command."""

from __future__ import annotations

import sys

from bench.rating_update import main

if __name__ == "__main__":
    sys.exit(main())
