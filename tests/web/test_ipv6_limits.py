"""The limits count an IPv6 client by its /64 (``web-protocol.md`` 7): every address of one
/64 shares one budget (each had its own: 2**64 of them), other /64s keep theirs, and an
IPv4 address (or one mapped into IPv6) counts as itself."""

from __future__ import annotations

import asyncio

from spite_malice.web import limits
from spite_malice.web.transport import ConnectionGuard


def _scope(host: str) -> dict[str, object]:
    return {"type": "http", "client": (host, 50000)}


def test_guesses_from_one_ipv6_64_share_one_budget() -> None:
    lookups = limits.RateLimit(burst=5, per_minute=0, clock=lambda: 0.0)
    for n in range(5):  # five different addresses of one /64
        lookups.charge(limits.client_address(_scope(f"2001:db8:1:2::{n + 1:x}")))
    assert lookups.is_blocked(limits.client_address(_scope("2001:db8:1:2:ffff:ffff:ffff:ffff")))
    assert not lookups.is_blocked(limits.client_address(_scope("2001:db8:1:3::1")))
    assert not lookups.is_blocked(limits.client_address(_scope("192.0.2.1")))


def test_the_key_of_each_kind_of_address() -> None:
    assert limits.address_key("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"
    assert limits.address_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert limits.address_key("192.0.2.7") == "192.0.2.7"
    assert limits.address_key("testclient") == "testclient"


def test_connections_of_one_ipv6_64_share_one_cap() -> None:
    guard = ConnectionGuard(per_address=3)
    transports = [asyncio.Transport() for _ in range(5)]
    answers = [guard.admit(t, f"2001:db8::{n + 1}") for n, t in enumerate(transports)]
    assert answers[:3] == [None] * 3 and all(a is not None for a in answers[3:])
    assert guard.admit(asyncio.Transport(), "2001:db8:0:1::1") is None  # another /64
    guard.release(transports[0])
    assert guard.admit(asyncio.Transport(), "2001:db8::99") is None  # one place freed


def test_a_trusted_balancers_connections_are_not_counted_by_address() -> None:
    guard = ConnectionGuard(trusted=["127.0.0.1"], per_address=2)
    assert all(guard.admit(asyncio.Transport(), "127.0.0.1") is None for _ in range(10))
    assert guard.connections == 10


def test_past_the_total_a_new_connection_is_answered_503() -> None:
    guard = ConnectionGuard(per_address=100, total=3)
    assert all(guard.admit(asyncio.Transport(), f"192.0.2.{n}") is None for n in range(3))
    refusal = guard.admit(asyncio.Transport(), "192.0.2.99")
    assert refusal is not None and refusal.startswith(b"HTTP/1.1 503")
