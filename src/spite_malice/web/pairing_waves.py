"""A quick-match wave's pairs, chosen from the players waiting in one pool (nothing else: the
store and the clock are the caller's, ``web/quick_match.py``).

Each waiting player accepts an opponent within a rating gap that widens with every wave
that passed it by: :data:`FIRST_GAP` points at its first wave, :data:`GAP_STEP` more at each
missed one, up to :data:`MAX_GAP`; past :data:`ANYONE_AFTER` missed waves it accepts anyone.
Two players are paired only when each accepts the other (the gap is the smaller of their
two), they are not the same player, and neither blocked the other. Among the pairs allowed,
the closest in rating are made first (the greedy matching lichess's pools start from): with
a few hundred players a wave it takes milliseconds, and the players left wait one more wave
with a wider gap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

FIRST_GAP = 100.0
"""The rating gap a player accepts at its first wave (Glicko-2 points)."""
GAP_STEP = 75.0
"""How much wider it grows with each wave that passed the player by."""
MAX_GAP = 600.0
ANYONE_AFTER = 10
"""Missed waves after which a player accepts any opponent (20 seconds at the default wave)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One waiting player as a wave sees it."""

    player: str
    rating: float
    waves: int = 0
    """Waves that passed it by."""


def accepted_gap(waves: int) -> float:
    """The rating gap a player accepts after ``waves`` missed waves."""
    if waves >= ANYONE_AFTER:
        return float("inf")
    return min(MAX_GAP, FIRST_GAP + GAP_STEP * waves)


def pair_wave(
    waiting: Sequence[Candidate],
    blocked: Callable[[str, str], bool] = lambda first, second: False,
) -> tuple[list[tuple[Candidate, Candidate]], list[Candidate]]:
    """The pairs of one wave and the players it passes by. A player appears at most once
    (the first entry of a player counts); ``blocked(a, b)``: whether either blocked the
    other."""
    seen: set[str] = set()
    players: list[Candidate] = []
    for candidate in waiting:
        if candidate.player not in seen:
            seen.add(candidate.player)
            players.append(candidate)
    ordered = sorted(players, key=lambda c: (c.rating, c.player))
    allowed: list[tuple[float, int, int]] = []
    for i, first in enumerate(ordered):
        gap_first = accepted_gap(first.waves)
        for j in range(i + 1, len(ordered)):
            second = ordered[j]
            difference = second.rating - first.rating
            if difference > gap_first:
                break  # sorted by rating: every later one is further still
            if difference > accepted_gap(second.waves):
                continue
            if blocked(first.player, second.player):
                continue
            allowed.append((difference, i, j))
    # the closest first; the longer-waiting (more waves) first among equals
    allowed.sort(key=lambda pair: (pair[0], -(ordered[pair[1]].waves + ordered[pair[2]].waves)))
    taken: set[int] = set()
    pairs: list[tuple[Candidate, Candidate]] = []
    for _difference, i, j in allowed:
        if i in taken or j in taken:
            continue
        taken.update((i, j))
        pairs.append((ordered[i], ordered[j]))
    passed = [candidate for k, candidate in enumerate(ordered) if k not in taken]
    return pairs, passed
