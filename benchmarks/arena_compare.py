"""Launcher: the benchmark lives in :mod:`bench.arena_compare` (``python
benchmarks/arena_compare.py --help``)."""

from __future__ import annotations

import sys

from bench.arena_compare import main

if __name__ == "__main__":
    sys.exit(main())
