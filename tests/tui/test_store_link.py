"""The terminal game's matches in the shared store: saved, resumed, abandoned, counted."""

from __future__ import annotations

from pathlib import Path

from spite_malice.bots import reference_move
from spite_malice.engine import Rules
from spite_malice.store import ABANDONED, Store
from spite_malice.tui.session import GameSession, MatchSetup
from spite_malice.tui.store_link import StorePersistence

from .driver import QUICK_WIN


def new_session(seed: int = QUICK_WIN) -> GameSession:
    return GameSession.new(MatchSetup(rules=Rules(payoff_size=5), level="reference", seed=seed))


def play_move(session: GameSession) -> None:
    if session.is_human_turn:
        session.play(reference_move(session.game))
    else:
        session.play_computer(reference_move(session.game))


def test_an_unfinished_match_resumes_exactly(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    keep = StorePersistence.open(db, player="bo")
    session = new_session()
    for _ in range(3):
        play_move(session)
    session.mark_assisted()
    keep.save(session)
    keep.close()

    again = StorePersistence.open(db, player="bo")
    resumed = again.load_unfinished()
    assert resumed is not None
    assert resumed.match.seed == session.match.seed
    assert resumed.game.moves == session.game.moves
    assert resumed.level == "reference"
    assert resumed.is_assisted
    other = StorePersistence.open(db, player="someone else")
    assert other.load_unfinished() is None
    other.close()
    again.close()


def test_a_finished_game_is_counted_and_the_next_one_is_dealt_on_resume(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    keep = StorePersistence.open(db, player="bo")
    session = new_session()
    session.mark_assisted()
    while not session.game.is_over:
        play_move(session)
    keep.game_finished(session)
    stats = keep.statistics()
    assert stats is not None
    # the match was dealt from a seed the player gave (--seed): a practice game, counted
    # apart and kept out of the total
    assert stats.level("practice").games == 1 and stats.level("practice").assisted == 1
    assert stats.total.games == 0
    keep.close()

    again = StorePersistence.open(db, player="bo")
    resumed = again.load_unfinished()
    assert resumed is not None
    assert resumed.game_number == 2 and not resumed.game.is_over
    assert not resumed.is_assisted
    assert resumed.match.score == session.match.score
    again.close()


def test_an_abandoned_match_is_not_offered_again(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    keep = StorePersistence.open(db, player="bo")
    session = new_session()
    play_move(session)
    keep.save(session)
    keep.abandon(session)
    assert keep.load_unfinished() is None
    with Store.open(db) as store:
        assert [m.status for m in store.matches(status=None, player="bo")] == [ABANDONED]
    keep.close()


def test_a_match_without_a_chosen_seed_counts_in_the_statistics(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    keep = StorePersistence.open(db, player="bo")
    session = GameSession.new(MatchSetup(rules=Rules(payoff_size=5), level="reference"))
    assert not session.table.meta.practice
    while not session.game.is_over:
        play_move(session)
    keep.game_finished(session)
    stats = keep.statistics()
    assert stats is not None
    assert stats.total.games == 1 and stats.level("reference").games == 1
    keep.close()
