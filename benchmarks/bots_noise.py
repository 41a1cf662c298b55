"""Launcher: the benchmark lives in :mod:`bench.bots_noise` (``python
benchmarks/bots_noise.py --help``)."""

from __future__ import annotations

import sys

from bench.bots_noise import main

if __name__ == "__main__":
    sys.exit(main())
