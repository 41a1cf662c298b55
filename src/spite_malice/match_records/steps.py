"""Steps: the changes a table goes through, one per row of the store's move log.

A step is numbered by its game (from 1) and its ply in that game's log (the deal is ply 0,
then every move, undo, hint, resignation and claim in order), so (match, game, ply) identifies it
and two processes writing the same ply conflict instead of forking the match.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.record import GameRecord

DEAL, MOVE, UNDO, HINT, RESIGN = "deal", "move", "undo", "hint", "resign"
CLAIM = "claim"
"""A friend claiming the game when the other seat has been offline too long: the absent
seat's match ends as if it had resigned (``web-protocol.md`` 4.2 ``claim``)."""
ABORT = "abort"
"""A game between strangers called off before both players moved (``web-protocol.md``
3.9): the match ends without a result, so it is neither counted nor rated."""
KINDS = (DEAL, MOVE, UNDO, HINT, RESIGN, CLAIM, ABORT)


@dataclass(frozen=True, slots=True)
class Step:
    """One change of a table. ``seed`` is a deal's seed: secret, kept by the server only."""

    kind: str
    game: int
    ply: int
    seat: int | None = None
    move: str | None = None
    seed: int | None = None
    finished: GameRecord | None = field(default=None, compare=False)
    """The record of the game this step ends (a last move or a resignation), for statistics."""
    assisted: bool = field(default=False, compare=False)
    """Whether that finished game counts as assisted (undo or a hint was used in it)."""
    match_winner: int | None = field(default=None, compare=False)
    """The match's winner when this step ends the match."""

    def to_json(self) -> dict[str, Any]:
        """The step as the log keeps it (its seed included: never send this to a client)."""
        return {
            "kind": self.kind,
            "game": self.game,
            "ply": self.ply,
            "seat": self.seat,
            "move": self.move,
            "seed": self.seed,
        }
