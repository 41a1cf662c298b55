"""The research speed benchmark (``benchmarks/research.py``) runs every adapter and prints a
line for each."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from bench.research import main


def test_research_bench_prints_every_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "2", "--runs", "1", "--rules", "quick"]) == 0
    out = capsys.readouterr().out
    for name in ("engine", "pettingzoo", "pettingzoo-raw", "gymnasium", "openspiel"):
        assert f"{name}:" in out
    assert "x the engine's time per game" in out


def test_research_bench_refuses_an_unknown_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--only", "chess"]) == 2
    assert "unknown adapter 'chess'" in capsys.readouterr().out


def test_step_costs_replays_the_engines_games_through_each_adapter() -> None:
    from bench.research import step_costs
    from spite_malice.engine import Rules

    costs = step_costs(4, 1, Rules.QUICK)
    assert set(costs) == {
        "engine apply",
        "engine reference_move",
        "pettingzoo env() own cost",
        "pettingzoo raw_env() own cost",
        "gymnasium own cost",
        "agent first_fit_from_mask",
        "agent nonzero + first_fit_action",
    }
    assert costs["engine apply"] > 0 and costs["agent first_fit_from_mask"] > 0


def test_openspiel_compare_runs_both_trees_alternately(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pathlib import Path

    from bench import openspiel_compare

    tree = Path(openspiel_compare.__file__).resolve().parents[2]  # the tree holding src/
    runs = openspiel_compare.compare(tree, tree, games=1, seed=3, rounds=2)
    assert [len(runs["old"]), len(runs["new"])] == [2, 2]
    assert all(moves > 0 and seconds > 0 for moves, seconds in runs["old"] + runs["new"])
    assert runs["old"][0][0] == runs["new"][0][0]  # the same seed plays the same game
    assert (
        openspiel_compare.main(
            ["--old", str(tree), "--new", str(tree), "--games", "1", "--rounds", "1"]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "old: moves per CPU second" in out and "new per-move CPU cost vs old:" in out
