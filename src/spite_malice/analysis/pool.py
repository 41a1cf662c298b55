"""Valuing a game's decisions on several cores at once.

Decisions are independent (each one's deals depend only on the settings' seed and the point
of the game, :func:`~.judge.judge_decision`), so they can be valued in any order, anywhere,
and give the same report. :func:`judge_decisions` values them in this process and in
``workers - 1`` helper processes (``python -m spite_malice.analysis.worker``), each taking the
next decision not yet taken. The helpers are plain child processes reading their work from a
pipe, so they also work under a process that may not start ``multiprocessing`` children (a
daemon one, as the web server's analysis runs in), and they stop when the pipe closes, so
none outlives the analysis. A helper that fails is not needed: its decision is valued here.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from typing import IO, Any

from .judge import AnalysisCancelled, Judgement, Settings, judge_decision
from .turns import Decision

MAX_WORKERS = 4
"""Cores one analysis uses at most."""

MIN_PARALLEL = 8
"""A game with fewer decisions is valued in this process alone (starting a helper would
take about as long as valuing them)."""

WAIT_SECONDS = 0.1
"""How often this process looks at ``should_stop`` while waiting for a helper."""


def default_workers() -> int:
    """The cores an analysis uses by default: all of them, up to :data:`MAX_WORKERS`."""
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS))


class _Work:
    """The decisions not yet taken, shared by this process and the helpers' threads."""

    def __init__(self, count: int) -> None:
        self._lock = threading.Lock()
        self._next = list(range(count - 1, -1, -1))  # popped from the end: in order

    def take(self) -> int | None:
        with self._lock:
            return self._next.pop() if self._next else None

    def give_back(self, index: int) -> None:
        with self._lock:
            self._next.append(index)


def _helper(
    process: subprocess.Popen[bytes],
    decisions: Sequence[Decision],
    work: _Work,
    results: queue.Queue[tuple[int, Judgement]],
) -> None:
    """Feed one helper process decisions until none is left (runs in a thread)."""
    assert process.stdin is not None and process.stdout is not None
    index: int | None = None
    try:
        while (index := work.take()) is not None:
            pickle.dump((index, decisions[index]), process.stdin)
            process.stdin.flush()
            found, choices, samples = pickle.load(process.stdout)
            if found != index:
                raise ValueError(f"the helper answered decision {found} for {index}")
            results.put((index, Judgement(decisions[index], choices, samples)))
            index = None
    except Exception:  # whatever went wrong, the decision is not lost
        if index is not None:  # the helper failed: this process values its decision
            work.give_back(index)
    finally:
        _close(process.stdin)


def _close(pipe: IO[bytes]) -> None:
    with contextlib.suppress(OSError):
        pipe.close()


def _start_helper(settings: Settings) -> subprocess.Popen[bytes] | None:
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "spite_malice.analysis.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
    except OSError:
        return None
    assert process.stdin is not None
    try:
        pickle.dump(settings, process.stdin)
        process.stdin.flush()
    except OSError:
        process.kill()
        process.wait()
        return None
    return process


def judge_decisions(
    decisions: Sequence[Decision],
    settings: Settings,
    *,
    workers: int | None = None,
    on_judged: Callable[[int, Judgement], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> list[Judgement]:
    """Every decision judged, in order; ``on_judged(index, judgement)`` is called in this
    thread as each one is done (in the order they finish). ``workers``: processes to use,
    this one included (:func:`default_workers` when None). Raises
    :class:`~.judge.AnalysisCancelled` when ``should_stop`` returns true."""
    count = len(decisions)
    workers = default_workers() if workers is None else max(1, workers)
    helpers = min(workers, count) - 1 if count >= MIN_PARALLEL else 0
    found: dict[int, Judgement] = {}

    def done(index: int, judgement: Judgement) -> None:
        found[index] = judgement
        if on_judged is not None:
            on_judged(index, judgement)

    work = _Work(count)
    results: queue.Queue[tuple[int, Judgement]] = queue.Queue()
    processes = [p for p in (_start_helper(settings) for _ in range(helpers)) if p is not None]
    threads = [
        threading.Thread(
            target=_helper, args=(p, decisions, work, results), name="analysis-helper", daemon=True
        )
        for p in processes
    ]
    for thread in threads:
        thread.start()
    try:
        while len(found) < count:
            while not results.empty():
                done(*results.get_nowait())
            if should_stop is not None and should_stop():
                raise AnalysisCancelled("the analysis was stopped")
            index = work.take()
            if index is not None:
                done(index, judge_decision(decisions[index], settings, should_stop=should_stop))
                continue
            try:  # everything is taken: wait for the helpers
                done(*results.get(timeout=WAIT_SECONDS))
            except queue.Empty:
                if not any(thread.is_alive() for thread in threads) and results.empty():
                    # a helper ended without answering: its decision was given back
                    continue
        return [found[i] for i in range(count)]
    finally:
        _stop(processes, threads)


def _stop(processes: list[subprocess.Popen[bytes]], threads: list[threading.Thread]) -> None:
    for process in processes:
        if process.poll() is None:
            process.kill()
    for process in processes:
        process.wait()
        if process.stdout is not None:
            _close(process.stdout)
    for thread in threads:
        thread.join(timeout=5)


def worker_main(stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """A helper process: the settings, then decisions to judge, one at a time, until the pipe
    closes; each answer is (index, choices, samples)."""
    settings: Any = pickle.load(stdin)
    while True:
        try:
            index, decision = pickle.load(stdin)
        except EOFError:
            return
        judgement = judge_decision(decision, settings)
        pickle.dump((index, judgement.choices, judgement.samples), stdout)
        stdout.flush()
