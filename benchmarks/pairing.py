"""Launcher of the quick-match pairing benchmark through the balancer.

The code is :mod:`bench.pairing_load`; the docs name this script as the
command."""

from __future__ import annotations

import sys

from bench.pairing_load import main

if __name__ == "__main__":
    sys.exit(main())
