"""Launcher of the cost of the rule mirrors kept for speed beside the engine paths.

The code is :mod:`bench.mirrors`; the mirror list (tests/test_rule_mirrors.py) names this
script as the command of its figures."""

from __future__ import annotations

import sys

from bench.mirrors import main

if __name__ == "__main__":
    sys.exit(main())
