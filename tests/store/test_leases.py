"""Leases on a room's computer turns (issue 13), on SQLite and on PostgreSQL: one owner at a
time, renewed by its holder, taken over once it expires; and the lease taken together with
the head of the match's log, which is what a computer turn asks before it begins; and the
leases a group commit renews beside its steps."""

from __future__ import annotations

import time

import pytest

from spite_malice.bots import reference_move
from spite_malice.store import LeaseRenewal, MatchHeader, Store
from spite_malice.table import Step
from waiting import wait_for

from .test_store import Kept, new_kept


def test_a_lease_is_held_by_one_owner_until_it_expires(store: Store) -> None:
    assert store.acquire_lease("ROOM01", "a", 30)
    assert not store.acquire_lease("ROOM01", "b", 30)
    assert store.acquire_lease("ROOM01", "a", 30)  # renewed by its holder
    assert store.lease_owner("ROOM01") == "a"
    store.release_lease("ROOM01", "b")  # not b's to give back
    assert store.lease_owner("ROOM01") == "a"
    store.release_lease("ROOM01", "a")
    assert store.lease_owner("ROOM01") is None
    assert store.acquire_lease("ROOM01", "b", 0.01)
    # b's lease runs out
    wait_for(lambda: store.lease_owner("ROOM01") is None, 30, 0.01, "b's lease to run out")
    assert store.acquire_lease("ROOM01", "c", 30)  # so another takes the room over
    assert store.lease_owner("ROOM01") == "c"
    assert not store.acquire_lease("ROOM01", "b", 30)
    assert store.acquire_lease("ROOM02", "b", 30)  # leases are per room


def test_taking_a_lease_also_reads_the_head_of_the_log(store: Store) -> None:
    kept = new_kept(store, "m1", 5, room="ROOM01")
    assert store.take_lease("ROOM01", "a", 30, "m1") == (True, (1, 1))  # the deal only
    kept.move(3)
    assert store.head("m1") == (1, 4)
    assert store.take_lease("ROOM01", "b", 30, "m1") == (False, (1, 4))  # a holds it
    assert store.take_lease("ROOM01", "a", 30, "m1") == (True, (1, 4))
    assert store.lease_owner("ROOM01") == "a"
    assert store.take_lease("ROOM09", "b", 30, "unknown") == (True, (0, 0))


def test_a_lease_taken_with_the_head_is_taken_over_once_it_expires(store: Store) -> None:
    new_kept(store, "m2", 6, room="ROOM03")
    assert store.take_lease("ROOM03", "a", 0.01, "m2") == (True, (1, 1))
    wait_for(lambda: store.lease_owner("ROOM03") is None, 30, 0.01, "a's lease to run out")
    assert store.take_lease("ROOM03", "b", 30, "m2") == (True, (1, 1))  # a's ran out
    assert store.lease_owner("ROOM03") == "b"
    assert store.take_lease("ROOM03", "a", 30, "m2") == (False, (1, 1))
    store.release_lease("ROOM03", "b")
    assert store.take_lease("ROOM03", "a", 30, "m2") == (True, (1, 1))


def _next_step(kept: Kept) -> tuple[MatchHeader, Step]:
    """The next move of ``kept``'s game, applied to its table (to be stored by the test)."""
    game = kept.table.game
    step = kept.table.check_move(game.to_move, reference_move(game))
    kept.table.apply(step)
    return kept.header, step


@pytest.mark.parametrize("call", ["append_many", "append_many_now"])
def test_a_group_commit_renews_only_the_leases_their_owner_still_holds(
    store: Store, call: str
) -> None:
    """Through the store's statements (``append_many``) and, on a SQLite file, the driver's
    own calls on the event loop (``append_many_now``): the same leases renewed."""
    if call == "append_many_now" and not store.db.writes_now:
        pytest.skip("written at once on a SQLite file only")
    append_many = getattr(store, call)
    held, taken, expired = (new_kept(store, f"g{n}", 20 + n, room=f"ROOMG{n}") for n in range(3))
    assert store.acquire_lease("ROOMG0", "a", 0.5)
    first_lease_ends = time.monotonic() + 0.5
    assert store.acquire_lease("ROOMG1", "b", 30)
    assert store.acquire_lease("ROOMG2", "a", 0.01)
    wait_for(lambda: store.lease_owner("ROOMG2") is None, 30, 0.01, "a's lease on ROOMG2 to end")
    everyone = frozenset({"ROOMG0", "ROOMG1", "ROOMG2", "ROOMG9"})
    steps = [_next_step(kept) for kept in (held, taken, expired)]
    assert append_many(steps, LeaseRenewal("a", everyone, 30)) == {"ROOMG0"}
    assert [store.head(kept.header.id) for kept in (held, taken, expired)] == [(1, 2)] * 3
    # past the lease a took at first: renewed, it is a's still
    wait_for(lambda: time.monotonic() > first_lease_ends + 0.1, 30, 0.05, "the first lease's end")
    assert not store.acquire_lease("ROOMG0", "b", 30)
    assert store.lease_owner("ROOMG1") == "b"  # another owner's lease is not touched
    assert store.lease_owner("ROOMG2") is None  # nor one that had run out
    assert store.lease_owner("ROOMG9") is None  # nor made for a room with none
    # without a renewal asked for, none is renewed; an empty one renews nothing either
    assert append_many([_next_step(held)]) == frozenset()
    assert append_many([_next_step(held)], LeaseRenewal("a", frozenset(), 30)) == set()
    assert store.head(held.header.id) == (1, 4)
