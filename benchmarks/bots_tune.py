"""Launcher: the benchmark lives in :mod:`bench.bots_tune` (``python
benchmarks/bots_tune.py --help``)."""

from __future__ import annotations

import sys

from bench.bots_tune import main

if __name__ == "__main__":
    sys.exit(main())
