"""Notifications of a player's games while the player is away (``docs/deploying.md``,
"Notifications"; ``docs/browser.md``, "Notifications"): your turn, the game is over, a
rematch is offered, and (turn-based games) the reminder before the time for a move runs out.

Each room has its :class:`Notices`, which the broadcaster tells of every step it announces,
here or (following) stored by another instance; they hand each event to the lobby's
:class:`Notifier`, which sends it only when the player has no connection to the room on any
instance (the store's presence rows), and only after claiming the event's row in the store's
outbox: when two instances see one event, one claims it and sends it, the other does not.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..i18n import _, use_language
from ..store import MatchHeader, Store, StoreError
from ..store.notifications import VAPID_KEY, PushSubscription
from ..table import DEAL, MOVE, Applied, Table
from .presence import Presence
from .room_common import COMPUTER_MODE

if TYPE_CHECKING:  # imported when the push key is first wanted: pywebpush brings an HTTP
    # client stack that a server's start does not need (a tenth of a CPU-second)
    from ..notify import push

log = logging.getLogger(__name__)

SUBJECT_ENV = "SPITE_MALICE_PUSH_SUBJECT"
"""The contact named in every notification's VAPID claims (``mailto:`` or ``https:``)."""
DEFAULT_SUBJECT = "mailto:admin@localhost"

TURN, OVER, REMATCH, REMINDER = "turn", "over", "rematch", "reminder"
STARTED = "started"
"""The events a player is notified of (``started``: a turn-based pool paired the player,
``web/quick_match.py``)."""


class NotifiedRoom(Protocol):
    """What notifications read of a room."""

    code: str
    header: MatchHeader
    table: Table
    presence: Presence

    @property
    def mode(self) -> str: ...


class Host(Protocol):
    """What the notifier needs of its lobby."""

    store: Store
    instance: str

    async def run(self, function: Callable[..., Any], *args: Any) -> Any: ...


class Watcher(Protocol):
    """The turn-based games' clock, as the notices see it."""

    def observe(self, room: Any) -> None: ...

    async def game(self, room: str) -> object | None: ...


@dataclass(frozen=True)
class Event:
    """One event to tell a seat's player of."""

    room: str
    seat: int
    player: str
    kind: str
    key: str
    """Names the event across the cluster: the outbox row's key."""
    opponent: str


def words(event: Event, left: str | None = None) -> tuple[str, str]:
    """The title and text of ``event``'s notification, in the current language."""
    name = event.opponent
    if event.kind == TURN:
        return _("Your turn"), _("{name} has played. It is your turn.", name=name)
    if event.kind == OVER:
        return _("Game over"), _("Your game with {name} is over.", name=name)
    if event.kind == REMATCH:
        return _("Rematch"), _("{name} offers you a rematch.", name=name)
    if event.kind == STARTED:
        return _("Your game has started"), _(
            "Your game over days with {name} has started.", name=name
        )
    # TRANSLATORS: {left} is a duration: "1 day and 3 hours", "5 hours"
    return _("Your turn"), _(
        "Your move in the game with {name}: {left} left before the time runs out.",
        name=name,
        left=left or "",
    )


def payload(event: Event, left: str | None = None) -> dict[str, Any]:
    """What the service worker shows (``static/sw.js``): one notification per game, the
    game's tag replacing the last one, opening the game when clicked."""
    title, body = words(event, left)
    return {
        "title": title,
        "body": body,
        "tag": f"game-{event.room}",
        "url": f"/#/game/{event.room}",
        "room": event.room,
        "kind": event.kind,
    }


