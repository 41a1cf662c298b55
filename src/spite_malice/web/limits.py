"""What a client may send, and how often (``web-protocol.md`` section 7).

Everything a client sends is bounded before it is read: HTTP bodies (:class:`BodyLimit`, a
middleware that refuses an oversized body with 413 from its ``Content-Length`` or as soon as
the streamed bytes pass the limit), WebSocket frames (:data:`MAX_FRAME`), the rules options
(:func:`check_rules`, the bounds ``/api/config`` publishes), the wrong guesses at tokens and
invitation codes and the players and rooms a client makes (:class:`RateLimit`, a token
bucket per client address, or per player, one for each), the new matches and replays of a
player (:func:`per_player`), the game sockets open per address and per player
(:class:`SocketCount`), and the invitations one player may leave open
(:data:`OPEN_INVITATIONS`). Addresses count as :func:`address_key` says (IPv6 by /64). The
connections and headers are bounded below the application (``transport``).
"""

from __future__ import annotations

import ipaddress
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..engine.rules import Rules
from ..i18n import N_, _, negotiate, ngettext, use_language
from ..table import TableError

MAX_BODY = 64 * 1024
"""Bytes an HTTP request body may have; a longer one gets 413 ``too_large``."""
MAX_FRAME = 64 * 1024
"""Characters a WebSocket text frame may have; a longer one gets an ``error`` ``too_large``
(``spite-malice serve`` also sets uvicorn's ``ws_max_size`` to this, which closes the
connection with 1009 before the frame is even read)."""
HELLO_SECONDS = 10.0
"""Seconds a new WebSocket has to send its ``hello`` before it is closed."""

LOOKUP_BURST = 20
"""Wrong room codes or tokens (and refused joins) a client address may try at once; for
invitation codes, one player. Only wrong ones count: a right token is always served."""
LOOKUP_PER_MINUTE = 20
"""Such tries a client regains per minute after a burst."""
JOIN_ADDRESS_BURST = 100
"""Wrong invitation codes one address may try at once, all its players together (a class
of 30 behind one address: one pupil's guesses leave the others' joins alone)."""
JOIN_ADDRESS_PER_MINUTE = 60
"""Such tries an address regains per minute."""
MAKE_BURST = 30
"""New players, and apart from them new rooms, a client address may make at once: a class
of 30 opening the game behind one address at the same moment still gets in."""
MAKE_PER_MINUTE = 6
"""Such creations a client address regains per minute after a burst: a match takes
minutes, so nobody playing makes more; a room stays in memory for its idle time (10
minutes), so one address holds at most 30 + 60 rooms there, where it could make thousands."""
MAKE_LIMIT_ENV = "SPITE_MALICE_MAKE_LIMIT"
"""An environment variable that sets another creation limit, ``BURST/PER_MINUTE`` (``60/30``),
or ``off`` for none (a load benchmark whose games all come from one address)."""
OPEN_INVITATIONS = 20
"""Friend rooms nobody has joined yet that one player may have; the next one is refused."""
INVITATION_DAYS = 7
"""An invitation (a friend room whose seat 1 is empty) is dropped after this many days."""
INVITATION_TTL = timedelta(days=INVITATION_DAYS)

RULE_LIMITS: dict[str, tuple[int, int]] = {
    "payoff_size": (5, 30),
    "decks": (2, 3),
    "center_stacks": (3, 4),
    "match_target": (1, 500),
}
"""The bounds of the whole-number rules options (``/api/config`` publishes them)."""


def utcnow() -> datetime:
    """Now, in UTC (one function, so the tests can move the clock)."""
    return datetime.now(UTC)


def is_expired(created_at: datetime | None, now: datetime | None = None) -> bool:
    """Whether an invitation made at ``created_at`` is older than :data:`INVITATION_TTL`."""
    if created_at is None:
        return False
    if created_at.tzinfo is None:
        created_at = created_at.replace(tzinfo=UTC)
    return (now or utcnow()) - created_at > INVITATION_TTL


