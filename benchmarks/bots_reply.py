"""Launcher: the benchmark lives in :mod:`bench.bots_reply` (``python
benchmarks/bots_reply.py --help``)."""

from __future__ import annotations

import sys

from bench.bots_reply import main

if __name__ == "__main__":
    sys.exit(main())
