"""The terminal game's games and statistics in the project's store, the browser game's database.

The person is counted under the store's player id (by default the operating-system user, as
the web server does), so their statistics are the same wherever they play. Every turn the
match is saved; on the next start the latest unfinished terminal match of the player is
resumed.
"""

from __future__ import annotations

import secrets

from ..store import PLAYING, PlayerStats, SavedMatch, Store, StoreError, default_player
from .session import HUMAN, GameSession

SOURCE = "terminal"
KIND = "computer"


class StorePersistence:
    """Keeps the terminal game's matches in a :class:`~spite_malice.store.Store`."""

    def __init__(self, store: Store, player: str | None = None) -> None:
        self.store = store
        self.player = player or default_player()
        self._saved: SavedMatch | None = None

    @classmethod
    def open(cls, url: str | None = None, player: str | None = None) -> StorePersistence:
        """Open the database at ``url`` (a URL or SQLite path; None: the shared default)."""
        return cls(Store.open(url), player)

    @property
    def description(self) -> str:
        return self.store.location

    def load_unfinished(self) -> GameSession | None:
        for summary in self.store.matches(status=PLAYING, source=SOURCE, player=self.player):
            if summary.kind != KIND or not summary.level:
                continue
            try:
                saved = self.store.load_match(summary.id)
                if saved is None or saved.match.is_over or saved.match.game is None:
                    continue
                assisted = saved.assisted
                if saved.match.game.is_over:  # a finished game awaiting the next deal
                    saved.match.book()
                    if saved.match.is_over:
                        continue
                    saved.match.next_game()
                    assisted = False
                name = str(saved.meta.get("name", "You"))
                session = GameSession.resume(saved.match, saved.level or "", player=name)
            except (StoreError, ValueError):
                continue  # a match this version cannot replay, or a level that is gone
            if assisted:
                session.mark_assisted()
            self._saved = saved
            return session
        return None

    def _saved_for(self, session: GameSession) -> SavedMatch:
        saved = self._saved
        if saved is None or saved.match is not session.match:
            saved = SavedMatch(
                id=f"{SOURCE}-{secrets.token_hex(8)}",
                match=session.match,
                kind=KIND,
                level=session.level,
                players=(self.player, None),
                source=SOURCE,
                meta={"name": session.player},
            )
            self._saved = saved
        return saved

    def save(self, session: GameSession) -> None:
        saved = self._saved_for(session)
        saved.assisted = session.is_assisted
        self.store.save_match(saved)

    def game_finished(self, session: GameSession) -> None:
        self.save(session)  # the store books the finished game with its assisted mark

    def abandon(self, session: GameSession) -> None:
        saved = self._saved
        if saved is not None and saved.match is session.match and saved.status == PLAYING:
            self.store.abandon_match(saved, by=HUMAN)

    def statistics(self) -> PlayerStats | None:
        return self.store.stats(self.player)

    def close(self) -> None:
        self.store.close()
