"""Launcher: the benchmark lives in :mod:`bench.bots_blockade` (``python
benchmarks/bots_blockade.py --help``)."""

from __future__ import annotations

import sys

from bench.bots_blockade import main

if __name__ == "__main__":
    sys.exit(main())
