"""The terminal's replay program: ``spite-malice replay`` opens one game's replay screen."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import App
from textual.binding import Binding

from ..i18n import from_environment
from ..replay import Frame
from .card_text import ascii_key
from .language import apply_language
from .screens.replay import ReplayScreen


class ReplayApp(App[None]):
    """A game's replay, full screen in the terminal (the table's own stylesheet)."""

    CSS_PATH = "app.tcss"
    TITLE = "Spite & Malice"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        frames: Sequence[Frame],
        players: tuple[str, str],
        *,
        seat: int = 0,
        ascii_only: bool = False,
    ) -> None:
        super().__init__()
        self.frames = list(frames)
        self.players = players
        self.seat = seat
        self.ascii_only = ascii_only
        if ascii_only:
            self.add_class("-ascii")

    def get_key_display(self, binding: Binding) -> str:
        """The key bar's name of a key; with ``--ascii`` in ASCII (``right``, not an arrow)."""
        display = super().get_key_display(binding)
        if not self.ascii_only:
            return display
        return ascii_key(display, binding.key.split(",")[0])

    def on_mount(self) -> None:
        apply_language(from_environment())  # the replay has no player settings: the locale's
        self.push_screen(
            ReplayScreen(self.frames, self.players, seat=self.seat, ascii_only=self.ascii_only)
        )
