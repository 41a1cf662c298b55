"""What the page's worker calls in Pyodide: JSON text in, JSON text out (no proxies).

One :class:`Bridge` holds the worker's open offline rooms (``docs/offline.md``).
"""

from __future__ import annotations

import json
from typing import Any

from ..table import TableError
from .session import OfflineSession, make_rules


class Bridge:
    """The worker's offline rooms, by room code."""

    def __init__(self) -> None:
        self.sessions: dict[str, OfflineSession] = {}

    def create(self, options: str) -> str:
        """A new match: ``options`` is ``{"level", "rules", "preset", "name", "seed"}``;
        answers ``{"ticket", "record"}`` or ``{"error": {"code", "message"}}``."""
        data: dict[str, Any] = json.loads(options)
        try:
            session = OfflineSession.new(
                level=str(data.get("level") or "medium"),
                rules=make_rules(data.get("rules"), data.get("preset")),
                name=str(data.get("name") or "Player"),
                seed=data.get("seed") if type(data.get("seed")) is int else None,
            )
        except TableError as error:
            return json.dumps({"error": {"code": error.code, "message": error.message}})
        self.sessions[session.room] = session
        return json.dumps({"ticket": session.ticket(), "record": session.record()})

    def restore(self, room: str, record: str) -> None:
        """Open the saved match of ``room`` (unless it is open already)."""
        if room not in self.sessions:
            self.sessions[room] = OfflineSession.restore(room, json.loads(record))

    def is_open(self, room: str) -> bool:
        return room in self.sessions

    def hello(self, room: str, language: str | None) -> str:
        return json.dumps(self.sessions[room].hello(language))

    def handle(self, room: str, message: str) -> str:
        return json.dumps(self.sessions[room].handle(json.loads(message)))

    def give_up(self, room: str) -> str:
        """Give up the match of ``room`` (the lobby's give-up): ``{"messages"}`` for its open
        connections, or ``{"error": {"code", "message"}}``."""
        try:
            state = self.sessions[room].give_up()
        except TableError as error:
            return json.dumps({"error": {"code": error.code, "message": error.message}})
        return json.dumps({"messages": [state]})

    def computer_to_move(self, room: str) -> bool:
        return self.sessions[room].computer_to_move

    def computer_move(self, room: str) -> str:
        return json.dumps(self.sessions[room].computer_move())

    def lesson(self, key: str, body: str, language: str | None) -> str:
        """A tutorial lesson's answer (``POST /api/tutorial/lessons/<key>``)."""
        from ..i18n import use_language
        from ..tutorial.answers import lesson_answer

        data: dict[str, Any] = json.loads(body)
        moves = [str(m) for m in data.get("moves") or []]
        move = data.get("move")
        with use_language(language):
            return json.dumps(lesson_answer(key, moves, move if isinstance(move, str) else None))

    def think_times(self, level: str, decisions: int) -> str:
        """The computer's decision times here (``benchmarks/offline_timing.py``)."""
        from .timing import think_times

        return json.dumps(think_times(level, decisions))

    def record(self, room: str) -> str:
        return json.dumps(self.sessions[room].record())
