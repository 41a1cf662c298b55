"""The sequential test and the Elo estimate: formulas against known answers, error rates on
simulated matches of known strength, and the arena's ``--sprt`` runs."""

from __future__ import annotations

import csv
import math
import random
from pathlib import Path

import pytest

from spite_malice.arena import run_arena, summarize
from spite_malice.arena.games import GameResult
from spite_malice.arena.sprt import (
    MIN_PAIRS,
    PAIR_SCORES,
    Sprt,
    elo_estimate,
    elo_to_score,
    estimate_elo,
    llr_pentanomial,
    llr_trinomial,
    parse_sprt,
    pentanomial,
    score_to_elo,
    sprt_bounds,
)
from spite_malice.arena.tournament import SprtState, run_sprt
from spite_malice.cli import main


def test_bounds_for_alpha_and_beta_of_five_percent() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-math.log(19)) and upper == pytest.approx(math.log(19))
    assert upper == pytest.approx(2.944, abs=1e-3)
    with pytest.raises(ValueError):
        sprt_bounds(0.0, 0.05)


def test_logistic_elo_round_trip() -> None:
    assert elo_to_score(0.0) == 0.5
    assert elo_to_score(400.0) == pytest.approx(10 / 11)
    assert score_to_elo(elo_to_score(60.0)) == pytest.approx(60.0)
    assert elo_to_score(60.0) == pytest.approx(0.5855, abs=1e-4)  # "about 58.5%" in issue 18
    assert score_to_elo(1.0) == math.inf and score_to_elo(0.0) == -math.inf


def test_pentanomial_llr_and_elo_of_a_published_test() -> None:
    # montytest's raw statistics of test 69d3c8dc7c5b3724e29d2712: pairs [13, 37, 50, 25, 3],
    # H1 at 2.716 logistic Elo: LLR -0.5596 (the "alt2" approximation, the one fishtest's
    # documents derive), Elo -43.6578, variance a pair 0.05762
    pairs = (13, 37, 50, 25, 3)
    assert llr_pentanomial(pairs, 0.0, 2.716) == pytest.approx(-0.55961, abs=2e-4)
    estimate = elo_estimate(pairs, PAIR_SCORES, paired=True)
    assert estimate.score == pytest.approx(0.4375)
    assert estimate.elo == pytest.approx(-43.6578, abs=1e-3)
    # the interval by hand: 0.4375 -+ 1.96 * sqrt(0.057617 / 128) in Elo
    error = math.sqrt(0.0576171875 / 128)
    assert estimate.low == pytest.approx(score_to_elo(0.4375 - 1.959964 * error), abs=1e-3)
    assert estimate.high == pytest.approx(score_to_elo(0.4375 + 1.959964 * error), abs=1e-3)
    assert estimate.low < estimate.elo < estimate.high < 0


def test_trinomial_llr_by_hand() -> None:
    # 60 wins, 20 draws, 20 losses: score 0.7; second moment 0.6 + 0.2 / 4 = 0.65, so the
    # variance a game is 0.65 - 0.49 = 0.16
    s1 = elo_to_score(10.0)
    expected = 100 * (s1 - 0.5) * (2 * 0.7 - 0.5 - s1) / (2 * 0.16)
    assert llr_trinomial(60, 20, 20, 0.0, 10.0) == pytest.approx(expected)
    assert expected == pytest.approx(1.7337, abs=1e-3)
    assert llr_trinomial(0, 0, 0, 0.0, 10.0) == 0.0


def test_a_pair_split_evenly_is_half_a_point() -> None:
    def game(seed: int, seat: int, winner: str | None) -> GameResult:
        return GameResult(seed, seat, winner, 3 if winner else 0, 80, "test")

    results = [
        game(1, 0, "A"),
        game(1, 1, "B"),  # 1 of 2: a half
        game(2, 0, "A"),
        game(2, 1, None),  # 1.5 of 2: three quarters
        game(3, 0, None),
        game(3, 1, None),  # draws: a half
        game(4, 0, "B"),
        game(4, 1, "B"),  # nothing
    ]
    assert pentanomial(results) == ((1, 0, 2, 1, 0), 0)
    assert estimate_elo(results).paired
    assert not estimate_elo(results[:3]).paired  # a deal played once: single games


