"""``benchmarks/arena_compare.py``: arena runs read back from their CSV files, added up or
compared deal by deal, on runs made up so that the answer is known."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.arena_compare import compare, main, read_run
from spite_malice.arena.games import GameResult
from spite_malice.arena.report import write_csv

OUTCOMES = {"W": "A", "L": "B", "D": None}


def games(first_deal: int, pattern: str) -> list[GameResult]:
    """Games of bot A from ``pattern``, two letters a deal (W won, L lost, D drawn), the
    first for seat 0."""
    return [
        GameResult(
            first_deal + k // 2,
            k % 2,
            OUTCOMES[letter],
            0 if letter == "D" else 2,
            50,
            "made up",
        )
        for k, letter in enumerate(pattern)
    ]


def written(path: Path, pattern: str, first_deal: int = 100, names: str = "new hard") -> Path:
    name_a, name_b = names.split()
    write_csv(path, games(first_deal, pattern), name_a, name_b)
    return path


def test_runs_in_several_files_add_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = written(tmp_path / "one.csv", "WWWL", first_deal=100)
    two = written(tmp_path / "two.csv", "WDLL", first_deal=102)
    run = read_run("new", "hard", [one, two])
    assert [r.seed for r in run.games] == [100, 100, 101, 101, 102, 102, 103, 103]
    summary = run.summary()
    assert (summary.wins, summary.losses, summary.draws) == (4, 3, 1)
    assert main(["--run", "new", "hard", str(one), str(two)]) == 0
    out = capsys.readouterr().out
    assert "8 games (4 deals): new 4, hard 3, 1 draws (12.5%)" in out
    assert "new wins 57.1% of decided games" in out


def test_a_run_is_compared_with_another_deal_by_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # deal 100: LL then WW (+1 a game); 101: WD then WW (+0.25); 102: DW then LW (-0.25);
    # 103 only in the new run, left out
    new = written(tmp_path / "new.csv", "WWWWLWWW", names="new hard")
    old = written(tmp_path / "old.csv", "LLWDDW", names="old hard")
    change = compare(read_run("new", "hard", [new]), read_run("old", "hard", [old]))
    assert change.deals == 3
    assert (change.better, change.worse) == (3, 1)
    assert change.mean == pytest.approx(1 / 3)
    changes = [1.0, 0.25, -0.25]
    spread = sum((c - 1 / 3) ** 2 for c in changes) / 2
    assert change.error == pytest.approx((spread / 3) ** 0.5)
    assert main(["--run", "new", "hard", str(new), "--against", "old", "hard", str(old)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("new v hard, 6 games (3 deals): new 5, hard 1, 0 draws")
    assert lines[1].startswith("old v hard, 6 games (3 deals): old 2, hard 2, 2 draws")
    assert (
        "the 3 deals both played: 3 games ended better, 1 worse; its score a game +0.333"
        in (lines[2])
    )


def test_a_run_that_cannot_be_read_is_refused_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = written(tmp_path / "one.csv", "WL", first_deal=100)
    again = written(tmp_path / "again.csv", "LL", first_deal=100)
    assert main(["--run", "new", "hard", str(one), str(again)]) == 2
    assert "Deal 100 is in both" in capsys.readouterr().err
    assert main(["--run", "other", "hard", str(one)]) == 2
    assert "not one of other and hard" in capsys.readouterr().err
    far = written(tmp_path / "far.csv", "WL", first_deal=900, names="old hard")
    assert main(["--run", "new", "hard", str(one), "--against", "old", "hard", str(far)]) == 2
    assert "no deal in common" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--run", "new", str(one)])
    assert "takes the two bots, then at least one arena CSV file" in capsys.readouterr().err
