"""Where the terminal game keeps matches and statistics.

The game talks to storage only through :class:`Persistence`, so it runs with no database at
all (:class:`NoPersistence`) and with the project's store (:mod:`.store_link`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ..i18n import _
from ..tutorial import Progress
from .session import GameSession

if TYPE_CHECKING:
    from ..store import PlayerStats


class Persistence(Protocol):
    """What the terminal game needs from storage."""

    @property
    def description(self) -> str:
        """Where things are kept, for the player: ``~/.local/share/…/games.db``."""
        ...

    def load_unfinished(self) -> GameSession | None:
        """The player's unfinished match, to go on with, or None."""
        ...

    def save(self, session: GameSession) -> None:
        """Keep the match as it stands now (called after each turn); the store's errors
        (:class:`~spite_malice.store.StoreError`) say that it could not."""
        ...

    def game_finished(self, session: GameSession) -> None:
        """The current game has just ended: record it in the player's statistics."""
        ...

    def abandon(self, session: GameSession) -> None:
        """The player starts a new match: the unfinished one is no longer offered."""
        ...

    def statistics(self) -> PlayerStats | None:
        """The player's statistics per level (None when nothing is kept)."""
        ...

    def tutorial_progress(self) -> Progress:
        """The player's progress in the tutorial (no progress when nothing is kept)."""
        ...

    def save_tutorial_progress(self, progress: Progress) -> None:
        """Keep the tutorial progress (a lesson finished, the tutorial offered)."""
        ...

    def language(self) -> str | None:
        """The language the player chose in the terminal's settings, or None (the locale's)."""
        ...

    def save_language(self, language: str) -> None:
        """Keep the player's language with the player's other settings."""
        ...

    def close(self) -> None: ...


class NoPersistence:
    """Storage that keeps nothing: for tests and for ``--no-db``. Tutorial progress lasts
    as long as the program; the tutorial counts as offered, so that a start without a
    store never interrupts with the offer."""

    @property
    def description(self) -> str:
        return _("nowhere (statistics are not kept)")

    def __init__(self) -> None:
        self.progress = Progress(offered=True)
        self.chosen_language: str | None = None

    def language(self) -> str | None:
        return self.chosen_language

    def save_language(self, language: str) -> None:
        self.chosen_language = language

    def tutorial_progress(self) -> Progress:
        return self.progress

    def save_tutorial_progress(self, progress: Progress) -> None:
        self.progress = progress

    def load_unfinished(self) -> GameSession | None:
        return None

    def save(self, session: GameSession) -> None:
        return None

    def game_finished(self, session: GameSession) -> None:
        return None

    def abandon(self, session: GameSession) -> None:
        return None

    def statistics(self) -> PlayerStats | None:
        return None

    def close(self) -> None:
        return None