def _simulate(test: Sprt, elo: float, rng: random.Random, max_pairs: int = 5000) -> str | None:
    """One sequential test on a simulated match: A's games are independent, 6% drawn, and
    score what ``elo`` says."""
    draw = 0.06
    win = elo_to_score(elo) - draw / 2
    counts = [0, 0, 0, 0, 0]
    for _ in range(max_pairs):
        points = 0
        for _game in range(2):
            r = rng.random()
            points += 2 if r < win else 1 if r < win + draw else 0
        counts[points] += 1
        decision = test.decision(counts)
        if decision is not None:
            return decision
    return None


def test_simulated_error_rates_are_those_asked_for() -> None:
    """At the H0 Elo the test accepts H1 about alpha of the time; at the H1 Elo, H0 about
    beta of the time (200 simulated tests each, a fixed seed); far from the bounds, it is
    right every time."""
    test = Sprt(0.0, 100.0)
    rng = random.Random(18)
    runs = 200
    at_h0 = [_simulate(test, 0.0, rng) for _ in range(runs)]
    at_h1 = [_simulate(test, 100.0, rng) for _ in range(runs)]
    assert None not in at_h0 and None not in at_h1
    assert at_h0.count("H1") / runs <= 0.09
    assert at_h1.count("H0") / runs <= 0.09
    assert all(_simulate(test, 300.0, rng) == "H1" for _ in range(50))
    assert all(_simulate(test, -150.0, rng) == "H0" for _ in range(50))


def test_no_decision_before_the_minimum_of_pairs() -> None:
    test = Sprt(0.0, 60.0)
    assert test.decision((0, 0, 0, 0, MIN_PAIRS - 1)) is None
    assert test.decision((0, 0, 0, 0, MIN_PAIRS)) == "H1"
    assert test.decision((MIN_PAIRS, 0, 0, 0, 0)) == "H0"


def test_parse_sprt_refuses_bad_bounds() -> None:
    assert parse_sprt("0,60") == (0.0, 60.0)
    assert parse_sprt("-10,20.5") == (-10.0, 20.5)
    for bad in ("60", "a,b", "60,0", "5,5"):
        with pytest.raises(ValueError, match="--sprt"):
            parse_sprt(bad)
    with pytest.raises(ValueError):
        Sprt(10.0, 0.0)


def test_run_sprt_stops_at_the_same_game_with_any_jobs() -> None:
    test = Sprt(0.0, 150.0)
    seen: list[SprtState] = []
    one, state = run_sprt("medium", "easy", test, 40, progress=seen.append)
    two, state_two = run_sprt("medium", "easy", test, 40, jobs=2)
    assert state.decision == "H1"  # Medium wins about 97% of decided games against Easy
    assert state == state_two
    assert [(r.seed, r.a_seat, r.winner) for r in one] == [
        (r.seed, r.a_seat, r.winner) for r in two
    ]
    assert len(one) == state.games == 2 * len(seen)
    assert seen[-1] == state and all(s.decision is None for s in seen[:-1])
    # the same deals played by the fixed-length arena give the same games
    fixed = run_arena("medium", "easy", len(one), 40)
    assert [(r.seed, r.winner) for r in fixed] == [(r.seed, r.winner) for r in one]


def test_run_sprt_stops_at_the_game_limit() -> None:
    results, state = run_sprt("easy", "easy", Sprt(0.0, 5.0), 50, max_games=10)
    assert len(results) == 10 and state.decision is None


def test_cli_arena_sprt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sprt.csv"
    status = main(
        ["arena", "medium", "easy", "--sprt", "0,150", "--seed", "40", "--csv", str(path)]
    )
    assert status == 0
    out = capsys.readouterr().out
    assert "LLR" in out and "H1 accepted" in out and "Elo difference" in out
    assert "20 games: LLR" in out  # printed as it goes, every 10 pairs
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert len(rows) % 2 == 0 and len(rows) >= 2 * MIN_PAIRS


def test_cli_arena_sprt_refuses_bad_bounds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "medium", "easy", "--sprt", "60,0"]) == 2
    assert "ELO1 must be above ELO0" in capsys.readouterr().err


def test_every_summary_has_an_elo_difference(capsys: pytest.CaptureFixture[str]) -> None:
    results = run_arena("medium", "easy", 20, seed=60)
    summary = summarize(results, "medium", "easy")
    assert summary.elo.paired and summary.elo.trials == 10
    assert summary.elo.low <= summary.elo.elo <= summary.elo.high
    assert main(["arena", "medium", "easy", "--games", "4"]) == 0
    assert "Elo difference" in capsys.readouterr().out
