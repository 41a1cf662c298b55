"""An analysis run in the background: a job a server or a terminal view starts, watches and
cancels, with its state as plain JSON.

:class:`AnalysisJob` wraps :func:`~.report.analyse_record` with the progress callback and the
stop flag it takes. :meth:`AnalysisJob.start` runs it in a daemon thread; :meth:`AnalysisJob.run`
runs it in the calling thread, for a caller that has its own worker (a process pool, Textual's
workers). The analysis is pure Python and holds the interpreter lock while it computes, so a
server that must stay quick under many analyses should run jobs in another process:
:func:`run_in_child` is such a process's body (it lives here, not with the server, so that
starting the process imports the analysis alone, not the web server's modules).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ..engine.errors import SpiteMaliceError
from ..engine.record import GameRecord
from ..i18n import set_default_language
from .judge import AnalysisCancelled, Settings
from .report import DEFAULT_SETTINGS, Report, analyse_record

WAITING = "waiting"
RUNNING = "running"
DONE = "done"
CANCELLED = "cancelled"
FAILED = "failed"


class AnalysisJob:
    """One seat of one record being analysed; safe to watch and cancel from other threads."""

    def __init__(
        self,
        record: GameRecord,
        seat: int,
        settings: Settings = DEFAULT_SETTINGS,
        *,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.record = record
        self.seat = seat
        self.settings = settings
        self.on_progress = on_progress
        """Called from the job's thread with (decisions done, decisions in all)."""
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._finished = threading.Event()
        self._thread: threading.Thread | None = None
        self._state = WAITING
        self._done = 0
        self._total = 0
        self._report: Report | None = None
        self._error = ""

    # ------------------------------------------------------------------ control

    def start(self) -> AnalysisJob:
        """Run the analysis in a daemon thread; returns the job."""
        with self._lock:
            if self._thread is not None or self._state != WAITING:
                raise RuntimeError("an analysis job runs once")
            self._thread = threading.Thread(target=self.run, name="analysis", daemon=True)
        self._thread.start()
        return self

    def run(self) -> None:
        """Run the analysis in the calling thread, until done, cancelled or failed."""
        with self._lock:
            if self._state != WAITING:
                raise RuntimeError("an analysis job runs once")
            self._state = RUNNING
        try:
            report = analyse_record(
                self.record,
                self.seat,
                settings=self.settings,
                progress=self._progress,
                should_stop=self._stop.is_set,
            )
        except AnalysisCancelled:
            self._finish(CANCELLED)
        except SpiteMaliceError as error:  # a record that does not replay, a bad seat
            self._finish(FAILED, error=str(error))
        except Exception as error:  # never leave a watcher waiting on a dead thread
            self._finish(FAILED, error=f"the analysis failed: {type(error).__name__}")
            raise
        else:
            self._finish(DONE, report=report)

    def cancel(self) -> None:
        """Ask the analysis to stop at its next sample (at once if it has not started)."""
        self._stop.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the job is done, cancelled or failed; whether it is."""
        return self._finished.wait(timeout)

    # ------------------------------------------------------------------ watching

    @property
    def state(self) -> str:
        """``waiting``, ``running``, ``done``, ``cancelled`` or ``failed``."""
        return self._state

    @property
    def progress(self) -> tuple[int, int]:
        """(decisions done, decisions in all); (0, 0) until the record has been read."""
        with self._lock:
            return self._done, self._total

    @property
    def report(self) -> Report | None:
        """The report once the job is done, else None."""
        return self._report

    @property
    def error(self) -> str:
        """Why the job failed, in a sentence ("" unless it failed)."""
        return self._error

    def status(self) -> dict[str, Any]:
        """The job's state as JSON-ready data; the report's JSON is included once done."""
        done, total = self.progress
        data: dict[str, Any] = {"state": self._state, "done": done, "total": total}
        if self._error:
            data["error"] = self._error
        if self._report is not None:
            data["report"] = self._report.to_json()
        return data

    # ------------------------------------------------------------------ internals

    def _progress(self, done: int, total: int) -> None:
        with self._lock:
            self._done, self._total = done, total
        if self.on_progress is not None:
            self.on_progress(done, total)

    def _finish(self, state: str, *, report: Report | None = None, error: str = "") -> None:
        with self._lock:
            self._report = report
            self._error = error
            self._state = state
        self._finished.set()


def run_in_child(
    record: dict[str, Any], seat: int, settings: dict[str, Any], out: Any, language: str = "en"
) -> None:
    """The body of a child process that analyses one seat of a record (its JSON) with
    ``settings`` (their JSON), its words in ``language``: it puts ``("progress", done,
    total)`` on the queue ``out`` as it goes, then ``("done", report JSON)`` or ``("failed",
    why)``."""
    set_default_language(language)
    try:
        job = AnalysisJob(
            GameRecord.from_json(record),
            seat,
            Settings.from_json(settings),
            on_progress=lambda done, total: out.put(("progress", done, total)),
        )
        job.run()
        status = job.status()
    except Exception as error:  # a child must always answer
        out.put(("failed", f"{type(error).__name__}: {error}"))
        return
    if status["state"] == "done":
        out.put(("done", status["report"]))
    else:
        out.put(("failed", status.get("error", status["state"])))
