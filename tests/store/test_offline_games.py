"""Matches played offline in the store (docs/offline.md): kept once per player and match,
each game counted once by its content whatever the match's id and whoever sends it, on
SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, create_engine, insert, select

from spite_malice.store import Store
from spite_malice.store.database import MIGRATIONS
from spite_malice.store.offline_games import (
    OFFLINE_RESULTS,
    CountedElsewhere,
    OfflineGame,
    OfflineMatch,
    StepsDiffer,
    game_key,
    kept_steps,
    match_key,
    offline_stats,
    save_offline_match,
)

STEPS = [{"kind": "deal", "game": 1, "ply": 0, "seat": None, "move": None, "seed": 7}]


def _record(number: int, moves: int = 3) -> dict[str, object]:
    """A finished game's record as the replay writes it (its deal's seed from its number)."""
    return {
        "format": 1,
        "rules": {"payoff_size": 5},
        "seed": 1000 + number,
        "players": ["Ann", "Hard"],
        "moves": [f"M{n}" for n in range(moves)],
        "first": 0,
        "result": {"winner": 0, "points": 5, "reason": "payoff"},
    }


def _match(steps: int, games: int, over: bool, match_id: str = "a" * 32) -> OfflineMatch:
    made = [
        {"kind": "move", "game": 1, "ply": n, "seat": n % 2, "move": f"M{n}", "seed": None}
        for n in range(1, steps)
    ]
    played = [
        OfflineGame(n, "win" if n % 2 else "loss", 5, 0, False, _record(n))
        for n in range(1, games + 1)
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


def test_the_same_match_under_another_id_counts_once(store: Store) -> None:
    """The id is the page's: the same games under fresh ids count nothing more."""
    player, _secret = store.create_player("Ann")
    first = save_offline_match(store, player.id, _match(20, 2, True))
    assert (first.new_games, first.new_match, first.already_counted) == (2, True, 0)
    for other_id in ("b" * 32, "c" * 32):
        again = save_offline_match(store, player.id, _match(20, 2, True, match_id=other_id))
        assert (again.new_games, again.new_match) == (0, False)
        assert again.known is True and again.already_counted == 2
    stats = offline_stats(store, player.id)
    assert stats.total.games == 2 and stats.level("hard").matches == 1


def test_a_game_that_differs_counts_under_another_id(store: Store) -> None:
    """Content, not id: a match whose second game was played otherwise counts that game."""
    player, _secret = store.create_player("Ann")
    save_offline_match(store, player.id, _match(20, 2, True))
    other = _match(20, 2, True, match_id="b" * 32)
    changed = OfflineGame(2, "loss", 0, 5, False, _record(2, moves=4))
    other = OfflineMatch(other.match_id, "hard", other.steps, [other.games[0], changed], True, True)
    saved = save_offline_match(store, player.id, other)
    assert (saved.new_games, saved.already_counted, saved.new_match) == (1, 1, True)
    assert offline_stats(store, player.id).total.games == 3


def test_a_copy_sent_by_another_player_is_refused_and_counts_nothing(store: Store) -> None:
    ann, _secret = store.create_player("Ann")
    bob, _secret = store.create_player("Bob")
    save_offline_match(store, ann.id, _match(20, 2, True))
    for match_id in ("a" * 32, "b" * 32):  # under Ann's id or a fresh one
        with pytest.raises(CountedElsewhere):
            save_offline_match(store, bob.id, _match(20, 2, True, match_id=match_id))
    assert offline_stats(store, bob.id).total.games == 0
    assert kept_steps(store, bob.id, "b" * 32) == []  # nothing of it kept for Bob
    assert offline_stats(store, ann.id).total.games == 2


def test_two_players_sending_the_same_game_at_once_count_it_once(
    open_store: Callable[[], Store],
) -> None:
    store = open_store()
    players = [store.create_player(name)[0].id for name in ("Ann", "Bob")]
    stores = [open_store(), open_store()]

    def send(pair: tuple[Store, str]) -> int:
        try:
            return save_offline_match(pair[0], pair[1], _match(10, 1, True)).new_games
        except CountedElsewhere:
            return 0

    with ThreadPoolExecutor(2) as pool:
        counted = list(pool.map(send, zip(stores, players, strict=True)))
    assert sorted(counted) == [0, 1]
    totals = [offline_stats(store, player).total.games for player in players]
    assert sorted(totals) == [0, 1]


def _migrate(connection: Connection, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def test_migration_0011_keys_the_games_counted_before(store_url: str) -> None:
    """Rows counted before content keys get theirs; a game counted twice before (under two
    ids) keeps its key on the first row only and stays counted; after it, the same game
    sent again counts nothing more."""
    engine = create_engine(store_url)
    results = OFFLINE_RESULTS
    when = datetime(2026, 12, 1, tzinfo=UTC)
    try:
        with engine.begin() as connection:
            _migrate(connection, "0010")
            rows = [
                (match_id, number, when + timedelta(minutes=minute))
                for minute, match_id in enumerate(("a" * 32, "b" * 32))
                for number in (1, 0)
            ]
            connection.execute(
                insert(results),
                [
                    {
                        "player": "ann",
                        "match_id": match_id,
                        "number": number,
                        "level": "hard",
                        "outcome": "win",
                        "points_for": 5 if number else 0,
                        "points_against": 0,
                        "assisted": False,
                        "record": _record(1) if number else None,
                        "finished_at": finished,
                    }
                    for match_id, number, finished in rows
                ],
            )
            _migrate(connection, "0011")
            keys = dict(
                ((row[0], row[1]), row[2])
                for row in connection.execute(
                    select(results.c.match_id, results.c.number, results.c.content)
                ).all()
            )
        game = game_key("hard", _record(1))
        assert keys[("a" * 32, 1)] == game
        assert keys[("a" * 32, 0)] == match_key("hard", [game], True)
        assert keys[("b" * 32, 1)] is None and keys[("b" * 32, 0)] is None
    finally:
        engine.dispose()
    with Store.open(store_url) as store:
        assert offline_stats(store, "ann").total.games == 2  # nothing taken away
        again = save_offline_match(store, "ann", _match(10, 1, True, match_id="c" * 32))
        assert (again.new_games, again.new_match) == (0, False)
