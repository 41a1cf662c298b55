"""Ratings in the store: a new player's, a rated game's end updating both strangers as
Glicko-2 gives (in the game's own transaction), the rating against the computer against the
level's fixed rating, the games that are never rated, the history, and who a leaderboard
shows."""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from datetime import timedelta

import pytest
from sqlalchemy import update

from spite_malice.bots import reference_move
from spite_malice.engine import Rules
from spite_malice.ratings.glicko2 import Glicko
from spite_malice.ratings.policy import (
    LEADERBOARD_DAYS,
    LEVEL_RATINGS,
    NEW_RATING,
    after_game,
)
from spite_malice.store import MatchHeader, Store
from spite_malice.store.schema import utcnow
from spite_malice.store.schema_accounts import RATINGS
from spite_malice.table import COMPUTER, FRIEND, PERSON, Seat, Step, Table


@dataclass
class Kept:
    store: Store
    header: MatchHeader
    table: Table

    def step(self, step: Step) -> None:
        self.store.append(self.header, step)
        self.table.apply(step)

    def finish_game(self, undo_first: bool = False) -> int | None:
        """Play the game out with the reference bot; its winner."""
        while not self.table.is_game_over:
            game = self.table.game
            self.step(self.table.check_move(game.to_move, reference_move(game)))
            if undo_first and self.table.can_undo(0):
                self.step(self.table.check_undo(0))
                undo_first = False
        record = self.table.match.records[-1]
        assert record.result is not None
        return record.result.winner


def kept(
    store: Store,
    match_id: str,
    seed: int,
    *,
    rules: Rules = Rules.QUICK,
    level: str | None = None,
    friend: str | None = None,
    pool: str | None = None,
    practice: bool = False,
    daily: str | None = None,
) -> Kept:
    second = Seat(FRIEND, friend, friend) if friend else Seat(COMPUTER, "Medium")
    table = Table.new(
        rules,
        (Seat(PERSON, "alice", "alice"), second),
        level=level,
        seed=seed,
        practice=practice,
        daily=daily,
    )
    meta = replace(table.meta, pool=pool)
    header = MatchHeader(match_id, rules, meta, seed=seed)
    deal = table.check_deal()
    header = store.create_match(header, deal)
    table.apply(deal)
    return Kept(store, header, table)


def test_a_new_player_is_1500_350_006_provisional(store: Store) -> None:
    assert store.rating_of("nobody", "standard") == NEW_RATING
    rating = store.rating_of("nobody", "quick")
    assert (rating.rating, rating.deviation, rating.volatility) == (1500, 350, 0.06)
    assert rating.games == 0 and rating.provisional


def test_a_rated_game_between_strangers_updates_both_as_glicko_2_gives(store: Store) -> None:
    match = kept(store, "s1", 11, friend="bob", pool="quick")
    winner = match.finish_game()
    score = 0.5 if winner is None else 1.0 if winner == 0 else 0.0
    new = NEW_RATING.glicko
    alice, bob = store.rating_of("alice", "quick"), store.rating_of("bob", "quick")
    want_alice, want_bob = after_game(new, new, score), after_game(new, new, 1.0 - score)
    assert alice.rating == pytest.approx(want_alice.rating, abs=1e-6)
    assert alice.deviation == pytest.approx(want_alice.deviation, abs=1e-3)
    assert bob.rating == pytest.approx(want_bob.rating, abs=1e-6)
    assert alice.games == bob.games == 1 and alice.provisional
    assert store.rating_of("alice", "standard") == NEW_RATING  # pools are apart
    # the second game is rated from the ratings after the first
    match.step(match.table.check_deal())
    second = match.finish_game()
    score2 = 0.5 if second is None else 1.0 if second == 0 else 0.0
    now_alice = store.rating_of("alice", "quick")
    expected = after_game(
        Glicko(alice.rating, alice.deviation, alice.volatility),
        Glicko(bob.rating, bob.deviation, bob.volatility),
        score2,
    )
    assert now_alice.rating == pytest.approx(expected.rating, abs=0.01)
    assert now_alice.games == 2
    history = store.ratings.history("alice", "quick")
    assert [round(p.rating, 6) for p in history] == [
        round(alice.rating, 6),
        round(now_alice.rating, 6),
    ]
    assert [p.opponent for p in history] == ["bob", "bob"]


def test_a_resigned_rated_game_is_a_loss_for_who_resigned(store: Store) -> None:
    match = kept(store, "s2", 12, friend="bob", pool="standard", rules=Rules.STANDARD)
    match.step(match.table.check_resign(0))
    alice, bob = store.rating_of("alice", "standard"), store.rating_of("bob", "standard")
    assert alice.rating < 1500 < bob.rating and alice.games == bob.games == 1


