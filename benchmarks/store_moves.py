"""Launcher of the store benchmark (Store.append at move 10 and move 1,000).

The code is :mod:`bench.store_append`; the docs name this script
as the command."""

from __future__ import annotations

import sys

from bench.store_append import main

if __name__ == "__main__":
    sys.exit(main())
