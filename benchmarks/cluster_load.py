"""Launcher of the load benchmark through the balancer.

The code is :mod:`bench.cluster_load`; the docs name this script
as the command."""

from __future__ import annotations

import sys

from bench.cluster_load import main

if __name__ == "__main__":
    sys.exit(main())
