"""Analysis in the page (issue 14 item 3): "where did I lose" for a finished game, run in the
background (``docs/web-protocol.md`` 2.8).

- ``POST /api/games/<id>/analysis``: start the analysis of the player's own seat in one of
  its finished games (or answer the one already started): ``202`` with its status.
- ``GET /api/games/<id>/analysis``: its status: ``waiting`` (with ``ahead``: analyses before
  it), ``running`` (``done`` and ``total`` decisions), ``done`` (with ``report``, the JSON of
  ``docs/analysis.md``) or ``failed`` (``error``, a sentence).

The analysis never blocks play: one :class:`AnalysisService` per server runs one analysis at
a time, each in a child process of its own (the analysis is pure Python and would hold the
interpreter lock in a thread, slowing every game on the server), fed from a bounded queue
that is fair between players: each has at most one analysis waiting or running (asking for
another meanwhile gets ``429 analysis_running``), so one player cannot fill it; when it is
full all the same (:data:`MAX_WAITING` players waiting) a new request gets ``503 busy``.
Reports are kept in memory (the latest :data:`KEPT` asked for), and a game asked again is
answered from its report, never analysed twice. The analysis reads the record only through
the seat's observations (``spite_malice.analysis``), never the hidden cards.
"""

from __future__ import annotations

import logging
import multiprocessing
import queue
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..analysis import Settings
from ..analysis.background import run_in_child
from ..analysis.report import DEFAULT_SETTINGS
from ..engine.record import GameRecord
from ..i18n import N_, _, current_language, use_language
from ..store.history import game_record
from ..table.table import RESIGNED
from .errors import error_response
from .replays import UNKNOWN_GAME
from .requests import current_player, lobby_of

log = logging.getLogger(__name__)
router = APIRouter(prefix="/api")

WAITING, RUNNING, DONE, FAILED = "waiting", "running", "done", "failed"
MAX_WAITING = 32
"""Analyses a server keeps waiting behind the running one (one a player); more are refused
(503)."""
KEPT = 1024
"""Analyses (finished or not) a server remembers, the least recently asked for dropped
first (a report is tens of kilobytes)."""
BUSY = N_("The server is analysing other games just now: try again in a minute.")
ONE_AT_A_TIME = N_(
    "Your analysis of another game is not finished yet: wait for it, then ask for this one."
)
FAILED_TEXT = N_("This game could not be analysed.")
"""Marked only: a task keeps it as it is, :meth:`AnalysisTask.status` says it (``_``)."""
POLL_SECONDS = 0.25

Key = tuple[int, int]
"""(game id, seat)."""


class Busy(Exception):
    """The queue of analyses is full."""


class AlreadyAnalysing(Exception):
    """The player already has an analysis waiting or running (of another game)."""


@dataclass(slots=True)
class AnalysisTask:
    """One seat of one game being analysed, as the page sees it."""

    key: Key
    record: GameRecord
    seat: int
    state: str = WAITING
    done: int = 0
    total: int = 0
    report: dict[str, Any] | None = None
    error: str = ""
    finished: threading.Event = field(default_factory=threading.Event)
    language: str = "en"
    """The language the report is written in: the one of the request that asked for it
    (a report is made once; a player asking again in another language gets the same)."""
    owner: str | None = None
    """The player who asked (one analysis a player at a time); None: nobody in particular."""

    def status(self, ahead: int = 0) -> dict[str, Any]:
        data: dict[str, Any] = {"state": self.state, "done": self.done, "total": self.total}
        if self.state == WAITING:
            data["ahead"] = ahead
        if self.error:
            data["error"] = _(self.error)
        if self.report is not None:
            data["report"] = self.report
        return data


