"""The line above the key bar: what to do next, why a move is not allowed, or a hint."""

from __future__ import annotations

from typing import Literal

from rich.text import Text
from textual.widgets import Static

Tone = Literal["info", "error", "hint"]


class MessageLine(Static):
    """A single line of guidance; its tone (a CSS class) colours it."""

    def say(self, message: str | Text, tone: Tone = "info") -> None:
        for name in ("info", "error", "hint"):
            self.set_class(name == tone, f"-{name}")
        self.update(message)

    @property
    def tone(self) -> Tone:
        if self.has_class("-error"):
            return "error"
        return "hint" if self.has_class("-hint") else "info"
