"""Launcher: the benchmark lives in :mod:`bench.bots_leaf` (``python
benchmarks/bots_leaf.py --help``)."""

from __future__ import annotations

import sys

from bench.bots_leaf import main

if __name__ == "__main__":
    sys.exit(main())