def check_rules(rules: Rules) -> Rules:
    """``rules`` when every option is within :data:`RULE_LIMITS`; else a ``TableError``."""
    values = rules.as_dict()
    for name, (low, high) in RULE_LIMITS.items():
        value = values.get(name)
        if isinstance(value, int) and not low <= value <= high:
            raise TableError(
                "invalid",
                # TRANSLATORS: {name} is the option's name in the rules (payoff_size ...)
                _(
                    "The rules option {name} must be {low} to {high}.",
                    name=name,
                    low=low,
                    high=high,
                ),
            )
    return rules


# ----------------------------------------------------------------- guesses and creations


class RateLimit:
    """A token bucket per client address: ``burst`` tries at once, then ``per_minute``.

    For tokens and codes a try is a wrong guess: right codes and tokens cost nothing and
    are always served (reconnecting is free); a wrong one with nothing left gets 429 (a
    join, whose code is its only secret, before it is looked up). For new players and rooms
    (:func:`make_limit`), new matches and replays every one is a try.

    ``clock`` gives seconds (monotonic); the tests pass their own."""

    def __init__(
        self,
        burst: int = LOOKUP_BURST,
        per_minute: float = LOOKUP_PER_MINUTE,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = 10_000,
    ) -> None:
        self.burst = burst
        self.rate = per_minute / 60.0
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: dict[str, tuple[float, float]] = {}

    def _tokens(self, client: str, now: float) -> float:
        tokens, then = self._buckets.get(client, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - then) * self.rate)

    def is_blocked(self, client: str) -> bool:
        """Whether ``client`` has no look-up left (answer 429 without looking)."""
        return self._tokens(client, self.clock()) < 1.0

    def charge(self, client: str) -> None:
        """Take one try from ``client``: a wrong room code or token, a refused join, a new
        player or room."""
        now = self.clock()
        tokens = self._tokens(client, now)
        if client not in self._buckets and len(self._buckets) >= self.max_clients:
            self._forget_full(now)
        self._buckets[client] = (max(0.0, tokens - 1.0), now)

    def _forget_full(self, now: float) -> None:
        """Drop the clients whose buckets have filled up again (memory stays bounded)."""
        for client, (tokens, then) in list(self._buckets.items()):
            if tokens + (now - then) * self.rate >= self.burst:
                del self._buckets[client]
        while len(self._buckets) >= self.max_clients:
            del self._buckets[next(iter(self._buckets))]

    def retry_after(self, client: str) -> int:
        """Whole seconds until ``client`` has a look-up again."""
        tokens = self._tokens(client, self.clock())
        return max(1, int((1.0 - tokens) / self.rate) + 1) if self.rate > 0 else 60


TOO_MANY = N_("Too many attempts with room codes from this address; wait a minute and try again.")
"""Marked only: say it with ``_(TOO_MANY)``."""
TOO_MANY_PLAYERS = N_("Too many new players from this address; wait a minute and try again.")
TOO_MANY_ROOMS = N_("Too many new games from this address; wait a minute and try again.")


CONFIRM_BURST = 3
"""Confirmation e-mails (``POST /api/email``) one player, or one address, may be sent at once."""
CONFIRM_PER_HOUR = 3
"""Then this many an hour: an address cannot be flooded, nor the server's mail made a weapon."""
TOO_MANY_CONFIRMATIONS = N_(
    "Too many confirmation e-mails were asked for; wait an hour and try again."
)


