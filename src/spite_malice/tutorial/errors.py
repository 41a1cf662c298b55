"""The tutorial's one error, a :class:`~spite_malice.engine.errors.SpiteMaliceError`."""

from __future__ import annotations

from ..engine.errors import SpiteMaliceError


class TutorialError(SpiteMaliceError, ValueError):
    """A lesson that does not exist, moves that do not replay in a lesson, or a deal that
    names more cards than the decks hold."""
