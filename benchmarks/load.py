"""Launcher of the load benchmark of one server.

The code is :mod:`bench.server_load`; the docs name this script
as the command."""

from __future__ import annotations

import sys

from bench.server_load import main

if __name__ == "__main__":
    sys.exit(main())