def test_a_game_against_the_computer_rates_against_the_levels_fixed_rating(
    store: Store,
) -> None:
    match = kept(store, "c1", 13, level="medium")
    winner = match.finish_game()
    score = 0.5 if winner is None else 1.0 if winner == 0 else 0.0
    want = after_game(NEW_RATING.glicko, LEVEL_RATINGS["medium"], score)
    rating = store.rating_of("alice", "computer")
    assert rating.rating == pytest.approx(want.rating, abs=1e-6) and rating.games == 1
    assert store.ratings.history("alice", "computer")[0].opponent == "medium"
    assert store.rating_of("alice", "standard") == NEW_RATING


@pytest.mark.parametrize(
    "how",
    ["friends", "practice", "daily", "custom rules", "undo"],
)
def test_games_that_are_not_rated(store: Store, how: str) -> None:
    if how == "friends":
        match = kept(store, "n1", 14, friend="bob")  # no pool: a friend's invitation
    elif how == "practice":
        match = kept(store, "n1", 14, level="easy", practice=True)
    elif how == "daily":
        match = kept(store, "n1", 14, level="easy", daily="2026-12-07")
    elif how == "custom rules":
        match = kept(store, "n1", 14, level="easy", rules=Rules(payoff_size=5))
    else:
        match = kept(store, "n1", 14, level="easy")
    match.finish_game(undo_first=how == "undo")
    assert match.table.assisted == ({1} if how == "undo" else set())
    for pool in ("standard", "quick", "computer"):
        assert store.rating_of("alice", pool) == NEW_RATING
        assert store.ratings.history("alice", pool) == []


def _set(
    store: Store, player: str, pool: str, rating: float, deviation: float, days: float
) -> None:
    with store.db.connection() as connection:
        connection.execute(
            update(RATINGS)
            .where(RATINGS.c.player == player, RATINGS.c.pool == pool)
            .values(rating=rating, deviation=deviation, updated_at=utcnow() - timedelta(days=days))
        )


def test_the_leaderboard_shows_established_recently_active_players(store: Store) -> None:
    names = ["ann", "ben", "cat", "dan"]
    ids = []
    for name in names:
        player, _ = store.create_player(name)
        ids.append(player.id)
    for number, opponent in enumerate(ids[1:]):
        header_table = Table.new(
            Rules.QUICK,
            (Seat(PERSON, "ann", ids[0]), Seat(FRIEND, "x", opponent)),
            seed=number,
        )
        header = MatchHeader(f"b{number}", Rules.QUICK, replace(header_table.meta, pool="quick"))
        deal = header_table.check_deal()
        header = store.create_match(header, deal)
        header_table.apply(deal)
        match = Kept(store, header, header_table)
        match.step(header_table.check_resign(1))
    assert store.ratings.leaderboard("quick") == []  # everyone still provisional
    ann, ben, cat, dan = ids
    _set(store, ann, "quick", 1700, 60, 1)
    _set(store, ben, "quick", 1800, 60, LEADERBOARD_DAYS + 1)  # not active lately
    _set(store, cat, "quick", 1600, 100, 2)
    _set(store, dan, "quick", 1900, 111, 0)  # provisional
    board = store.ratings.leaderboard("quick")
    assert [(row.name, round(row.rating)) for row in board] == [("ann", 1700), ("cat", 1600)]
    assert store.ratings.leaderboard("standard") == []


def test_two_games_of_one_player_ending_at_once_are_both_rated(store: Store) -> None:
    """Two servers (two store objects) write the last step of two games of one player at
    the same moment: the player's row is locked, so neither update is lost."""
    other = Store.open(store.url)
    try:
        first = kept(store, "t0", 20, level="hard")  # the player's row exists: a lost
        first.step(first.table.check_resign(0))  # update would show without the lock
        matches = [
            kept(store, "t1", 21, level="easy"),
            kept(other, "t2", 22, level="medium"),
        ]
        last = []
        for match in matches:  # play each game to its last move, not stored yet
            while True:
                game = match.table.game
                step = match.table.check_move(game.to_move, reference_move(game))
                if step.finished is not None:
                    last.append(step)
                    break
                match.step(step)
        barrier = threading.Barrier(2)

        def finish(index: int) -> None:
            barrier.wait()
            matches[index].store.append(matches[index].header, last[index])

        threads = [threading.Thread(target=finish, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        rating = store.rating_of("alice", "computer")
        assert rating.games == 3
        assert sorted(p.opponent or "" for p in store.ratings.history("alice", "computer")) == [
            "easy",
            "hard",
            "medium",
        ]
    finally:
        other.close()
