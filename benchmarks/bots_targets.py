"""Launcher: the benchmark lives in :mod:`bench.bots_targets` (``python
benchmarks/bots_targets.py --help``)."""

from __future__ import annotations

import sys

from bench.bots_targets import main

if __name__ == "__main__":
    sys.exit(main())
