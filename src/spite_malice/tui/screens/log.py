"""The whole move log of the current game, on a screen of its own."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen

from ...i18n import N_, _
from ..language import translate_bindings
from ..widgets import MoveLog


class LogScreen(ModalScreen[None]):
    """The move log, large; any of Esc, l or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,l,q", "dismiss", N_("Close"))]

    def __init__(self, lines: list[Text]) -> None:
        super().__init__()
        translate_bindings(self)
        self._lines = lines

    def compose(self) -> ComposeResult:
        yield MoveLog(id="full-log")

    def on_mount(self) -> None:
        log = self.query_one(MoveLog)
        log.border_title = _("Moves of this game (Esc closes)")
        log.replace(self._lines)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
