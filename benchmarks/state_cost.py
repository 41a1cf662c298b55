"""Launcher of the benchmark of one seat's state (``table/seat_state.py``).

The code is :mod:`bench.state_cost`; the docs name this script as the command."""

from __future__ import annotations

import sys

from bench.state_cost import main

if __name__ == "__main__":
    sys.exit(main())
