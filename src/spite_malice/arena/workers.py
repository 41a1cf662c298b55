"""Worker processes for an arena run, each with a pipe of its own to the run.

The run hands each worker a few games at a time and reads back what they played. No lock
is shared between the processes (a worker stopped part-way can leave none held), so a
stop, by Ctrl+C or by ``kill``, always ends: every worker is told to stop (SIGTERM, which
ends the programs of its bots), and one that has not ended within
:data:`STOP_SECONDS` is killed.

A stop that comes while the workers are being started is held until each has been given
its start-up data (cut short, a worker fails reading it, with a traceback). The workers
inherit the stop signals masked and take them once :func:`_serve` has set their handlers,
so a worker told to stop while it still starts ends quietly as soon as it runs.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar, cast

from ..bot_protocol.external import end_every_program

Item = TypeVar("Item")
Result = TypeVar("Result")

STOPS = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a run (Ctrl+C, and ``kill``, which the command turns into it)."""

STOP_SECONDS = 20.0
"""How long a stopped worker has to end (to close its bots) before it is killed."""

AHEAD = 2
"""Games given to a worker at a time, so that it never waits for the run between two."""

_READY = "ready"


class WorkerError(RuntimeError):
    """A worker process ended without being told to (it crashed or was killed)."""


class Workers(Generic[Item, Result]):
    """``jobs`` processes that each run ``work`` on the items given to them. Use it as a
    context manager: leaving the block, however it is left, stops them all."""

    def __init__(self, jobs: int, work: Callable[[Item], Result]) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        context = multiprocessing.get_context("spawn")
        self._processes: list[multiprocessing.process.BaseProcess] = []
        self._pipes: list[Connection] = []
        stops: list[int] = []
        previous = _hold_stops(stops)
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
        try:
            for number in range(jobs):
                ours, theirs = context.Pipe()
                process = context.Process(
                    target=_serve, args=(theirs, work), name=f"arena worker {number + 1}"
                )
                process.daemon = True
                process.start()
                theirs.close()
                self._processes.append(process)
                self._pipes.append(ours)
        except BaseException:
            self.close()
            raise
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            for signum, handler in previous.items():
                signal.signal(signum, handler)
        for stop in stops[:1]:  # the stop that came meanwhile, as if it came now
            try:
                signal.raise_signal(stop)
            except BaseException:
                self.close()
                raise

    def __enter__(self) -> Workers[Item, Result]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def map(self, items: Iterable[Item], *, ordered: bool = True) -> Iterator[Result]:
        """``work`` of each item, in the items' order, or as they are done when not
        ``ordered``. A worker's exception is raised here; a worker that ends unasked
        raises :class:`WorkerError`."""
        tasks = enumerate(items)
        given = {pipe: 0 for pipe in self._pipes}
        waiting: dict[int, Result] = {}
        next_out = 0
        done = False

        def give(pipe: Connection) -> None:
            nonlocal done
            while not done and given[pipe] < AHEAD:
                task = next(tasks, None)
                if task is None:
                    done = True
                    return
                pipe.send(task)
                given[pipe] += 1

        for pipe in self._pipes:
            give(pipe)
        while any(given.values()):
            for ready in wait([pipe for pipe, count in given.items() if count]):
                pipe = cast(Connection, ready)
                index, ok, value = self._receive(pipe)
                if not ok:
                    raise value
                given[pipe] -= 1
                give(pipe)
                if not ordered:
                    yield value
                    continue
                waiting[index] = value
                while next_out in waiting:
                    yield waiting.pop(next_out)
                    next_out += 1

    def _receive(self, pipe: Connection) -> tuple[int, bool, Any]:
        """The next result on ``pipe`` (past the worker's word that it runs)."""
        while True:
            try:
                message = pipe.recv()
            except (EOFError, OSError):
                process = self._processes[self._pipes.index(pipe)]
                process.join(STOP_SECONDS)
                raise WorkerError(
                    f"{process.name} ended unexpectedly (exit code {process.exitcode})"
                ) from None
            if message != _READY:
                result: tuple[int, bool, Any] = message
                return result

    def close(self) -> None:
        """Stop every worker: told (SIGTERM), then killed if it has not ended within
        :data:`STOP_SECONDS`. Their pipes are closed."""
        for process in self._processes:
            if process.exitcode is None:
                process.terminate()
        deadline = time.monotonic() + STOP_SECONDS
        for process in self._processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.exitcode is None:
                process.kill()
                process.join()
        for pipe in self._pipes:
            pipe.close()
        self._processes.clear()
        self._pipes.clear()


def _hold_stops(stops: list[int]) -> dict[signal.Signals, Any]:
    """Note the stop signals in ``stops`` instead of acting on them; the handlers they had
    (none set where Python may not set them: outside the main thread). A signal mask
    alone does not hold them: another thread of the run may take the signal, and Python
    then acts on it in the main thread all the same."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    previous = {signum: signal.getsignal(signum) for signum in STOPS}
    for signum in STOPS:
        signal.signal(signum, lambda caught, _frame: stops.append(caught))
    return previous


def _serve(pipe: Connection, work: Callable[[Any], Any]) -> None:
    """A worker's life: it ignores Ctrl+C (the run stops it) and ends on the run's stop
    signal once it has ended its bots' programs (an outside program bot, in a session of
    its own, hears of the stop only that way); it says it runs, then plays what it is given
    until its pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_worker)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
    try:
        pipe.send(_READY)
        while True:
            index, item = pipe.recv()
            try:
                result = work(item)
            except Exception as error:  # handed to the run, which raises it
                _send_error(pipe, index, error)
            else:
                pipe.send((index, True, result))
    except (EOFError, OSError):
        return  # the run has ended: there is nobody to tell


def _send_error(pipe: Connection, index: int, error: Exception) -> None:
    try:
        pipe.send((index, False, error))
    except (EOFError, OSError):
        raise
    except Exception:  # an exception that does not pickle: its words, then
        pipe.send((index, False, RuntimeError(f"{type(error).__name__}: {error}")))


def _stop_worker(signum: int, frame: object) -> None:
    # The stop may land anywhere, even inside a bot's own stop of its program (after it has
    # let go of the process and before the kill), so the programs are ended here, and then
    # the worker ends at once. Raised as an exception instead, the stop could land inside a
    # finaliser (a generator closed by the garbage collector), where Python prints it as
    # "Exception ignored ... Traceback" and the worker plays on until it is killed.
    end_every_program()
    os._exit(0)
