"""The store's records: a player, a match's header and log, a summary, a seat's presence,
the leases a group commit renews (frozen values, no database code)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from ..engine.rules import Rules
from ..match_records import Step, TableMeta
from .stats import (
    DAILY,
    FRIEND,
    PRACTICE,
)

PLAYING, FINISHED, ABANDONED = "playing", "finished", "abandoned"
COMPUTER = "computer"


@dataclass(frozen=True, slots=True)
class LeaseRenewal:
    """Computer-turn leases for a group commit to renew (:meth:`Store.append_many`): the
    ``rooms`` whose lease ``owner`` holds, for ``seconds`` from the commit."""

    owner: str
    rooms: frozenset[str]
    seconds: float

    def until(self, now: datetime) -> datetime:
        """When the renewed leases expire, for a commit at ``now``."""
        return lease_expiry(now, self.seconds)


def lease_expiry(now: datetime, seconds: float) -> datetime:
    """When a lease taken or renewed at ``now`` for ``seconds`` runs out."""
    return datetime.fromtimestamp(now.timestamp() + seconds, UTC)


@dataclass(frozen=True, slots=True)
class Player:
    """A player: its id (what statistics, settings and seats belong to) and display name."""

    id: str
    name: str
    source: str = "web"


@dataclass(frozen=True, slots=True)
class MatchHeader:
    """A stored match without its moves: who plays it, where, and the score so far."""

    id: str
    rules: Rules
    meta: TableMeta
    seed: int | None = None
    """The match's seed when its games derive from one: server-side only."""
    source: str = "web"
    room: str | None = None
    status: str = PLAYING
    score: tuple[int, int] = (0, 0)
    game_number: int = 0
    created_at: datetime | None = None
    updated_at: datetime | None = None

    @property
    def kind(self) -> str:
        return self.meta.kind

    @property
    def level(self) -> str | None:
        return self.meta.level

    @property
    def players(self) -> tuple[str | None, str | None]:
        """The player ids of the seats (None for the computer or an empty seat)."""
        return (self.meta.seats[0].player, self.meta.seats[1].player)

    @property
    def stats_level(self) -> str:
        """The level the games count under: the computer's level, or ``friend``; a match
        against the computer dealt from a seed the player chose is ``practice`` (counted
        apart, never in the total: its deals were known)."""
        if self.kind == COMPUTER:
            if self.meta.daily is not None:
                return DAILY  # the daily deal: known to everyone, counted on its own
            return PRACTICE if self.meta.practice else (self.level or COMPUTER)
        return FRIEND


@dataclass(slots=True)
class StoredMatch:
    """A match as the log holds it: its header and every step, in order."""

    header: MatchHeader
    steps: list[Step] = field(default_factory=list)

    @property
    def head(self) -> tuple[int, int]:
        """(game number, steps in that game) of the last step: the log's version."""
        if not self.steps:
            return (0, 0)
        last = self.steps[-1]
        return (last.game, last.ply + 1)


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A stored match without replaying it: enough for a list of games to resume."""

    id: str
    room: str | None
    source: str
    kind: str
    level: str | None
    players: tuple[str | None, str | None]
    names: tuple[str | None, str | None]
    status: str
    score: tuple[int, int]
    game_number: int
    updated_at: datetime
    pool: str | None = None
    """The quick-match pool of a rated match between strangers (``TableMeta.pool``)."""


@dataclass(frozen=True, slots=True)
class SeatPresence:
    """One instance's word on one seat of a web room: whether it holds a connection of it
    (``online``) and when it last saw one."""

    seat: int
    instance: str
    online: bool
    seen_at: datetime
