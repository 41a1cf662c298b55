"""The terminal game's application: it opens a match (resumed or new) on the table screen."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding

from ..store import StoreError
from .card_text import ascii_key
from .language import apply_language, choose_language
from .persistence import NoPersistence, Persistence
from .screens import GameScreen, TableSettings
from .screens.tutorial import TutorialOfferScreen
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
        offer_tutorial: bool = False,
        fresh: bool = False,
    ) -> None:
        super().__init__()
        self.setup = setup or MatchSetup()
        self.settings = settings or TableSettings()
        self.persistence: Persistence = persistence or NoPersistence()
        self.resume = resume
        self.offer_tutorial = offer_tutorial
        """Offer the tutorial at the first start (``spite-malice play`` does; tests need not)."""
        self.language = "en"
        """The language the terminal speaks (chosen at the start, changed in the settings)."""
        self.fresh = fresh
        """Start ``setup``'s match and leave any unfinished one as it is (the daily deal)."""
        if self.settings.ascii_only:
            self.add_class("-ascii")

    def get_key_display(self, binding: Binding) -> str:
        """The key bar's name of a key; with ``--ascii`` in ASCII (``right``, not an arrow)."""
        display = super().get_key_display(binding)
        if not self.settings.ascii_only:
            return display
        return ascii_key(display, binding.key.split(",")[0])

    def on_mount(self) -> None:
        # the language before the first screen: the player's setting, else the locale's
        self.language = apply_language(choose_language(self.persistence))
        session = None if self.fresh else self.persistence.load_unfinished()
        if session is not None and not self.resume:
            self.persistence.abandon(session)  # a new match was asked for: give this one up
            session = None
        if session is None:
            session = GameSession.new(self.setup)
        screen = GameScreen(session, self.settings, self.persistence)
        self.push_screen(screen)
        if self.offer_tutorial:
            self._offer_tutorial(screen)

    def _offer_tutorial(self, screen: GameScreen) -> None:
        """At the first start (the store has not offered it yet), offer the tutorial once."""
        try:
            progress = self.persistence.tutorial_progress()
            if progress.offered:
                return
            self.persistence.save_tutorial_progress(progress.with_offered())
        except StoreError:
            return  # the store is down: the game says so when it saves; no offer now

        def chosen(take: bool | None) -> None:
            if take:
                screen.action_tutorial()

        self.push_screen(TutorialOfferScreen(), chosen)

    @property
    def game_screen(self) -> GameScreen:
        """The table (under any help or result box); its ``session`` is the match played."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        raise LookupError("the table is not open")

    def on_unmount(self) -> None:
        self.persistence.close()
