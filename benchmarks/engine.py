"""Launcher of the engine speed benchmark (reference-policy self-play).

The code is :mod:`bench.engine`; the docs name this script as the command."""

from __future__ import annotations

import sys

from bench.engine import main

if __name__ == "__main__":
    sys.exit(main())
