"""A helper process of :mod:`.pool`: ``python -m spite_malice.analysis.worker`` judges the
decisions it reads from standard input and writes the judgements to standard output (pickles
between two processes of one analysis), until its input closes."""

from __future__ import annotations

import sys

from .pool import worker_main


def main() -> int:
    try:
        worker_main(sys.stdin.buffer, sys.stdout.buffer)
    except (KeyboardInterrupt, BrokenPipeError):
        return 1  # the analysis was stopped; it says so itself
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