class ConfirmationLimits:
    """The limits on confirmation e-mails (one instance's count): per player and per address
    (lower case), each :data:`CONFIRM_BURST` at once then :data:`CONFIRM_PER_HOUR` an hour."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.players = RateLimit(CONFIRM_BURST, CONFIRM_PER_HOUR / 60.0, clock)
        self.addresses = RateLimit(CONFIRM_BURST, CONFIRM_PER_HOUR / 60.0, clock)

    def refused(self, player: str, address: str) -> int | None:
        """Charge one e-mail to ``player`` and ``address``; when either has none left, charge
        nothing and return the seconds to wait (``Retry-After``)."""
        keys = ((self.players, player), (self.addresses, address.lower()))
        waits = [limit.retry_after(key) for limit, key in keys if limit.is_blocked(key)]
        if waits:
            return max(waits)
        for limit, key in keys:
            limit.charge(key)
        return None


def too_many_invitations() -> str:
    """Why a player with :data:`OPEN_INVITATIONS` open invitations may not make another, and
    what to do, in the current language."""
    waiting = ngettext(
        "You already have {n} invitation that nobody has joined yet.",
        "You already have {n} invitations that nobody has joined yet.",
        OPEN_INVITATIONS,
    )
    # TRANSLATORS: {n} is the number of days an invitation waits for a friend (7)
    advice = ngettext(
        "Send one of them to a friend before you make another: an invitation nobody joins "
        "is dropped after {n} day.",
        "Send one of them to a friend before you make another: an invitation nobody joins "
        "is dropped after {n} days.",
        INVITATION_DAYS,
    )
    return f"{waiting} {advice}"


def make_limit(environ: dict[str, str] | None = None) -> RateLimit | None:
    """The limit on players (or rooms) one client address makes: :data:`MAKE_BURST` and
    :data:`MAKE_PER_MINUTE`, or what :data:`MAKE_LIMIT_ENV` says (None for ``off``).

    A value that cannot be read keeps the default rather than lifting the limit."""
    value = (os.environ if environ is None else environ).get(MAKE_LIMIT_ENV, "").strip()
    if value.lower() == "off":
        return None
    burst, _slash, rate = value.partition("/")
    try:
        numbers = (int(burst), float(rate))
    except ValueError:
        numbers = (MAKE_BURST, MAKE_PER_MINUTE)
    if numbers[0] < 1 or not numbers[1] >= 0:
        numbers = (MAKE_BURST, MAKE_PER_MINUTE)
    return RateLimit(burst=numbers[0], per_minute=numbers[1])


IPV6_PREFIX = 64
"""An IPv6 client counts by its /64 network: one home or phone gets a whole /64 and may
choose any of its 2**64 addresses, so a budget per exact address would be no limit."""


def address_key(host: str) -> str:
    """What the limits count ``host`` as: an IPv4 address itself (an IPv4-mapped IPv6 one
    too), an IPv6 address by its /64 (``2001:db8:1:2::/64``), anything else as written."""
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/{IPV6_PREFIX}", strict=False))
    return str(address)


def client_address(scope: Scope) -> str:
    """The peer's address as the limits count it (:func:`address_key`): the connection's
    own, or the one a trusted balancer forwarded (``serve --trusted-proxies``)."""
    client = scope.get("client")
    return address_key(str(client[0])) if client else "unknown"


NEW_MATCH_BURST = 10
"""New matches (``new_match``, rematch offers too) one player may start at once."""
NEW_MATCH_PER_MINUTE = 6
"""Such new matches a player regains per minute: each is a match in the store (and, in
the middle of one, a lost game); a socket sent 115 a second."""
REPLAY_BURST = 20
"""Replays (of a stored game or a sent record) one player may ask for at once."""
REPLAY_PER_MINUTE = 20
"""Such replays a player regains per minute."""
TOO_MANY_NEW_MATCHES = N_("Too many new matches at once; wait a minute and start the next one.")
TOO_MANY_REPLAYS = N_("Too many replays at once; wait a minute and open the next one.")


def per_player(state: Any, name: str, burst: int, per_minute: float) -> RateLimit:
    """The rate limit ``name`` of ``app.state`` (made on first use), counted by player."""
    found: RateLimit | None = getattr(state, name, None)
    if found is None:
        found = RateLimit(burst=burst, per_minute=per_minute)
        setattr(state, name, found)
    return found


# ----------------------------------------------------------------- game sockets

SOCKETS_PER_ADDRESS = 128
"""Game sockets one client address may have open at once (a class of 30 behind one
address, each with a few tabs, stays within it)."""
SOCKETS_PER_PLAYER = 8
"""Game sockets one player may have open at once, all their rooms together (a page holds
one; a few more tabs or a reconnect still racing the old socket's close fit)."""
TOO_MANY_SOCKETS_ADDRESS = N_(
    "Too many game connections from this address at once; close some and try again."
)
TOO_MANY_SOCKETS_PLAYER = N_(
    "You have too many game connections open at once; close the game's other tabs and try again."
)


class SocketCount:
    """Open game sockets counted by key (an address, a player): :meth:`take` a place,
    :meth:`give_back` it when the socket closes."""

    def __init__(self) -> None:
        self._open: dict[str, int] = {}

    def take(self, key: str, limit: int) -> bool:
        """Count one more socket of ``key``; False (nothing counted) when it has ``limit``."""
        held = self._open.get(key, 0)
        if held >= limit:
            return False
        self._open[key] = held + 1
        return True

    def give_back(self, key: str) -> None:
        held = self._open.get(key, 0) - 1
        if held > 0:
            self._open[key] = held
        else:
            self._open.pop(key, None)

    def held(self, key: str) -> int:
        return self._open.get(key, 0)


# ----------------------------------------------------------------- HTTP bodies


@dataclass
class _Reading:
    received: int = 0
    too_large: bool = False
    answered: bool = False


TOO_LARGE = N_("The request body is over the limit of {size} KB.")
"""Said with ``size``: the limit in KB."""


class BodyLimit:
    """ASGI middleware: HTTP bodies over ``limit`` bytes get 413 before being read.

    A ``Content-Length`` over the limit is refused at once; a streamed body is counted and
    cut off (the application sees a disconnect) as soon as it passes the limit."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    length = self.limit + 1
                if length > self.limit:
                    await _refuse(scope, send)
                    return
        reading = _Reading()

        async def limited_receive() -> Message:
            if reading.too_large:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                reading.received += len(message.get("body", b""))
                if reading.received > self.limit:
                    reading.too_large = True
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            if reading.too_large:
                return  # the application's answer to a cut-off body is replaced by 413
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except Exception:
            if not reading.too_large:
                raise
        if reading.too_large:
            await _refuse(scope, send)


async def _refuse(scope: Scope, send: Send) -> None:
    # this layer runs before the language middleware: it reads the request's language itself
    headers = dict(scope.get("headers", ()))
    asked = headers.get(b"accept-language", b"").decode("latin-1")
    with use_language(negotiate(asked)):
        message = _(TOO_LARGE, size=MAX_BODY // 1024)
    body = json.dumps({"error": {"code": "too_large", "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


__all__ = [
    "HELLO_SECONDS",
    "INVITATION_DAYS",
    "INVITATION_TTL",
    "JOIN_ADDRESS_BURST",
    "JOIN_ADDRESS_PER_MINUTE",
    "LOOKUP_BURST",
    "LOOKUP_PER_MINUTE",
    "MAKE_BURST",
    "MAKE_LIMIT_ENV",
    "MAKE_PER_MINUTE",
    "MAX_BODY",
    "MAX_FRAME",
    "NEW_MATCH_BURST",
    "NEW_MATCH_PER_MINUTE",
    "OPEN_INVITATIONS",
    "REPLAY_BURST",
    "REPLAY_PER_MINUTE",
    "RULE_LIMITS",
    "SOCKETS_PER_ADDRESS",
    "SOCKETS_PER_PLAYER",
    "TOO_MANY",
    "TOO_MANY_NEW_MATCHES",
    "TOO_MANY_PLAYERS",
    "TOO_MANY_REPLAYS",
    "TOO_MANY_ROOMS",
    "TOO_MANY_SOCKETS_ADDRESS",
    "TOO_MANY_SOCKETS_PLAYER",
    "BodyLimit",
    "RateLimit",
    "SocketCount",
    "address_key",
    "check_rules",
    "client_address",
    "is_expired",
    "make_limit",
    "per_player",
    "too_many_invitations",
    "utcnow",
]
