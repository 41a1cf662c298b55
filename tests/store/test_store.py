"""The store on SQLite and on PostgreSQL: the move log resumes matches exactly, games and
matches are counted once, statistics per level, settings, players, and two writers of one
ply conflict instead of forking the match."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from sqlalchemy import text

from spite_malice.bots import reference_move
from spite_malice.engine import Rules
from spite_malice.store import (
    ABANDONED,
    FINISHED,
    PLAYING,
    MatchHeader,
    Store,
    StoreConflict,
    StoreDataError,
    StoredMatch,
)
from spite_malice.table import COMPUTER, FRIEND, PERSON, Seat, Step, Table

QUICK = Rules(payoff_size=5, match_target=8)


@dataclass
class Kept:
    """A table and its stored header: each step goes to the store, then to the table."""

    store: Store
    header: MatchHeader
    table: Table

    def step(self, step: Step) -> None:
        self.store.append(self.header, step)
        self.table.apply(step)

    def move(self, count: int = 1) -> None:
        for _ in range(count):
            if self.table.is_game_over:
                return
            game = self.table.game
            self.step(self.table.check_move(game.to_move, reference_move(game)))

    def finish_game(self) -> None:
        while not self.table.is_game_over:
            self.move()

    def play_match(self) -> None:
        while True:
            self.finish_game()
            if self.table.match.is_over:
                return
            self.step(self.table.check_deal())


def new_kept(
    store: Store,
    match_id: str,
    seed: int,
    *,
    level: str | None = "easy",
    friend: str | None = None,
    room: str | None = None,
    source: str = "web",
) -> Kept:
    second = Seat(FRIEND, friend, friend) if friend else Seat(COMPUTER, "Easy")
    table = Table.new(QUICK, (Seat(PERSON, "alice", "alice"), second), level=level, seed=seed)
    header = MatchHeader(match_id, QUICK, table.meta, seed=seed, room=room, source=source)
    deal = table.check_deal()
    header = store.create_match(header, deal)
    table.apply(deal)
    return Kept(store, header, table)


def restored(store: Store, match_id: str) -> Table:
    stored = store.load_match(match_id)
    assert stored is not None
    header = stored.header
    return Table.restore(header.rules, header.seed, header.meta, stored.steps)


def assert_committed(
    store: Store,
    kept: list[Kept],
    steps: list[tuple[MatchHeader, Step]],
    before: list[StoredMatch | None],
) -> None:
    """Each of ``kept`` (its table already moved on by its step of ``steps``) is stored with
    that step last, a later ``updated_at`` than ``before``, and restores to its table."""
    for each, (_, step), old in zip(kept, steps, before, strict=True):
        stored = store.load_match(each.header.id)
        assert stored is not None and old is not None
        assert stored.steps[-1] == step
        assert stored.head == (1, step.ply + 1)
        assert old.header.updated_at is not None and stored.header.updated_at is not None
        assert stored.header.updated_at > old.header.updated_at
        assert restored(store, each.header.id).game.to_position() == (each.table.game.to_position())


def test_a_stored_match_resumes_exactly(open_store: Callable[[], Store]) -> None:
    kept = new_kept(open_store(), "m1", 1, room="ROOM01")
    kept.move(23)
    # another program (or the same one restarted) reads it back
    reader = open_store()
    again = restored(reader, "m1")
    game = kept.table.game
    assert again.game.to_position() == game.to_position()
    assert [str(m) for m in again.game.moves] == [str(m) for m in game.moves]
    stored = reader.load_match("m1")
    assert stored is not None
    assert stored.header.meta == kept.table.meta
    assert (stored.header.level, stored.header.players, stored.header.room) == (
        "easy",
        ("alice", None),
        "ROOM01",
    )
    # the random generator is restored too: both copies go on identically
    for _ in range(60):
        if game.is_over:
            break
        move = reference_move(game)
        game.play(move)
        again.game.play(move)
        assert again.game.to_position() == game.to_position()


def test_a_match_is_counted_once_per_game_and_once_when_finished(store: Store) -> None:
    kept = new_kept(store, "m2", 2)
    kept.play_match()
    match = kept.table.match
    stats = store.stats("alice")
    easy = stats.level("easy")
    assert easy.games == len(match.records)
    assert easy.wins == sum(1 for r in match.records if r.result and r.result.winner == 0)
    assert easy.losses == sum(1 for r in match.records if r.result and r.result.winner == 1)
    assert easy.points_for == match.score[0] and easy.points_against == match.score[1]
    assert easy.matches == 1
    assert easy.matches_won == int(match.winner == 0)
    stored = [r.to_json() for r in store.games("m2")]
    # each stored game keeps its deal's commitment and salt (docs/verifying.md)
    assert all(set(r.pop("deal")) == {"commitment", "salt"} for r in stored)
    assert stored == [r.to_json() for r in match.records]
    [summary] = store.matches(status=None)
    assert summary.status == FINISHED and summary.score == tuple(match.score)
    assert summary.game_number == len(match.records)


def test_statistics_are_per_level_with_streaks(store: Store) -> None:
    for number, level in enumerate(["easy", "hard", "easy"]):
        new_kept(store, f"s{number}", 10 + number, level=level).play_match()
    stats = store.stats("alice")
    assert [row.level for row in stats.levels] == ["easy", "hard"]
    assert stats.total.games == sum(row.games for row in stats.levels)
    assert stats.total.matches == 3
    for row in [*stats.levels, stats.total]:
        assert row.wins + row.losses + row.draws == row.games
        assert 0 <= row.current_streak <= row.best_streak <= row.wins
        assert row.win_rate == round(row.wins / row.games, 3)
    assert store.stats("somebody else").total.games == 0


def test_an_assisted_game_is_marked(store: Store) -> None:
    kept = new_kept(store, "a1", 3)
    while kept.table.game.to_move != 0:
        kept.move()
    kept.step(kept.table.check_hint(0))
    kept.finish_game()
    stats = store.stats("alice").level("easy")
    assert stats.games == 1 and stats.assisted == 1
    assert restored(store, "a1").assisted == {1}


def test_resigning_counts_a_loss_scoring_nothing(store: Store) -> None:
    kept = new_kept(store, "ab", 4)
    kept.move(5)
    kept.step(kept.table.check_resign(0))
    row = store.stats("alice").level("easy")
    assert (row.games, row.losses, row.points_for, row.points_against) == (1, 1, 0, 0)
    assert store.matches(status=PLAYING) == []
    assert [m.id for m in store.matches(status=ABANDONED)] == ["ab"]
    assert restored(store, "ab").status == ABANDONED


def test_a_friend_match_counts_for_both_players(store: Store) -> None:
    kept = new_kept(store, "f1", 5, level=None, friend="bob")
    kept.finish_game()
    alice = store.stats("alice").level("friend")
    bob = store.stats("bob").level("friend")
    assert alice.games == bob.games == 1
    assert alice.wins == bob.losses and alice.losses == bob.wins
    assert alice.points_for == bob.points_against


def test_unfinished_matches_are_listed_and_rooms_found(store: Store) -> None:
    new_kept(store, "u1", 6, room="AAAAAA", source="web")
    new_kept(store, "u2", 7, source="terminal")
    listed = store.matches(player="alice")
    assert {m.id for m in listed} == {"u1", "u2"}
    assert [m.id for m in store.matches(source="terminal")] == ["u2"]
    summary = next(m for m in listed if m.id == "u1")
    assert summary.room == "AAAAAA" and summary.game_number == 1
    assert summary.score == (0, 0) and summary.names == ("alice", "Easy")
    assert store.has_room("AAAAAA") and not store.has_room("BBBBBB")
    room = store.load_room("AAAAAA")
    assert room is not None and room.header.id == "u1"
    # a room's newer match is the one it plays
    new_kept(store, "u3", 8, room="AAAAAA")
    room = store.load_room("AAAAAA")
    assert room is not None and room.header.id == "u3"
    store.delete_match("u2")
    assert store.load_match("u2") is None
    assert store.load_match("nothing") is None


def test_two_writers_of_one_ply_conflict_and_the_log_keeps_the_first(
    open_store: Callable[[], Store],
) -> None:
    first = new_kept(open_store(), "c1", 9)
    other = open_store()
    stored = other.load_match("c1")
    assert stored is not None
    second = Kept(other, stored.header, restored(other, "c1"))
    first.move()
    game = second.table.game
    legal = [m for m in game.legal_moves() if str(m) != str(first.table.game.moves[0])]
    step = second.table.check_move(game.to_move, legal[0])
    with pytest.raises(StoreConflict):
        other.append(second.header, step)
    assert other.head("c1") == (1, 2)
    again = restored(other, "c1")
    assert [str(m) for m in again.game.moves] == [str(first.table.game.moves[0])]


def test_settings_round_trip(store: Store) -> None:
    assert store.settings("alice") is None
    store.save_settings("alice", {"animation_speed": "fast", "rules": {"payoff_size": 12}})
    store.save_settings("alice", {"animation_speed": "slow"})
    assert store.settings("alice") == {"animation_speed": "slow"}


def test_players_are_found_by_their_secret_only(store: Store) -> None:
    ann, secret = store.create_player("Ann")
    bob, _ = store.create_player("Ann")
    assert ann.id != bob.id
    assert store.player_for(secret) == ann
    assert store.player_for(secret + "x") is None
    store.rename_player(ann.id, "Annie")
    assert store.player(ann.id) is not None and store.player(ann.id).name == "Annie"  # type: ignore[union-attr]
    local = store.local_player()
    assert store.local_player() == local and local.source == "terminal"


def test_a_terminal_and_a_server_share_statistics(open_store: Callable[[], Store]) -> None:
    server, terminal = open_store(), open_store()
    new_kept(server, "w", 11, source="web").finish_game()
    new_kept(terminal, "t", 12, source="terminal").finish_game()
    assert server.stats("alice").level("easy").games == 2
    assert terminal.stats("alice").to_json() == server.stats("alice").to_json()


def test_a_newer_schema_is_refused(store_url: str, open_store: Callable[[], Store]) -> None:
    store = open_store()
    with store.engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'ffff'"))
    with pytest.raises(StoreDataError, match="revision ffff"):
        Store.open(store_url)


def test_a_group_commit_writes_all_or_nothing(store: Store) -> None:
    one, two = new_kept(store, "g1", 13), new_kept(store, "g2", 14)
    steps = []
    for kept in (one, two):
        game = kept.table.game
        steps.append((kept.header, kept.table.check_move(game.to_move, reference_move(game))))
    store.append_many(steps)
    for kept, (_, step) in zip((one, two), steps, strict=True):
        kept.table.apply(step)
        assert store.head(kept.header.id) == (1, 2)
    # a batch with one step stored already is refused whole
    game = one.table.game
    fresh = (one.header, one.table.check_move(game.to_move, reference_move(game)))
    with pytest.raises(StoreConflict):
        store.append_many([fresh, steps[1]])
    assert store.head("g1") == (1, 2)
