"""Matches played offline in the store (docs/offline.md): kept once per player and match,
counted once, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from spite_malice.store import Store
from spite_malice.store.offline_games import (
    OfflineGame,
    OfflineMatch,
    StepsDiffer,
    kept_steps,
    offline_stats,
    save_offline_match,
)

STEPS = [{"kind": "deal", "game": 1, "ply": 0, "seat": None, "move": None, "seed": 7}]


def _match(steps: int, games: int, over: bool, match_id: str = "a" * 32) -> OfflineMatch:
    made = [
        {"kind": "move", "game": 1, "ply": n, "seat": n % 2, "move": f"M{n}", "seed": None}
        for n in range(1, steps)
    ]
    played = [
        OfflineGame(n, "win" if n % 2 else "loss", 5, 0, False, {}) for n in range(1, games + 1)
    ]
    return OfflineMatch(match_id, "hard", STEPS + made, played, over, over)


def test_a_match_counts_once_and_grows(store: Store) -> None:
    player, _secret = store.create_player("Ann")
    first = save_offline_match(store, player.id, _match(10, 1, False))
    assert (first.new_games, first.new_match, first.known) == (1, False, False)
    again = save_offline_match(store, player.id, _match(10, 1, False))
    assert (again.new_games, again.new_match, again.known) == (0, False, True)
    grown = save_offline_match(store, player.id, _match(20, 2, True))
    assert (grown.new_games, grown.new_match) == (1, True)
    assert len(kept_steps(store, player.id, "a" * 32)) == 20
    stats = offline_stats(store, player.id)
    assert stats.level("hard").games == 2 and stats.level("hard").matches_won == 1
    assert store.stats(player.id).total.games == 0  # apart from the games on the server


def test_other_steps_for_a_kept_match_are_refused(store: Store) -> None:
    player, _secret = store.create_player("Ann")
    save_offline_match(store, player.id, _match(10, 0, False))
    changed = _match(12, 0, False)
    changed.steps[3]["move"] = "other"
    with pytest.raises(StepsDiffer):
        save_offline_match(store, player.id, changed)


def test_two_sendings_at_once_count_once(open_store: Callable[[], Store]) -> None:
    store = open_store()
    player, _secret = store.create_player("Ann")
    stores = [open_store(), open_store()]
    with ThreadPoolExecutor(2) as pool:
        saved = list(
            pool.map(lambda s: save_offline_match(s, player.id, _match(10, 1, True)), stores)
        )
    assert sum(s.new_games for s in saved) == 1 and sum(s.new_match for s in saved) == 1
    assert offline_stats(store, player.id).total.games == 1
