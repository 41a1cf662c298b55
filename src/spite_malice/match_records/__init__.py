"""What the table layer and the store both hold of a match: its :class:`Step` (one row of
the move log), its :class:`TableMeta` and its :class:`Seat` objects. Below both layers, so
that the store needs nothing of the table (it imports the engine only)."""

from __future__ import annotations

from .meta import TableMeta
from .seats import COMPUTER, FRIEND, PERSON, Seat
from .steps import ABORT, CLAIM, DEAL, HINT, MOVE, RESIGN, UNDO, Step

__all__ = [
    "ABORT",
    "CLAIM",
    "COMPUTER",
    "DEAL",
    "FRIEND",
    "HINT",
    "MOVE",
    "PERSON",
    "RESIGN",
    "UNDO",
    "Seat",
    "Step",
    "TableMeta",
]
