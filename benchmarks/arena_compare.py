"""Launcher: the benchmark lives in :mod:`spite_malice.bench.arena_compare` (``python -m
spite_malice.bench.arena_compare --help``)."""

from __future__ import annotations

import sys

from spite_malice.bench.arena_compare import main

if __name__ == "__main__":
    sys.exit(main())
