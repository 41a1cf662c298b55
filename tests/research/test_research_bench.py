"""The research-bench command runs every adapter and prints a line for each."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from spite_malice.cli import main


def test_research_bench_prints_every_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["research-bench", "--games", "2", "--runs", "1", "--rules", "quick"]) == 0
    out = capsys.readouterr().out
    for name in ("engine", "pettingzoo", "pettingzoo-raw", "gymnasium", "openspiel"):
        assert f"{name}:" in out
    assert "x the engine's time per game" in out


def test_research_bench_refuses_an_unknown_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["research-bench", "--only", "chess"]) == 2
    assert "unknown adapter 'chess'" in capsys.readouterr().out


def test_step_costs_replays_the_engines_games_through_each_adapter() -> None:
    from spite_malice.bench.research import step_costs
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
