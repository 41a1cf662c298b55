"""Launcher: the benchmark lives in :mod:`bench.bots_expert` (``python
benchmarks/bots_expert.py --help``)."""

from __future__ import annotations

import sys

from bench.bots_expert import main

if __name__ == "__main__":
    sys.exit(main())
