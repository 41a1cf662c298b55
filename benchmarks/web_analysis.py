"""Launcher of the time of "Where did I lose?" on the server.

The code is :mod:`bench.web_analysis_time`; the docs name this script
as the command."""

from __future__ import annotations

from bench.web_analysis_time import main

if __name__ == "__main__":
    main()
