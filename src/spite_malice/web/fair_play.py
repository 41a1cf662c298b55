"""Bans from play between strangers for players who often abandon or stall rated games
(``docs/deploying.md`` "Fair play"; lichess's playban is the model).

A rated match ended badly counts against the player who ended it so: aborting it
(``abort``), letting the move clock run out (``timeout``), or leaving it until the opponent
claimed it (``left``). :data:`BAD_LIMIT` such matches within :data:`BAD_WINDOW` earn a ban
from the pools: :data:`FIRST_BAN` long, each further ban within :data:`BAN_MEMORY` of an
earlier one :data:`ESCALATION` times the last, up to :data:`LONGEST_BAN`. The matches
counted for one ban are not counted again for the next. Games against the computer and
friends never count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol, TypeVar

from ..i18n import _
from ..store import Store
from ..store import pairing as stored
from ..store.schema import utcnow
from .presence import minutes
from .room_common import RoomError

T = TypeVar("T")


class BanHost(Protocol):
    """What bans need of the server instance (its lobby)."""

    store: Store

    async def run(self, function: Callable[..., T], *args: Any) -> T: ...


BAD_OUTCOMES = ("abort", "timeout", "left")
BAD_LIMIT = 3
"""Bad endings within :data:`BAD_WINDOW` that earn a ban."""
BAD_WINDOW = timedelta(hours=24)
FIRST_BAN = timedelta(minutes=10)
ESCALATION = 3
"""Each further ban within :data:`BAN_MEMORY` lasts this many times the one before."""
BAN_MEMORY = timedelta(days=7)
LONGEST_BAN = timedelta(hours=24)


def ban_length(
    outcomes: Sequence[datetime], bans: Sequence[tuple[datetime, datetime]]
) -> timedelta | None:
    """The ban earned by a player with these bad endings (within :data:`BAD_WINDOW`) and
    bans (started within :data:`BAN_MEMORY`), both oldest first; None when none is."""
    counted = [at for at in outcomes if not bans or at > bans[-1][0]]
    if len(counted) < BAD_LIMIT:
        return None
    length: timedelta = FIRST_BAN * ESCALATION ** len(bans)
    return min(length, LONGEST_BAN)


def duration(left: timedelta) -> str:
    """'2 hours', '5 minutes': how long a ban has left, in the player's language."""
    from ..i18n import ngettext

    seconds = left.total_seconds()
    if seconds >= 5400:
        count = round(seconds / 3600)
        return ngettext("{n} hour", "{n} hours", count)
    return minutes(max(60.0, seconds))


class FairPlay:
    """What the pools and the stranger games of one instance ask about bans."""

    def __init__(self, lobby: BanHost, now: Callable[[], datetime] = utcnow) -> None:
        self.lobby = lobby
        self.now = now

    async def check_not_banned(self, player: str) -> None:
        """RoomError ``banned`` (saying for how long) while ``player`` is banned."""
        now = self.now()
        until = await self.lobby.run(stored.banned_until, self.lobby.store, player, now)
        if until is not None:
            raise RoomError(
                "banned",
                # TRANSLATORS: {left} is a duration: "10 minutes", "2 hours"
                _(
                    "You left or stalled too many games against other players lately, so you "
                    "cannot play strangers for {left}. You can still play the computer and "
                    "your friends.",
                    left=duration(until - now),
                ),
            )

    async def note(self, player: str | None, match_id: str, outcome: str) -> timedelta | None:
        """Count a rated match ``player`` ended badly; the ban it earned, if any."""
        assert outcome in BAD_OUTCOMES
        if player is None:
            return None
        return await self.lobby.run(self._note, player, match_id, outcome)

    def _note(self, player: str, match_id: str, outcome: str) -> timedelta | None:
        store = self.lobby.store
        if not stored.record_outcome(store, player, match_id, outcome, self.now()):
            return None
        now = self.now()
        outcomes = [at for _, at in stored.outcomes_since(store, player, now - BAD_WINDOW)]
        bans = stored.bans_since(store, player, now - BAN_MEMORY)
        length = ban_length(outcomes, bans)
        if length is not None:
            stored.add_ban(store, player, now, now + length)
        return length
