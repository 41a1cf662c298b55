"""Launcher of the WebSocket floor benchmark (an echo on the server's stack, no game work).

The code is :mod:`bench.ws_floor`; the docs name this script as the command."""

from __future__ import annotations

import sys

from bench.ws_floor import main

if __name__ == "__main__":
    sys.exit(main())
