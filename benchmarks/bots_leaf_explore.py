"""Launcher: the benchmark lives in :mod:`bench.bots_leaf_explore` (``python
benchmarks/bots_leaf_explore.py --help``)."""

from __future__ import annotations

import sys

from bench.bots_leaf_explore import main

if __name__ == "__main__":
    sys.exit(main())
