"""The arena's worker processes (``arena/workers.py``): results in order or as done, a
worker's error raised in the run, and a stop that always ends, even when a worker crashes
or will not stop."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from spite_malice.arena import workers
from spite_malice.arena.workers import WorkerError, Workers
from waiting import wait_for


def square(number: int) -> int:
    return number * number


def fail_on_five(number: int) -> int:
    if number == 5:
        raise ValueError("five is not wanted")
    return number


def crash_on_two(number: int) -> int:
    if number == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return number


def never_stop(mark: Path) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    mark.touch()
    time.sleep(600)


def stopped_in_a_finaliser(mark: Path) -> str:
    """A game whose worker is told to stop while a generator left part-way is closed, as the
    garbage collector may close one anywhere in a bot's move."""

    def steps() -> Iterator[None]:
        try:
            yield
        finally:
            os.kill(os.getpid(), signal.SIGTERM)  # the run's stop, taken inside the finaliser
            for _ in range(100_000):
                pass

    left = steps()
    next(left)
    del left  # closed here, which runs its finally
    mark.touch()  # only a worker that played on after its stop gets here
    return "played on"


def test_results_come_in_the_order_of_the_items_or_as_they_are_done() -> None:
    with Workers(2, square) as pool:
        assert list(pool.map(range(8))) == [number * number for number in range(8)]
        done = list(pool.map(range(8), ordered=False))
    assert sorted(done) == [number * number for number in range(8)]


def test_a_workers_error_is_raised_in_the_run_with_its_own_type() -> None:
    with Workers(2, fail_on_five) as pool, pytest.raises(ValueError, match="five is not wanted"):
        list(pool.map(range(10)))


def test_a_worker_that_crashes_is_an_error_not_a_wait() -> None:
    with Workers(2, crash_on_two) as pool, pytest.raises(WorkerError, match="ended unexpectedly"):
        list(pool.map(range(10)))


def test_a_worker_that_will_not_stop_is_killed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "STOP_SECONDS", 0.5)
    mark = tmp_path / "playing"
    main = threading.main_thread().ident
    assert main is not None

    def stop_once_it_plays() -> None:  # a stop, as the run's Ctrl+C would come
        wait_for(mark.exists, 120, 0.05, "the worker to play")
        signal.pthread_kill(main, signal.SIGALRM)

    previous = signal.signal(signal.SIGALRM, _stopped)
    stopper = threading.Thread(target=stop_once_it_plays)
    try:
        pool = Workers(1, never_stop)
        process = pool._processes[0]
        stopper.start()
        with pytest.raises(Stopped), pool:
            list(pool.map([mark]))
    finally:
        stopper.join()
        signal.signal(signal.SIGALRM, previous)
    assert process.exitcode == -signal.SIGKILL  # it ignored the stop, so it was killed


class Stopped(Exception):
    pass


def _stopped(signum: int, frame: object) -> None:
    raise Stopped


def test_a_stop_inside_a_finaliser_ends_the_worker_quietly(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    mark = tmp_path / "played on"
    with Workers(1, stopped_in_a_finaliser) as pool, pytest.raises(WorkerError, match="code 0"):
        list(pool.map([mark]))
    assert not mark.exists()
    assert "Traceback" not in capfd.readouterr().err  # the worker shares the test's stderr


def test_jobs_must_be_at_least_one() -> None:
    with pytest.raises(ValueError, match="jobs must be at least 1, not 0"):
        Workers(0, square)
