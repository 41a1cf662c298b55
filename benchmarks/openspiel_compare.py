"""Launcher of OpenSpiel's per-move cost in two source trees.

The code is :mod:`bench.openspiel_compare`; the docs name this script as the command."""

from __future__ import annotations

import sys

from bench.openspiel_compare import main

if __name__ == "__main__":
    sys.exit(main())
