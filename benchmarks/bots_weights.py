"""Launcher: the benchmark lives in :mod:`bench.bots_weights` (``python
benchmarks/bots_weights.py --help``)."""

from __future__ import annotations

import sys

from bench.bots_weights import main

if __name__ == "__main__":
    sys.exit(main())
