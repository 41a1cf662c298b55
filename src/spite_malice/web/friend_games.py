"""A friend room's own requests: the rematch (offer, accept, decline), the friend's join,
and the claim of a game whose friend has been away too long (``web-protocol.md`` 4.2)."""

from __future__ import annotations

import contextlib
import time
from dataclasses import replace
from typing import Protocol

from ..engine.rules import Rules
from ..i18n import _
from ..store import MatchHeader, StoreUnavailable
from ..table import Seat, Table, TableMeta
from . import limits
from .broadcast import Broadcaster
from .match_log import MatchLog
from .notifications import Notices
from .presence import Presence, claim_seconds, minutes
from .room_common import FRIEND_MODE, Peer, RoomError, hash_token, new_token, store_unavailable
from .room_steps import StepPipeline


class FriendRoom(Protocol):
    """What a friend room's requests read and change of the room."""

    code: str
    header: MatchHeader
    table: Table
    log: MatchLog
    steps: StepPipeline
    broadcaster: Broadcaster
    presence: Presence
    notices: Notices

    @property
    def mode(self) -> str: ...

    def is_full(self) -> bool: ...

    def away(self) -> list[float | None]: ...

    def opened(self, *, use: bool = True) -> contextlib.AbstractAsyncContextManager[None]: ...

    async def start_match(
        self,
        rules: Rules,
        level: str | None,
        seed: int | None,
        peer: Peer | None,
        reply_to: int | str | None,
    ) -> None: ...

    async def reload_seats(self) -> None: ...


class FriendGames:
    """The rematch, join and claim of one friend room (each under the room's lock)."""

    def __init__(self, room: FriendRoom) -> None:
        self.room = room

    def check_rematch(self) -> None:
        if self.room.mode != FRIEND_MODE:
            raise RoomError("invalid", _("A rematch is for games between friends: use new_match."))
        table = self.room.table
        if not table.match.is_over and table.status != "abandoned":
            raise RoomError("match_not_over", _("The match is not over yet."))

    async def rematch(self, peer: Peer, seat: int, reply_to: int | str | None) -> None:
        async with self.room.opened():
            await self.room.steps.catch_up()
            await self.offer_rematch(peer, seat, reply_to)

    async def offer_rematch(self, peer: Peer, seat: int, reply_to: int | str | None) -> None:
        """Offer a rematch, or accept the friend's offer: then the new match starts, with
        the same two players and rules (under the room's lock)."""
        self.check_rematch()
        meta = self.room.table.meta
        if meta.rematch == 1 - seat:
            await self.room.start_match(self.room.table.rules, None, None, peer, reply_to)
            self.room.notices.joined()  # a game over days: the new match's clock starts
            return
        if meta.rematch != seat:
            await self.save_meta(replace(meta, rematch=seat, declined=None))
            self.room.notices.rematch(seat)
        self.room.broadcaster.state("rematch", peer, reply_to)

    async def decline_rematch(self, peer: Peer, seat: int, reply_to: int | str | None) -> None:
        async with self.room.opened():
            await self.room.steps.catch_up()
            self.check_rematch()
            meta = self.room.table.meta
            if meta.rematch is None:
                raise RoomError("no_offer", _("Nobody has offered a rematch."))
            # declining the friend's offer, or taking back one's own
            declined = seat if meta.rematch != seat else None
            await self.save_meta(replace(meta, rematch=None, declined=declined))
            self.room.broadcaster.state("rematch", peer, reply_to)

    async def save_meta(self, meta: TableMeta) -> None:
        """Store the table's meta (a rematch offer); nothing changes when the store fails.
        Other instances hear of it through the fan-out and reload the room."""
        header = replace(self.room.header, meta=meta)
        try:
            await self.room.log.update_header(header)
        except StoreUnavailable:
            raise store_unavailable() from None
        self.room.table.meta, self.room.header = meta, header

    async def claim(self, peer: Peer, seat: int, reply_to: int | str | None) -> None:
        """Claim the game when the friend has been offline (no connection to any instance,
        as the store's presence rows say) for :func:`claim_seconds`."""
        async with self.room.opened():
            await self.room.steps.catch_up()
            step = self.room.table.check_claim(seat)  # friend rooms, a game being played
            if await self.room.notices.turn_based():
                raise RoomError(
                    "turn_based",
                    _(
                        "A game played over days is not claimed: it is lost when the time "
                        "for a move runs out."
                    ),
                )
            friend = 1 - seat
            try:
                await self.room.presence.read()
            except StoreUnavailable:
                raise store_unavailable() from None
            away = self.room.away()[friend]
            needed = claim_seconds()
            if away is None:
                raise RoomError(
                    "friend_online",
                    # TRANSLATORS: {needed} is a duration: "3 minutes", "20 seconds"
                    _(
                        "Your friend is connected, so the game cannot be claimed. A game can "
                        "be claimed once your friend has been offline for {needed}.",
                        needed=minutes(needed),
                    ),
                )
            if away < needed:
                raise RoomError(
                    "too_soon",
                    # TRANSLATORS: {away} and {needed} are durations: "3 minutes", "20 seconds"
                    _(
                        "Your friend has been offline for {away}. You can claim the game once "
                        "they have been offline for {needed}.",
                        away=minutes(away),
                        needed=minutes(needed),
                    ),
                )
            applied = await self.room.steps.commit(step)
            self.room.broadcaster.announce(applied, peer, reply_to)

    async def join(self, player: str, name: str) -> str:
        """Seat the friend in seat 1; return its token."""
        async with self.room.opened():
            await self.room.steps.catch_up()
            if self.room.mode != FRIEND_MODE:
                raise RoomError("not_a_friend_room", _("This is a game against the computer."))
            if self.room.is_full():
                raise RoomError("room_full", _("This room already has two players."))
            if limits.is_expired(self.room.header.created_at):
                raise RoomError("expired", _("This invitation has expired."))
            token = new_token()
            table = self.room.table
            before, names = table.meta, table.match.players
            table.take_seat(1, Seat("friend", name, player), hash_token(token))
            table.meta = replace(table.meta, joined_at=time.time())  # the claim clock's start
            header = replace(self.room.header, meta=table.meta)
            try:
                # only an empty seat is taken: a join through another process may have won
                claimed = await self.room.log.claim_seat(header, 1)
            except StoreUnavailable:
                table.meta, table.match.players = before, names
                raise store_unavailable() from None
            if not claimed:
                table.meta, table.match.players = before, names
                await self.room.reload_seats()
                raise RoomError("room_full", _("This room already has two players."))
            self.room.header = header
            self.room.broadcaster.state("joined", None, None)
            self.room.notices.joined()
            return token
