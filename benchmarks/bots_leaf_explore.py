"""Launcher: the benchmark lives in :mod:`spite_malice.bench.bots_leaf_explore` (``python -m
spite_malice.bench.bots_leaf_explore --help``)."""

from __future__ import annotations

import sys

from spite_malice.bench.bots_leaf_explore import main

if __name__ == "__main__":
    sys.exit(main())
