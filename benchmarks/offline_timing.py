"""Launcher of the installable app's figures (download size, open offline to first move, the
computer's answer time in the page and on the server).

The code is :mod:`bench.offline_timing`; the docs name this script as the
command."""

from __future__ import annotations

from bench.offline_timing import main

if __name__ == "__main__":
    raise SystemExit(main())