class AnalysisService:
    """One analysis at a time, each in a child process, from a bounded queue."""

    def __init__(self, settings: Settings = DEFAULT_SETTINGS, *, use_process: bool = True) -> None:
        self.settings = settings
        self.use_process = use_process
        self._tasks: OrderedDict[Key, AnalysisTask] = OrderedDict()
        self._queue: list[AnalysisTask] = []
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._closed = False
        self._worker: threading.Thread | None = None
        self.running: AnalysisTask | None = None

    # ------------------------------------------------------------------ asking

    def submit(
        self, key: Key, record: GameRecord, seat: int, owner: str | None = None
    ) -> AnalysisTask:
        """The task of ``key``: the one already known, or a new one queued for ``owner``;
        :class:`AlreadyAnalysing` when ``owner`` has another one waiting or running,
        :class:`Busy` when the queue is full."""
        with self._lock:
            task = self._tasks.get(key)
            if task is not None and task.state != FAILED:
                self._tasks.move_to_end(key)
                return task
            if owner is not None and any(
                waiting.owner == owner
                for waiting in (*self._queue, self.running)
                if waiting is not None
            ):
                raise AlreadyAnalysing
            if len(self._queue) >= MAX_WAITING:
                raise Busy
            task = AnalysisTask(key, record, seat, language=current_language(), owner=owner)
            self._tasks[key] = task
            while len(self._tasks) > KEPT:
                oldest = next(iter(self._tasks))
                if self._tasks[oldest].state in (WAITING, RUNNING):
                    break
                del self._tasks[oldest]
            self._queue.append(task)
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="analyses", daemon=True)
                self._worker.start()
            self._wake.notify()
            return task

    def status(self, key: Key) -> dict[str, Any] | None:
        with self._lock:
            task = self._tasks.get(key)
            if task is None:
                return None
            self._tasks.move_to_end(key)  # the least recently asked for is dropped first
            ahead = 0
            if task in self._queue:  # those before it, and the one running
                ahead = self._queue.index(task) + (self.running is not None)
            return task.status(ahead)

    def close(self) -> None:
        """Stop: the running analysis is stopped, waiting ones are dropped."""
        with self._lock:
            self._closed = True
            self._queue.clear()
            self._wake.notify()

    # ------------------------------------------------------------------ the worker

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._queue and not self._closed:
                    self._wake.wait()
                if self._closed:
                    return
                task = self._queue.pop(0)
                self.running = task
                task.state = RUNNING
            try:
                if self.use_process:
                    self._run_in_process(task)
                else:
                    self._run_here(task)
            except Exception:
                log.exception("analysis of game %s failed", task.key[0])
                self._finish(task, error=FAILED_TEXT)
            with self._lock:
                self.running = None

    def _progress(self, task: AnalysisTask, done: int, total: int) -> None:
        with self._lock:
            task.done, task.total = done, total

    def _finish(
        self, task: AnalysisTask, *, report: dict[str, Any] | None = None, error: str = ""
    ) -> None:
        with self._lock:
            task.report = report
            task.error = error
            task.state = DONE if report is not None else FAILED
        task.finished.set()

    def _run_here(self, task: AnalysisTask) -> None:
        from ..analysis import analyse_record

        with use_language(task.language):
            report = analyse_record(
                task.record,
                task.seat,
                settings=self.settings,
                progress=lambda done, total: self._progress(task, done, total),
            )
        self._finish(task, report=report.to_json())

    def _run_in_process(self, task: AnalysisTask) -> None:
        context = multiprocessing.get_context("spawn")
        out: Any = context.Queue()
        child = context.Process(
            target=run_in_child,  # in the analysis package: the child imports no web module
            args=(task.record.to_json(), task.seat, self.settings.to_json(), out, task.language),
            name="spite-malice-analysis",
            daemon=True,
        )
        child.start()
        try:
            while True:
                try:
                    message = out.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    if self._closed:
                        self._finish(task, error=FAILED_TEXT)
                        return
                    if child.is_alive():
                        continue
                    # The child may have put its last message and ended between the wait
                    # above and this look: what it put is in the pipe once it has ended.
                    try:
                        message = out.get(timeout=POLL_SECONDS)
                    except queue.Empty:
                        self._finish(task, error=FAILED_TEXT)
                        return
                if message[0] == "progress":
                    self._progress(task, message[1], message[2])
                elif message[0] == "done":
                    self._finish(task, report=message[1])
                    return
                else:
                    log.warning("analysis of game %s failed: %s", task.key[0], message[1])
                    self._finish(task, error=FAILED_TEXT)
                    return
        finally:
            if child.is_alive():
                child.terminate()
            child.join(timeout=5)
            out.close()


def service(request: Request) -> AnalysisService:
    """The server's analysis service (made on first use, with ``app.state``'s settings)."""
    state = request.app.state
    found: AnalysisService | None = getattr(state, "analyses", None)
    if found is None:
        settings = getattr(state, "analysis_settings", DEFAULT_SETTINGS)
        found = AnalysisService(settings)
        state.analyses = found
    return found


def analysable(record: GameRecord) -> GameRecord:
    """The record the analysis reads: a resigned game's stops where it stood (its moves do
    not give its result)."""
    if record.result is not None and record.result.reason == RESIGNED:
        return replace(record, result=None)
    return record


async def _own(request: Request, game_id: int) -> tuple[GameRecord, int] | None:
    player = await current_player(request)
    if not 0 < game_id < 2**31:
        return None
    lobby = lobby_of(request)
    return await lobby.run(game_record, lobby.store, player.id, game_id)


@router.post("/games/{game_id}/analysis", status_code=202, response_model=None)
async def start_analysis(request: Request, game_id: int) -> dict[str, Any] | JSONResponse:
    found = await _own(request, game_id)
    if found is None:
        return error_response(404, "unknown_game", _(UNKNOWN_GAME))
    record, seat = found
    analyses = service(request)
    player = await current_player(request)
    try:
        analyses.submit((game_id, seat), analysable(record), seat, owner=player.id)
    except AlreadyAnalysing:
        return error_response(429, "analysis_running", _(ONE_AT_A_TIME), {"Retry-After": "30"})
    except Busy:
        return error_response(503, "busy", _(BUSY), {"Retry-After": "60"})
    status = analyses.status((game_id, seat))
    assert status is not None
    return status


@router.get("/games/{game_id}/analysis", response_model=None)
async def analysis_status(request: Request, game_id: int) -> dict[str, Any] | JSONResponse:
    found = await _own(request, game_id)
    if found is None:
        return error_response(404, "unknown_game", _(UNKNOWN_GAME))
    status = service(request).status((game_id, found[1]))
    if status is None:
        return error_response(
            404, "no_analysis", _("This game has not been analysed: ask for its analysis first.")
        )
    return status


__all__ = ["AlreadyAnalysing", "AnalysisService", "AnalysisTask", "Busy", "router", "service"]
