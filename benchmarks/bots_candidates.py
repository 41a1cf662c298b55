"""Launcher: the benchmark lives in :mod:`spite_malice.bench.bots_candidates` (``python -m
spite_malice.bench.bots_candidates --help``)."""

from __future__ import annotations

import sys

from spite_malice.bench.bots_candidates import main

if __name__ == "__main__":
    sys.exit(main())
