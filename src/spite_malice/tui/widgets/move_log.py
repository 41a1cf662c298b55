"""The move log: every public event of the current game, in the player's language, newest last."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog

from ...i18n import _


class MoveLog(RichLog):
    """A scrolling log of events; :meth:`replace` rewrites it (after an undo or a new game)."""

    def __init__(self, *, id: str | None = None, focusable: bool = True) -> None:
        super().__init__(id=id, wrap=True, markup=False, auto_scroll=True, min_width=20)
        self.can_focus = focusable
        self.border_title = _("Moves")
        self.entries: list[Text] = []

    def add(self, line: Text) -> None:
        self.entries.append(line)
        self.write(line)

    def replace(self, lines: list[Text]) -> None:
        self.clear()
        self.entries = []
        for line in lines:
            self.add(line)
