"""Launcher: the benchmark lives in :mod:`bench.bots_candidates` (``python
benchmarks/bots_candidates.py --help``)."""

from __future__ import annotations

import sys

from bench.bots_candidates import main

if __name__ == "__main__":
    sys.exit(main())
