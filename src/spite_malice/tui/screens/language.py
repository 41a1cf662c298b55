"""The language setting: every language the game speaks, each in its own name."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ...i18n import LANGUAGE_NAMES, LANGUAGES, N_, _
from ..language import translate_bindings


class LanguageScreen(ModalScreen[str | None]):
    """Pick a language by its number (or move with the arrows and press Enter); Esc keeps
    the current one. Dismissed with the language's code."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(str(i), f"choose({i - 1})", show=False) for i in range(1, len(LANGUAGES) + 1)],
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("enter", "start", N_("Choose")),
        Binding("escape,q,g", "cancel", N_("Keep this language")),
    ]

    def __init__(self, language: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.language = language if language in LANGUAGES else LANGUAGES[0]

    def compose(self) -> ComposeResult:
        with Vertical(id="language-box"):
            yield Static(id="language-text")

    def on_mount(self) -> None:
        self.query_one("#language-box").border_title = _("Language")
        self._show()

    def _show(self) -> None:
        text = Text()
        for number, code in enumerate(LANGUAGES, start=1):
            chosen = code == self.language
            text.append(
                f" {'>' if chosen else ' '} {number}  {LANGUAGE_NAMES[code]}\n",
                style="bold reverse" if chosen else "",
            )
        text.append("\n")
        text.append(_("A number or the arrows, then Enter. Esc: keep this language."), style="dim")
        self.query_one("#language-text", Static).update(text)

    def action_choose(self, index: int) -> None:
        self.dismiss(LANGUAGES[index])

    def action_move(self, delta: int) -> None:
        index = LANGUAGES.index(self.language)
        self.language = LANGUAGES[(index + delta) % len(LANGUAGES)]
        self._show()

    def action_start(self) -> None:
        self.dismiss(self.language)

    def action_cancel(self) -> None:
        self.dismiss(None)
