"""The store on SQLite and on PostgreSQL: matches resume exactly, games and matches are
counted once, statistics per level, settings, and two programs sharing one database."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from spite_malice.bots import reference_move
from spite_malice.engine import Game, GameRecord, Match, Rules
from spite_malice.store import (
    ABANDONED,
    FINISHED,
    PLAYING,
    SavedMatch,
    Store,
    StoreError,
)
from spite_malice.store.schema import StoreInfo

QUICK = Rules(payoff_size=5, match_target=8)


def play_moves(game: Game, count: int) -> None:
    for _ in range(count):
        if game.is_over:
            return
        game.play(reference_move(game))


def finish_game(saved: SavedMatch, store: Store | None = None) -> None:
    """Play the current game to its end with the reference policy, saving after each move."""
    game = saved.match.game
    assert game is not None
    while not game.is_over:
        game.play(reference_move(game))
        if store is not None:
            store.save_match(saved)


def play_match(saved: SavedMatch, store: Store) -> None:
    match = saved.match
    while True:
        finish_game(saved, store)
        match.book()
        if match.is_over:
            store.save_match(saved)
            return
        match.next_game()
        saved.assisted = False
        store.save_match(saved)


def new_saved(match_id: str, seed: int, **fields: object) -> SavedMatch:
    match = Match(QUICK, seed, ("alice", "Easy"))
    match.next_game()
    values: dict[str, object] = {"level": "easy", "players": ("alice", None)}
    values.update(fields)
    return SavedMatch(match_id, match, **values)  # type: ignore[arg-type]


def test_a_saved_match_resumes_exactly(open_store: Callable[[], Store]) -> None:
    writer = open_store()
    saved = new_saved("m1", 1, meta={"names": ["alice", "Easy"]}, room="ROOM01")
    game = saved.match.game
    assert game is not None
    for _ in range(23):
        play_moves(game, 1)
        writer.save_match(saved)
    # another program (or the same one restarted) reads it back
    loaded = open_store().load_match("m1")
    assert loaded is not None
    again = loaded.match.game
    assert again is not None
    assert again.to_position() == game.to_position()
    assert [str(m) for m in again.moves] == [str(m) for m in game.moves]
    assert loaded.meta == {"names": ["alice", "Easy"]}
    assert (loaded.level, loaded.players, loaded.room) == ("easy", ("alice", None), "ROOM01")
    # the random generator is restored too: both copies go on identically
    for _ in range(60):
        if game.is_over:
            break
        move = reference_move(game)
        game.play(move)
        again.play(move)
        assert again.to_position() == game.to_position()


def test_a_match_is_counted_once_per_game_and_once_when_finished(store: Store) -> None:
    saved = new_saved("m2", 2)
    play_match(saved, store)
    store.save_match(saved)  # saving again counts nothing twice
    assert saved.status == FINISHED
    match = saved.match
    stats = store.stats("alice")
    easy = stats.level("easy")
    assert easy.games == len(match.records)
    assert easy.wins == sum(1 for r in match.records if r.result and r.result.winner == 0)
    assert easy.losses == sum(1 for r in match.records if r.result and r.result.winner == 1)
    assert easy.points_for == match.score[0] and easy.points_against == match.score[1]
    assert easy.matches == 1
    assert easy.matches_won == int(match.winner == 0)
    assert [r.to_json() for r in store.games("m2")] == [r.to_json() for r in match.records]
    loaded = store.load_match("m2")
    assert loaded is not None and loaded.status == FINISHED
    assert loaded.stored_games == len(match.records)


def test_statistics_are_per_level_with_streaks(store: Store) -> None:
    for number, level in enumerate(["easy", "hard", "easy"]):
        saved = new_saved(f"s{number}", 10 + number, level=level)
        play_match(saved, store)
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
    saved = new_saved("a1", 3)
    play_moves(saved.match.game, 3)  # type: ignore[arg-type]
    saved.assisted = True
    store.save_match(saved)
    finish_game(saved, store)
    stats = store.stats("alice").level("easy")
    assert stats.games == 1 and stats.assisted == 1
    loaded = store.load_match("a1")
    assert loaded is not None and loaded.assisted


def test_abandoning_counts_a_loss_scoring_nothing(store: Store) -> None:
    saved = new_saved("ab", 4)
    play_moves(saved.match.game, 5)  # type: ignore[arg-type]
    store.abandon_match(saved, by=0)
    assert saved.status == ABANDONED
    row = store.stats("alice").level("easy")
    assert (row.games, row.losses, row.points_for, row.points_against) == (1, 1, 0, 0)
    assert store.matches(status=PLAYING) == []
    assert [m.id for m in store.matches(status=ABANDONED)] == ["ab"]


def test_a_friend_match_counts_for_both_players(store: Store) -> None:
    saved = new_saved("f1", 5, kind="friend", level=None, players=("alice", "bob"))
    finish_game(saved, store)
    alice = store.stats("alice").level("friend")
    bob = store.stats("bob").level("friend")
    assert alice.games == bob.games == 1
    assert alice.wins == bob.losses and alice.losses == bob.wins
    assert alice.points_for == bob.points_against


def test_unfinished_matches_are_listed_and_rooms_found(store: Store) -> None:
    first = new_saved("u1", 6, room="AAAAAA", source="web")
    second = new_saved("u2", 7, source="terminal")
    store.save_match(first)
    store.save_match(second)
    listed = store.matches(player="alice")
    assert {m.id for m in listed} == {"u1", "u2"}
    assert [m.id for m in store.matches(source="terminal")] == ["u2"]
    summary = next(m for m in listed if m.id == "u1")
    assert summary.room == "AAAAAA" and summary.game_number == 1
    assert summary.score == (0, 0)
    assert store.has_room("AAAAAA") and not store.has_room("BBBBBB")
    room = store.load_room("AAAAAA")
    assert room is not None and room.id == "u1"
    # a room's newer match is the one it plays
    newer = new_saved("u3", 8, room="AAAAAA")
    store.save_match(newer)
    room = store.load_room("AAAAAA")
    assert room is not None and room.id == "u3"
    store.delete_match("u2")
    assert store.load_match("u2") is None
    assert store.load_match("nothing") is None


def test_a_one_off_game_is_recorded(store: Store) -> None:
    game = Game.new(9, Rules(payoff_size=5))
    while not game.is_over:
        game.play(reference_move(game))
    store.record_game(GameRecord.from_game(game), level="medium", players=(None, "carol"))
    row = store.stats("carol").level("medium")
    assert row.games == 1
    unfinished = Game.new(10, Rules(payoff_size=5))
    with pytest.raises(StoreError):
        store.record_game(GameRecord.from_game(unfinished), level="medium", players=("c", None))


def test_settings_round_trip(store: Store) -> None:
    assert store.settings("alice") is None
    store.save_settings("alice", {"animation_speed": "fast", "rules": {"payoff_size": 12}})
    store.save_settings("alice", {"animation_speed": "slow"})
    assert store.settings("alice") == {"animation_speed": "slow"}


def test_a_terminal_and_a_server_share_statistics(open_store: Callable[[], Store]) -> None:
    server, terminal = open_store(), open_store()
    web_match = new_saved("w", 11, source="web")
    finish_game(web_match, server)
    terminal_match = new_saved("t", 12, source="terminal")
    finish_game(terminal_match, terminal)
    assert server.stats("alice").level("easy").games == 2
    assert terminal.stats("alice").to_json() == server.stats("alice").to_json()


def test_a_newer_schema_is_refused(store_url: str, open_store: Callable[[], Store]) -> None:
    store = open_store()
    with store._session() as session:
        info = session.get(StoreInfo, "schema_version")
        assert info is not None
        info.value = "99"
    with pytest.raises(StoreError, match="schema version 99"):
        Store.open(store_url)
