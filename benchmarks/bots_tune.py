"""Launcher: the benchmark lives in :mod:`spite_malice.bench.bots_tune` (``python -m
spite_malice.bench.bots_tune --help``)."""

from __future__ import annotations

import sys

from spite_malice.bench.bots_tune import main

if __name__ == "__main__":
    sys.exit(main())
