"""Launcher of the time to analyse a 50-turn game (50 turns of each player).

The code is :mod:`bench.analysis_time`; the docs name this script
as the command."""

from __future__ import annotations

from bench.analysis_time import main

if __name__ == "__main__":
    raise SystemExit(main())
