"""A quick-match wave's choice of pairs (web/pairing_waves.py): by rating, the gap widening
with every missed wave, never a player with itself or with someone blocked."""

from __future__ import annotations

from spite_malice.web.pairing_waves import (
    ANYONE_AFTER,
    FIRST_GAP,
    GAP_STEP,
    MAX_GAP,
    Candidate,
    accepted_gap,
    pair_wave,
)


def names(pairs: list[tuple[Candidate, Candidate]]) -> set[frozenset[str]]:
    return {frozenset((a.player, b.player)) for a, b in pairs}


def test_the_closest_ratings_are_paired_first() -> None:
    waiting = [
        Candidate("a", 1500),
        Candidate("b", 1530),
        Candidate("c", 1580),
        Candidate("d", 1590),
    ]
    pairs, passed = pair_wave(waiting)
    assert names(pairs) == {frozenset("cd"), frozenset("ab")}
    assert passed == []


def test_a_player_is_never_paired_with_itself_nor_twice() -> None:
    waiting = [Candidate("a", 1500), Candidate("a", 1500), Candidate("a", 1510)]
    pairs, passed = pair_wave(waiting)
    assert pairs == []
    assert [c.player for c in passed] == ["a"]
    many = [Candidate(str(i % 7), 1500 + i) for i in range(40)]
    pairs, passed = pair_wave(many)
    seen = [c.player for pair in pairs for c in pair]
    assert len(seen) == len(set(seen)) == 6 and len(passed) == 1


def test_blocked_players_are_not_paired() -> None:
    waiting = [Candidate("a", 1500), Candidate("b", 1500), Candidate("c", 1550)]
    blocked = {frozenset("ab")}
    pairs, passed = pair_wave(waiting, lambda x, y: frozenset((x, y)) in blocked)
    assert names(pairs) in ({frozenset("ac")}, {frozenset("bc")})
    assert len(passed) == 1


def test_the_gap_widens_with_each_missed_wave_and_both_must_accept() -> None:
    assert accepted_gap(0) == FIRST_GAP
    assert accepted_gap(2) == FIRST_GAP + 2 * GAP_STEP
    assert accepted_gap(ANYONE_AFTER - 1) <= MAX_GAP
    assert accepted_gap(ANYONE_AFTER) == float("inf")
    far = FIRST_GAP + GAP_STEP  # accepted after one missed wave, not before
    assert pair_wave([Candidate("a", 1500), Candidate("b", 1500 + far)])[0] == []
    # one of them waited long enough, the other not: no pair
    assert pair_wave([Candidate("a", 1500, 5), Candidate("b", 1500 + far)])[0] == []
    pairs, _ = pair_wave([Candidate("a", 1500, 1), Candidate("b", 1500 + far, 1)])
    assert names(pairs) == {frozenset("ab")}
    pairs, _ = pair_wave([Candidate("a", 1000, ANYONE_AFTER), Candidate("b", 2500, ANYONE_AFTER)])
    assert names(pairs) == {frozenset("ab")}
