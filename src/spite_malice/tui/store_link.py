"""The terminal game's matches and statistics in the project's store (the browser game's
database), written off the UI thread.

The terminal has its own local player in the store (made on first use), never named after
the operating-system user. Every change of a match is a step of the table; :meth:`save`
hands the steps not stored yet to a writer thread, which appends them to the move log in
order, so the screen never waits for the database. A write that failed is reported by the
next call (and by :meth:`flush`). On the next start the latest unfinished terminal match of
the player is resumed from its log.
"""

from __future__ import annotations

import queue
import secrets
import threading
from dataclasses import dataclass, replace

from ..engine.errors import SpiteMaliceError
from ..store import (
    PLAYING,
    MatchHeader,
    PlayerStats,
    Store,
    StoreError,
)
from ..table import Step, Table, TableMeta
from ..tutorial import Progress
from .session import GameSession

SOURCE = "terminal"
KIND = "computer"


@dataclass(frozen=True, slots=True)
class _Write:
    """Steps of one match to store, in order (``header`` is new when ``create``)."""

    header: MatchHeader
    steps: list[Step]
    create: bool


class StorePersistence:
    """Keeps the terminal game's matches in a :class:`~spite_malice.store.Store`."""

    def __init__(self, store: Store, player: str | None = None) -> None:
        self.store = store
        self.player = player or store.local_player(SOURCE).id
        """The player id the terminal's games count for."""
        self._headers: dict[int, MatchHeader] = {}
        """Header of each session stored (by the session's identity)."""
        self._writes: queue.Queue[_Write | None] = queue.Queue()
        self._failure: StoreError | None = None
        self._lock = threading.Lock()
        self._writer = threading.Thread(target=self._write_loop, name="spite-malice-save")
        self._writer.daemon = True
        self._writer.start()

    @classmethod
    def open(cls, url: str | None = None, player: str | None = None) -> StorePersistence:
        """Open the database at ``url`` (a URL or SQLite path; None: the shared default)."""
        return cls(Store.open(url), player)

    @property
    def description(self) -> str:
        return self.store.location

    # ------------------------------------------------------------------ reading

    def load_unfinished(self) -> GameSession | None:
        self.flush()
        for summary in self.store.matches(status=PLAYING, source=SOURCE, player=self.player):
            if summary.kind != KIND or not summary.level:
                continue
            stored = self.store.load_match(summary.id)
            if stored is None:
                continue
            header = stored.header
            try:
                table = Table.restore(header.rules, header.seed, header.meta, stored.steps)
            except SpiteMaliceError:
                continue  # a match this version cannot replay, or a level that is gone
            session = GameSession(table)
            session.match_id = header.id
            self._headers[id(session)] = header
            if table.is_game_over:  # a finished game awaiting the next deal
                if table.match.is_over:
                    continue
                session.next_game()
            return session
        return None

    def statistics(self) -> PlayerStats | None:
        self.flush()
        return self.store.stats(self.player)

    @property
    def _tutorial_key(self) -> str:
        """The settings row of the player's tutorial progress (one row of its own, so
        that other settings never overwrite it)."""
        return f"tutorial:{self.player}"

    def tutorial_progress(self) -> Progress:
        return Progress.from_json(self.store.settings(self._tutorial_key))

    def save_tutorial_progress(self, progress: Progress) -> None:
        self.store.save_settings(self._tutorial_key, progress.to_json())

    def language(self) -> str | None:
        """The ``language`` of the player's settings (the browser game keeps it there too)."""
        value = (self.store.settings(self.player) or {}).get("language")
        return value if isinstance(value, str) else None

    def save_language(self, language: str) -> None:
        """Set the player's ``language`` setting, keeping every other setting as it is."""
        data = dict(self.store.settings(self.player) or {})
        data["language"] = language
        self.store.save_settings(self.player, data)

    # ------------------------------------------------------------------ writing

    def save(self, session: GameSession) -> None:
        """Queue the session's new steps for the writer thread; raise the last failure."""
        self._raise_failure()
        steps = session.take_unsaved()
        header = self._headers.get(id(session))
        create = header is None
        if header is None:
            header = MatchHeader(
                id=f"{SOURCE}-{secrets.token_hex(8)}",
                rules=session.rules,
                meta=self._meta_of(session),
                seed=session.match.seed,
                source=SOURCE,
            )
            self._headers[id(session)] = header
            session.match_id = header.id
        if steps:
            self._writes.put(_Write(header, steps, create))

    def _meta_of(self, session: GameSession) -> TableMeta:
        meta = session.table.meta
        seats = (replace(meta.seats[0], player=self.player), meta.seats[1])
        session.table.meta = replace(meta, seats=seats)
        return session.table.meta

    def game_finished(self, session: GameSession) -> None:
        self.save(session)  # the finished game's rows go with its last move

    def abandon(self, session: GameSession) -> None:
        """The player starts a new match: the unfinished one is resigned (a lost game)."""
        table = session.table
        if table.is_game_over or id(session) not in self._headers:
            self.save(session)
            return
        session.resign()
        self.save(session)

    def flush(self) -> None:
        """Wait until every queued step is written; raise the last failure."""
        self._writes.join()
        self._raise_failure()

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self._writes.put(None)
            self._writer.join(timeout=30)
            self.store.close()

    def _raise_failure(self) -> None:
        with self._lock:
            failure, self._failure = self._failure, None
        if failure is not None:
            raise failure

    def _write_loop(self) -> None:
        while True:
            write = self._writes.get()
            try:
                if write is None:
                    return
                self._write(write)
            except StoreError as error:
                with self._lock:
                    self._failure = error
            finally:
                self._writes.task_done()

    def _write(self, write: _Write) -> None:
        steps = list(write.steps)
        if write.create:
            self.store.create_match(write.header, steps.pop(0))
        for step in steps:
            self.store.append(write.header, step)
