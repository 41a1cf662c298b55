"""Steps: the changes a table goes through, one per row of the store's move log.

:class:`Step` and the step kinds live in :mod:`spite_malice.match_records.steps` (the store
keeps them too); :class:`Applied`, what applying one did, is the table's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.events import Event
from ..engine.moves import Move
from ..match_records.steps import ABORT, CLAIM, DEAL, HINT, KINDS, MOVE, RESIGN, UNDO, Step


@dataclass(frozen=True, slots=True)
class Applied:
    """What applying a step did: the move played or taken back, and every event of it
    (full events: make them public per seat before showing them)."""

    step: Step
    move: Move | None = None
    events: list[Event] = field(default_factory=list)


__all__ = ["ABORT", "CLAIM", "DEAL", "HINT", "KINDS", "MOVE", "RESIGN", "UNDO", "Applied", "Step"]
