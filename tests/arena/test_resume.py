"""``spite-malice arena --resume FILE.csv``: a run continued from its CSV plays only the
deals the file lacks and ends with the results of one uninterrupted run."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import pytest

from spite_malice.arena import run_arena, summarize
from spite_malice.arena.games import GameResult
from spite_malice.arena.report import CsvLog, ResumeError, read_csv, summary_rows, write_csv
from spite_malice.arena.sprt import Sprt
from spite_malice.arena.tournament import run_sprt
from spite_malice.cli import main


def outcome(result: GameResult) -> tuple[object, ...]:
    """What a game's result is, without the times (they differ from run to run)."""
    return (
        result.seed,
        result.a_seat,
        result.winner,
        result.points,
        result.turns,
        result.reason,
        result.forfeit,
    )


def result_rows(summary_of: list[GameResult]) -> list[tuple[str, str]]:
    rows = summary_rows(summarize(summary_of, "medium", "easy"))
    return [row for row in rows if "time per" not in row[0]]


def csv_outcomes(path: Path) -> list[tuple[str, ...]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return [
            (row["seed"], row["seat"], row["winner"], row["points"], row["turns"], row["reason"])
            for row in csv.DictReader(handle)
        ]


def test_a_csv_reads_back_as_the_games_it_holds(tmp_path: Path) -> None:
    results = run_arena("medium", "easy", 6, seed=20)
    path = tmp_path / "games.csv"
    write_csv(path, results, "medium", "easy")
    back = read_csv(path, "medium", "easy")
    assert [outcome(r) for r in back] == [outcome(r) for r in results]
    for old, new in zip(results, back, strict=True):
        assert new.a_times == () and new.recorded_times is not None
        assert new.recorded_times == pytest.approx((sum(old.a_times), sum(old.b_times)), abs=1e-6)
    # written again, a game read back keeps its recorded times
    again = tmp_path / "again.csv"
    write_csv(again, back, "medium", "easy")
    assert again.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_a_deal_with_one_game_is_left_out_to_be_played_again(tmp_path: Path) -> None:
    results = run_arena("medium", "easy", 6, seed=20)
    path = tmp_path / "cut.csv"
    write_csv(path, results[:5], "medium", "easy")  # deal 22 lost its second game
    back = read_csv(path, "medium", "easy")
    assert [r.seed for r in back] == [20, 20, 21, 21]


def test_resumed_run_gives_the_results_of_one_uninterrupted_run() -> None:
    whole = run_arena("medium", "easy", 10, seed=30)
    played: list[int] = []
    resumed = run_arena(
        "medium",
        "easy",
        10,
        seed=30,
        done=whole[:4],
        record=lambda pair: played.append(pair[0].seed),
    )
    assert played == [32, 33, 34]  # only the deals the earlier games lack
    assert [outcome(r) for r in resumed] == [outcome(r) for r in whole]
    assert result_rows(resumed) == result_rows(whole)


def test_games_of_another_run_are_refused() -> None:
    whole = run_arena("medium", "easy", 4, seed=30)
    with pytest.raises(ValueError, match="deal 31 is not one of this run's"):
        run_arena("medium", "easy", 2, seed=30, done=whole)
    with pytest.raises(ValueError, match="needs its two games"):
        run_arena("medium", "easy", 4, seed=30, done=whole[:3])


def test_resumed_sprt_decides_where_the_uninterrupted_one_does() -> None:
    test = Sprt(0, 150)
    whole, state = run_sprt("medium", "easy", test, seed=40)
    assert state.decision == "H1"
    played: list[int] = []
    resumed, again = run_sprt(
        "medium",
        "easy",
        test,
        seed=40,
        done=whole[:16],
        record=lambda pair: played.append(pair[0].seed),
    )
    assert again == state
    assert [outcome(r) for r in resumed] == [outcome(r) for r in whole]
    assert played[0] == 48 and len(played) == len(whole) // 2 - 8
    # a test already decided in the file is not played on
    played.clear()
    done, decided = run_sprt(
        "medium", "easy", test, seed=40, done=whole, record=lambda p: played.append(0)
    )
    assert decided == state and not played and len(done) == len(whole)
    # the SPRT counts its deals in order: a gap cannot be filled in afterwards
    with pytest.raises(ValueError, match="deal 41 was not played"):
        run_sprt("medium", "easy", test, seed=40, done=[*whole[:2], *whole[4:8]])


def test_a_file_of_other_bots_or_no_arena_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    write_csv(path, run_arena("medium", "easy", 2, seed=20), "medium", "easy")
    with pytest.raises(ResumeError, match="not one of hard and easy"):
        read_csv(path, "hard", "easy")
    with pytest.raises(ResumeError, match="against itself"):
        read_csv(path, "medium", "medium")
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(ResumeError, match="not an arena CSV"):
        read_csv(other, "medium", "easy")
    with pytest.raises(ResumeError, match="Cannot read"):
        read_csv(tmp_path / "missing.csv", "medium", "easy")
    for text in ("notes\n", "a,b\n"):  # a header of other columns and no rows
        other.write_text(text, encoding="utf-8")
        with pytest.raises(ResumeError, match="not an arena CSV"):
            read_csv(other, "medium", "easy")
    other.write_text("", encoding="utf-8")  # empty: a run with no games yet
    assert read_csv(other, "medium", "easy") == []


def test_cli_resume_never_overwrites_a_file_that_is_not_the_arenas(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.csv"
    notes.write_text("my notes\n", encoding="utf-8")
    args = ["arena", "medium", "easy", "--games", "2", "--seed", "3", "--resume", str(notes)]
    assert main(args) == 2
    assert "not an arena CSV" in capsys.readouterr().err
    assert notes.read_text(encoding="utf-8") == "my notes\n"


def test_the_log_holds_each_game_as_soon_as_it_is_played(tmp_path: Path) -> None:
    path = tmp_path / "log.csv"
    results = run_arena("medium", "easy", 4, seed=20)
    log = CsvLog(path, "medium", "easy", results[:2])
    log.add(results[2:])  # flushed: readable before the log is closed
    assert [outcome(r) for r in read_csv(path, "medium", "easy")] == [outcome(r) for r in results]
    log.close()


def test_a_csv_is_replaced_whole_or_not_at_all(tmp_path: Path) -> None:
    """Stopped while the earlier games are written back (a resumed run's start) or while the
    file is rewritten in deal order (its end), the file stays as it was: no game is lost."""
    path = tmp_path / "run.csv"
    results = run_arena("medium", "easy", 4, seed=20)
    write_csv(path, results, "medium", "easy")
    before = path.read_text(encoding="utf-8")

    def stopped_after_one() -> Iterator[GameResult]:
        yield results[0]
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_csv(path, stopped_after_one(), "medium", "easy")
    with pytest.raises(KeyboardInterrupt):
        CsvLog(path, "medium", "easy", stopped_after_one())
    assert path.read_text(encoding="utf-8") == before
    assert [p.name for p in tmp_path.iterdir()] == ["run.csv"]  # nothing half-written beside


def test_a_csv_that_cannot_be_written_is_named_as_asked(tmp_path: Path) -> None:
    path = tmp_path / "no such folder" / "run.csv"
    with pytest.raises(FileNotFoundError) as caught:
        write_csv(path, [], "medium", "easy")
    assert caught.value.filename == str(path)


def test_cli_resume_continues_a_run_cut_short(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = tmp_path / "whole.csv"
    args = ["arena", "medium", "easy", "--games", "10", "--seed", "3"]
    assert main([*args, "--csv", str(whole)]) == 0
    full_out = capsys.readouterr().out
    cut = tmp_path / "cut.csv"
    lines = whole.read_text(encoding="utf-8").splitlines(keepends=True)
    cut.write_text("".join(lines[:6]), encoding="utf-8")  # the header, 2 deals and a half
    assert main([*args, "--resume", str(cut)]) == 0
    out = capsys.readouterr().out
    assert "4 games read from" in out and "6 played now" in out
    assert csv_outcomes(cut) == csv_outcomes(whole)
    for label in ("medium wins", "draws", "elo difference", "average turns"):
        line = next(line for line in full_out.splitlines() if label in line.lower())
        assert line in out


def test_cli_resume_refuses_a_file_of_other_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.csv"
    args = ["--games", "10", "--seed", "3"]
    assert main(["arena", "medium", "easy", *args, "--csv", str(path)]) == 0
    capsys.readouterr()
    # a file names only the winners, and Medium won some of these games
    assert main(["arena", "hard", "easy", *args, "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert "name the two bots that played these games" in err and "Traceback" not in err
    assert (
        main(["arena", "medium", "easy", "--games", "2", "--seed", "9", "--resume", str(path)]) == 2
    )
    assert "does not fit this run" in capsys.readouterr().err
