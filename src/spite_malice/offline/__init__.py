"""Offline play: the same engine, bots and table layer run inside the browser (Pyodide in a
Web Worker), speaking the game WebSocket's messages (``docs/web-protocol.md`` 4), and the
checks the server makes of a match played that way when it is sent back (``docs/offline.md``).

This package uses only the engine, the bots, the table layer and the translations: it must
import in Pyodide, where the web server's libraries (FastAPI, pydantic) are absent.
:mod:`.build` (run on the server's side by ``make setup``) makes what the page loads.
"""

from __future__ import annotations

from .record import (
    FORMAT,
    OFFERED_LEVELS,
    RecordRefused,
    Replayed,
    replay_record,
)
from .session import OfflineSession

__all__ = [
    "FORMAT",
    "OFFERED_LEVELS",
    "OfflineSession",
    "RecordRefused",
    "Replayed",
    "replay_record",
]
