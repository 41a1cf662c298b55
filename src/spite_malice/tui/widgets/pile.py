"""One place on the table: a pay-off pile, a side stack, a center stack, a hand card, the stock.

A pile shows a few lines of card chips inside a titled border. The title shows the key that
picks the pile (as a key cap) and names the place; the subtitle gives a count. When there
are more lines than room, the top of the pile (its last lines) stays visible and the first
line says how many are hidden, so a long side stack stays readable on a small terminal.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget

from ...i18n import _
from ..card_text import DIM

KEY_STYLE = "bold reverse"
"""How the key that picks a pile shows in its title, like a key cap."""


class PileView(Widget):
    """A place on the table that can be picked with its key, a mouse click, or the cursor
    (the arrow keys or Tab move it; Enter or Space picks)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "activate", show=False)]

    class Picked(Message):
        """The player clicked this pile."""

        def __init__(self, pile_id: str) -> None:
            self.pile_id = pile_id
            super().__init__()

    def __init__(
        self, pile_id: str, title: str, *, key: str | None = None, interactive: bool = True
    ) -> None:
        super().__init__(id=pile_id, classes="pile")
        self.pile_id = pile_id
        self.interactive = interactive
        self.key = key
        self.can_focus = interactive
        heading = Text()
        if key is not None:
            heading.append(f" {key} " if not title else key, style=KEY_STYLE)
        if title:
            heading.append(f" {title}" if key is not None else title)
        self.border_title = heading
        self._lines: list[Text] = []
        if not interactive:
            self.add_class("-passive")

    def show(self, lines: list[Text], subtitle: str = "") -> None:
        """Replace what the pile shows; ``lines`` run bottom card first, top card last."""
        self._lines = lines
        self.border_subtitle = Text(subtitle)
        self.refresh()

    @property
    def lines(self) -> list[Text]:
        return self._lines

    def render(self) -> Text:
        room = self.content_size.height
        lines = self._lines
        if room and len(lines) > room:
            hidden = len(lines) - room + 1
            more = Text(_("+{n} below", n=hidden), style=DIM)
            lines = [more, *lines[-(room - 1) :]] if room > 1 else []
        return Text("\n").join(lines)

    def action_activate(self) -> None:
        if self.interactive:
            self.post_message(self.Picked(self.pile_id))

    def on_click(self, event: events.Click) -> None:
        if self.interactive:
            event.stop()
            self.post_message(self.Picked(self.pile_id))
