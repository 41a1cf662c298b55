"""The widgets of the terminal game's table."""

from __future__ import annotations

from .message_line import MessageLine
from .move_log import MoveLog
from .pile import PileView
from .status_bar import StatusBar

__all__ = ["MessageLine", "MoveLog", "PileView", "StatusBar"]
