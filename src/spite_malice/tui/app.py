"""The terminal game's application: it opens a match (resumed or new) on the table screen."""

from __future__ import annotations

from textual.app import App

from .persistence import NoPersistence, Persistence
from .screens import GameScreen, TableSettings
from .session import GameSession, MatchSetup


class SpiteMaliceApp(App[None]):
    """Spite & Malice against the computer, full screen in the terminal."""

    CSS_PATH = "app.tcss"
    TITLE = "Spite & Malice"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        setup: MatchSetup | None = None,
        *,
        settings: TableSettings | None = None,
        persistence: Persistence | None = None,
        resume: bool = True,
    ) -> None:
        super().__init__()
        self.setup = setup or MatchSetup()
        self.settings = settings or TableSettings()
        self.persistence: Persistence = persistence or NoPersistence()
        self.resume = resume
        if self.settings.ascii_only:
            self.add_class("-ascii")

    def on_mount(self) -> None:
        session = self.persistence.load_unfinished()
        if session is not None and not self.resume:
            self.persistence.abandon(session)  # a new match was asked for: give this one up
            session = None
        if session is None:
            session = GameSession.new(self.setup)
        self.push_screen(GameScreen(session, self.settings, self.persistence))

    @property
    def game_screen(self) -> GameScreen:
        """The table (under any help or result box); its ``session`` is the match played."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        raise LookupError("the table is not open")

    def on_unmount(self) -> None:
        self.persistence.close()
