"""A seat is claimed only while it is empty (``Store.claim_seat``): of two stores writing a
friend into seat 1 of one match, the first gets it and the second is told it was taken
(nothing written), on SQLite and on PostgreSQL. ``update_header`` wrote unconditionally:
the last writer won and the first, already answered, lost its seat."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from spite_malice.store import MatchHeader, Store
from spite_malice.table import FRIEND, PERSON, Seat, Table

from .test_store import QUICK


def _invitation(store: Store) -> tuple[MatchHeader, Table]:
    table = Table.new(QUICK, (Seat(PERSON, "alice", "alice"), Seat(FRIEND)), seed=3)
    header = MatchHeader("inv1", QUICK, table.meta, seed=3, room="INVITE", source="web")
    deal = table.check_deal()
    return store.create_match(header, deal), table


def _joined(header: MatchHeader, table: Table, name: str) -> MatchHeader:
    table.take_seat(1, Seat(FRIEND, name, name), f"hash-{name}")
    return replace(header, meta=table.meta)


def test_only_an_empty_seat_is_claimed(open_store: Callable[[], Store]) -> None:
    first, second = open_store(), open_store()
    header, table = _invitation(first)
    stored = second.load_match(header.id)
    assert stored is not None
    other = Table.new(QUICK, stored.header.meta.seats, seed=3)
    other.meta = stored.header.meta
    assert first.claim_seat(_joined(header, table, "bob"), 1)
    assert not second.claim_seat(_joined(stored.header, other, "carol"), 1)
    kept = first.load_match(header.id)
    assert kept is not None
    assert kept.header.meta.tokens[1] == "hash-bob"
    assert kept.header.players[1] == "bob"
