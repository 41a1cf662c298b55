"""Launcher of the research adapters' speed beside the engine's.

The code is :mod:`bench.research`; the docs name this script as the command."""

from __future__ import annotations

import sys

from bench.research import main

if __name__ == "__main__":
    sys.exit(main())