class Notifier:
    """The server's Web Push: its key (made on first start, kept in the store so every
    instance signs with it) and the sending of notifications, each in a task of its own."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.subject = os.environ.get(SUBJECT_ENV) or DEFAULT_SUBJECT
        self._keys: push.PushKeys | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._last: dict[str, asyncio.Task[None]] = {}
        """Each player's latest delivery: the next waits for it, so a game's notifications
        reach the browser in order (the last one shown is the last event)."""
        self.left: Callable[[NotifiedRoom], str | None] | None = None
        """The time left for a move, as words, for a reminder (turn-based games)."""

    async def keys(self) -> push.PushKeys:
        from ..notify import push

        if self._keys is None:
            pem = await self.host.run(
                self.host.store.notifications.server_key, VAPID_KEY, push.new_private_key
            )
            self._keys = push.PushKeys(pem, self.subject)
        return self._keys

    async def public_key(self) -> str:
        """The ``applicationServerKey`` the page subscribes with."""
        return (await self.keys()).public_key

    def start(self) -> None:
        """Make (or read) the server's key now, on the server's start."""
        self._spawn(self._first_key())

    async def _first_key(self) -> None:
        try:
            await self.keys()
        except StoreError as error:
            log.warning("the Web Push key could not be read: %s", error)

    def tell(self, room: NotifiedRoom, seat: int, kind: str, key: str) -> None:
        """Notify ``seat``'s player of an event of ``room`` (if away and subscribed)."""
        seats = room.table.meta.seats
        player = seats[seat].player
        if player is None or room.mode == COMPUTER_MODE or seats[seat].is_computer:
            return
        opponent = seats[1 - seat].name or ""
        event = Event(room.code, seat, player, kind, key, opponent)
        left = self.left(room) if kind == REMINDER and self.left is not None else None
        previous = self._last.get(player)
        task = self._spawn(self._after(previous, self._deliver(room, event, left)))
        self._last[player] = task
        task.add_done_callback(
            lambda done: self._last.pop(player, None) if self._last.get(player) is done else None
        )

    def _spawn(self, work: Any) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    @staticmethod
    async def _after(previous: asyncio.Task[None] | None, work: Any) -> None:
        if previous is not None:
            await asyncio.gather(previous, return_exceptions=True)
        await work

    async def _deliver(self, room: NotifiedRoom, event: Event, left: str | None) -> None:
        store = self.host.store
        try:
            if await self._on_page(room, event.seat):
                return
            subscriptions: list[PushSubscription] = await self.host.run(
                store.notifications.subscriptions, event.player
            )
            if not subscriptions:
                return
            claimed = await self.host.run(
                store.notifications.claim, event.key, event.player, event.kind, self.host.instance
            )
            if not claimed:  # another instance sends this one
                return
            keys = await self.keys()
            for subscription in subscriptions:
                await self._send(keys, subscription, event, left)
            await self.host.run(store.notifications.mark_sent, event.key)
        except StoreError as error:
            log.warning("a notification of room %s was not sent: %s", event.room, error)

    async def _on_page(self, room: NotifiedRoom, seat: int) -> bool:
        """Whether ``seat`` has a connection to the room here or on another instance (the
        store's presence rows, read again now)."""
        if room.presence.connected()[seat]:
            return True
        with contextlib.suppress(StoreError):
            await room.presence.read()
        return room.presence.connected()[seat]

    async def _send(
        self,
        keys: push.PushKeys,
        subscription: PushSubscription,
        event: Event,
        left: str | None,
    ) -> None:
        from ..notify import push

        with use_language(subscription.language):
            body = payload(event, left)
        try:
            await asyncio.to_thread(
                push.send,
                keys,
                subscription.endpoint,
                subscription.p256dh,
                subscription.auth,
                body,
            )
        except push.PushGone:
            gone = subscription.endpoint
            await self.host.run(self.host.store.notifications.forget_endpoint, gone)
        except push.PushFailed as error:
            log.warning("a notification of room %s was not sent: %s", event.room, error)

    async def idle(self) -> None:
        """Wait until every notification begun is sent (or given up)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        await self.idle()


class Notices:
    """The events of one room that its players are notified of."""

    def __init__(
        self, room: NotifiedRoom, notifier: Notifier | None, turns: Watcher | None = None
    ) -> None:
        self.room = room
        self.notifier = notifier
        self.turns = turns
        """The clock of turn-based games (``web/turn_based.py``), told of every step."""
        self._told: set[str] = set()
        """Events told here already (a room followed here sees each step once more)."""

    def _tell(self, seat: int, kind: str, key: str) -> None:
        if self.notifier is None or key in self._told:
            return
        if len(self._told) > 64:
            self._told.clear()
        self._told.add(key)
        self.notifier.tell(self.room, seat, kind, key)

    def applied(self, applied: Applied) -> None:
        """A step was applied to the table (here, or stored by another instance)."""
        room = self.room
        if self.turns is not None:
            self.turns.observe(room)
        if self.notifier is None or room.mode == COMPUTER_MODE:
            return
        table, match = room.table, room.header.id
        if table.is_game_over:
            for seat in (0, 1):
                self._tell(seat, OVER, f"{match}:{table.game_number}:over:{seat}")
            return
        step = applied.step
        if step.kind not in (MOVE, DEAL) or not table.is_dealt:
            return
        to_move = table.game.to_move
        if step.kind == DEAL or step.seat != to_move:  # the turn passed
            self._tell(to_move, TURN, f"{match}:{table.game_number}:{table.turns}:turn")

    def joined(self) -> None:
        """The friend took seat 1, or a rematch began: a game over days' clock starts."""
        if self.turns is not None:
            self.turns.observe(self.room)

    async def turn_based(self) -> bool:
        """Whether the room is a turn-based game (no claim after minutes away)."""
        return self.turns is not None and await self.turns.game(self.room.code) is not None

    def rematch(self, offered_by: int) -> None:
        """``offered_by`` offered a rematch: tell the other seat."""
        match = self.room.header.id
        self._tell(1 - offered_by, REMATCH, f"{match}:rematch:{offered_by}")

    def reminder(self, seat: int, turn: str) -> None:
        """80% of ``seat``'s time for its move (``turn`` names it) has passed."""
        self._tell(seat, REMINDER, f"{self.room.header.id}:{turn}:reminder")
