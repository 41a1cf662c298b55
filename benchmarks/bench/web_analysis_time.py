"""How long "Where did I lose?" takes on the server: the 50-turn game of ``analysis.py``
(50 turns of each player, Medium against Hard, seat 0) through the web server's
:class:`AnalysisService`, in its child process (what the page waits for, start-up and the
analysis's helper processes included) and, for comparison, in a thread of this process.
Prints each run and the medians.

    nice -n 10 .venv/bin/python benchmarks/web_analysis.py --runs 3

(``benchmarks/web_analysis.py`` launches this module; ``analysis.py`` is
:mod:`.analysis_time`.)
"""

from __future__ import annotations

import argparse
import statistics
import time

from spite_malice.analysis.report import DEFAULT_SETTINGS

from .analysis_time import dealt_record


def timed(use_process: bool, record_seed: int, turns: int) -> float:
    """Seconds on the clock from the request to the report, one analysis on its own."""
    # imported here: a child process started by "spawn" imports the main module's imports
    # first, and the server's main module (the command) imports no web module either
    from spite_malice.web.analyses import AnalysisService

    record = dealt_record(record_seed, 2 * turns)
    service = AnalysisService(DEFAULT_SETTINGS, use_process=use_process)
    start = time.perf_counter()
    task = service.submit((1, 0), record, 0)
    if not task.finished.wait(3600):
        raise SystemExit("the analysis did not finish within an hour")
    elapsed = time.perf_counter() - start
    service.close()
    if task.state != "done":
        raise SystemExit(f"the analysis failed: {task.error}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turns", type=int, default=50, help="turns of each player (50)")
    args = parser.parse_args()
    for label, use_process in (("child process", True), ("thread", False)):
        runs = [timed(use_process, args.seed, args.turns) for _ in range(args.runs)]
        shown = ", ".join(f"{r:.1f}" for r in runs)
        print(f"{label:>13}: {shown} s on the clock; median {statistics.median(runs):.1f} s")


if __name__ == "__main__":
    main()
