"""The arena: paired games, forfeits by misbehaving bots, statistics, ratings, the CLI."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from spite_malice.arena import fit_elo, percentile, play_game, run_arena, summarize
from spite_malice.arena.games import FORFEIT
from spite_malice.arena.ratings import expected_score
from spite_malice.arena.report import summary_markdown, summary_rows
from spite_malice.arena.stats import wilson_interval
from spite_malice.bot_registry import make_bot, register_bot
from spite_malice.bots import Bot, BotError
from spite_malice.cli import main
from spite_malice.engine import Move, Observation, parse_move


class Crasher(Bot):
    """Fails with a BotError on its third decision, as an outside program does."""

    name = "Crasher"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.calls = 0

    def choose(self, observation: Observation) -> Move:
        self.calls += 1
        if self.calls == 3:
            raise BotError(self.name, "answered 'banana', not a move")
        return observation.legal_moves[-1]


class Raiser(Bot):
    name = "Raiser"

    def choose(self, observation: Observation) -> Move:
        raise RuntimeError("division by zero somewhere")


class Cheater(Bot):
    """Builds on a center stack whatever it holds."""

    name = "Cheater"

    def choose(self, observation: Observation) -> Move:
        for text in ("HQ-C1", "HJ-C1", "HT-C1", "H9-C1", "H8-C2", "H7-C3"):
            move = parse_move(text)
            if move not in observation.legal_moves:
                return move
        return parse_move("P-C4")


register_bot("test-crasher", Crasher)


@pytest.mark.parametrize("bad", [Crasher, Raiser, Cheater])
@pytest.mark.parametrize("a_seat", [0, 1])
def test_a_misbehaving_bot_loses_the_game_with_the_reason(bad: type[Bot], a_seat: int) -> None:
    result = play_game(make_bot("medium", 1), bad(), 5, a_seat)
    assert result.forfeit == "B"
    assert result.winner == "A"
    assert result.reason.startswith(FORFEIT)
    expected = {Crasher: "banana", Raiser: "RuntimeError", Cheater: "illegal move"}[bad]
    assert expected in result.reason


def test_the_arena_goes_on_after_a_forfeit() -> None:
    results = run_arena("test-crasher", "easy", 6, seed=10)
    assert len(results) == 6
    summary = summarize(results, "test-crasher", "easy")
    assert summary.losses == 6
    assert summary.failures and "banana" in summary.failures[0][0]
    assert summary.failures[0][1] == 6


def test_paired_deals_swap_seats_and_jobs_do_not_change_results() -> None:
    one = run_arena("easy", "medium", 6, seed=20)
    two = run_arena("easy", "medium", 6, seed=20, jobs=2)
    assert [(r.seed, r.a_seat) for r in one] == [
        (20, 0),
        (20, 1),
        (21, 0),
        (21, 1),
        (22, 0),
        (22, 1),
    ]
    strip = [(r.seed, r.a_seat, r.winner, r.points, r.turns, r.reason) for r in one]
    assert strip == [(r.seed, r.a_seat, r.winner, r.points, r.turns, r.reason) for r in two]
    summary = summarize(one, "easy", "medium")
    assert summary.games == 6
    assert summary.wins + summary.losses + summary.draws == 6
    assert summary.times_a.decisions > 0


def test_a_bot_against_itself_is_told_apart_in_the_summary() -> None:
    results = run_arena("easy", "easy", games=2, seed=3, jobs=1)
    summary = summarize(results, "easy", "easy")
    labels = [label for label, _ in summary_rows(summary)]
    assert len(labels) == len(set(labels)), labels  # no row said twice
    assert "Easy (A) wins" in labels and "Easy (B) wins" in labels
    assert summary_markdown(summary).startswith("### Easy (A) v Easy (B)")
    # two different bots keep their plain names
    other = summarize(results, "easy", "medium")
    assert "Easy wins" in [label for label, _ in summary_rows(other)]


def test_wilson_interval() -> None:
    low, high = wilson_interval(70, 100)
    assert 0.60 < low < 0.61 and 0.78 < high < 0.79
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0) and 0.7 < low < 0.75


def test_percentile() -> None:
    assert percentile([], 95) == 0.0
    assert percentile([3.0], 50) == 3.0
    assert percentile([1.0, 2.0, 3.0, 4.0, 5.0], 50) == 3.0
    assert percentile(list(map(float, range(101))), 95) == pytest.approx(95.0)


def test_elo_orders_the_bots_and_matches_the_win_rate() -> None:
    ratings = fit_elo({("a", "b"): (75, 25, 0), ("b", "c"): (75, 25, 0), ("a", "c"): (90, 10, 0)})
    assert ratings["a"] > ratings["b"] > ratings["c"]
    assert sum(ratings.values()) / 3 == pytest.approx(1500.0)
    assert 0.6 < expected_score(ratings["a"], ratings["b"]) < 0.85
    one_sided = fit_elo({("x", "y"): (10, 0, 0)})
    assert one_sided["x"] > one_sided["y"]


def test_cli_arena_with_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.csv"
    status = main(["arena", "easy", "medium", "--games", "4", "--seed", "3", "--csv", str(path)])
    assert status == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "95% CI" in out and "time per decision" in out
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert len(rows) == 4
    assert {row["seat"] for row in rows} == {"0", "1"}
    assert set(rows[0]) == {
        "seed",
        "seat",
        "winner",
        "points",
        "turns",
        "time_a",
        "time_b",
        "reason",
    }


def test_cli_ladder_writes_markdown_and_png(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(
        [
            "ladder",
            "--games",
            "2",
            "--expert-budget",
            "0.005",
            "--jobs",
            "2",
            "--out",
            str(tmp_path),
        ]
    )
    assert status == 0
    out = capsys.readouterr().out
    assert "Elo" in out and "Expert" in out
    markdown = (tmp_path / "ladder.md").read_text(encoding="utf-8")
    assert "| rank | bot | Elo |" in markdown
    assert markdown.count("| Easy |") >= 1
    png = (tmp_path / "ladder.png").read_bytes()
    assert png.startswith(b"\x89PNG")


def _broken_program(seed: int | None) -> Bot:
    raise BotError("./broken", "the program could not be started")


register_bot("test-broken", _broken_program)


def test_a_bot_that_cannot_start_loses_its_games() -> None:
    results = run_arena("easy", "test-broken", 4, seed=30)
    assert [r.winner for r in results] == ["A"] * 4
    assert all("could not be started" in r.reason for r in results)


def test_cli_arena_refuses_an_unknown_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "easy", "grandmaster", "--games", "2"]) == 2
    assert "unknown bot 'grandmaster'" in capsys.readouterr().err
