"""The move clock of a game between strangers: a time per turn, counted from the moment this
instance saw the turn begin (``web-protocol.md`` 4.1 ``strangers.clock``); a room loaded
again (a restart, another instance taking it over) counts the turn it finds from its match's
last stored step, not afresh.

The clock reads the time through ``now`` (``time.time`` unless a test gives its own), and
holds nothing but the turn it counts and when that turn began: the room asks it after
every step (:meth:`MoveClock.observe`) and when it runs out (:meth:`MoveClock.expired`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..table import Table

TURN_SECONDS = {"standard": 90.0, "quick": 60.0}
"""The time for one turn (every play of it, up to the discard that ends it) per pool."""
DEAL_SECONDS = 30.0
"""Between two games of a match: the next game is dealt by the server after this long if
neither player asked for it."""


class MoveClock:
    """The clock of one stranger room."""

    def __init__(
        self,
        per_turn: float,
        now: Callable[[], float] = time.time,
        since: float | None = None,
    ) -> None:
        self.per_turn = per_turn
        self.now = now
        self.turn: tuple[int, int, bool] | None = None
        """(game number, turns ended in it, game over) of the turn being counted."""
        self.started = now()
        self.since = since
        """When the match's last step was stored (seconds since the epoch), for a room loaded
        from the store: the first turn observed is counted from then (never from later than
        now), so that a reload does not give the player to move a whole new turn."""

    def observe(self, table: Table) -> None:
        """Start counting again when a new turn (or the pause between games) began."""
        turn = (table.game_number, table.turns, table.is_game_over)
        if turn != self.turn:
            now = self.now()
            if self.turn is None and self.since is not None:
                now = min(now, self.since)
            self.turn, self.started, self.since = turn, now, None

    def limit(self, table: Table) -> float:
        return DEAL_SECONDS if table.is_game_over else self.per_turn

    def left(self, table: Table) -> float:
        """Seconds left of the turn (or of the pause between games)."""
        self.observe(table)
        return max(0.0, self.started + self.limit(table) - self.now())

    def expired(self, table: Table) -> bool:
        return self.left(table) <= 0
