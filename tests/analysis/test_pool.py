"""Valuing decisions faster: the adaptive valuation stops early on the same deals, and the
decisions of a game valued in helper processes give the same report as in one process."""

from __future__ import annotations

import io
import pickle
import subprocess
import sys
from typing import Any

import pytest

import spite_malice.analysis.pool as pool
from spite_malice.analysis import (
    AnalysisCancelled,
    Settings,
    analyse_game,
    analyse_record,
    judge_decision,
    record_decisions,
    seat_decisions,
)
from spite_malice.bot_registry import make_bot
from spite_malice.engine import Game, GameRecord

from . import positions as P

SMALL = Settings(samples=16, horizon=1, candidates=3)


def medium_record(turns: int) -> GameRecord:
    game = Game.new(7)
    bots = [make_bot("medium", 1), make_bot("hard", 2)]
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    while not game.is_over and game.turn <= turns:
        game.play(bots[game.to_move].choose(game.observation(game.to_move)))
    return GameRecord.from_game(game, ("Ann", "Hard"))


def test_a_clear_mistake_is_settled_before_the_last_deal() -> None:
    start = P.game(P.missed_payoff())
    (decision,) = seat_decisions(start, ["H9-S1"], 0)
    settings = Settings(samples=64, horizon=2, candidates=3)
    quick = judge_decision(decision, settings)
    assert 2 <= quick.samples < 64
    assert quick.best.moves != decision.moves and quick.lost(settings.z) >= 0.5
    full = judge_decision(decision, Settings(samples=64, horizon=2, candidates=3, adaptive=False))
    assert full.samples == 64
    assert all(choice.samples == 64 for choice in full.choices)
    assert full.best.moves == quick.best.moves


def test_an_early_stop_saw_the_first_deals_of_the_full_valuation() -> None:
    """The deals are drawn in the same order either way: the choices valued to the end of an
    adaptive valuation have the gains a full valuation on that many deals gives them."""
    start = P.game(P.buried_card())
    moves = ["HA-C2", "H2-C2", "H3-C2", "H4-C2", "H9-S2"]
    (decision,) = seat_decisions(start, moves, 0)
    quick = judge_decision(decision, Settings(samples=40, horizon=2, candidates=4))
    full = judge_decision(
        decision, Settings(samples=quick.samples, horizon=2, candidates=4, adaptive=False)
    )
    gains = {c.moves: (c.gain, c.error) for c in full.choices}
    kept = [c for c in quick.choices if c.samples == quick.samples]
    assert kept and any(c.is_played for c in kept)
    for choice in kept:
        assert gains[choice.moves] == pytest.approx((choice.gain, choice.error))
    dropped = [c for c in quick.choices if c.samples < quick.samples]
    assert all(c.samples >= 2 for c in dropped)


def test_settings_say_whether_the_valuation_is_adaptive() -> None:
    assert Settings().adaptive is True
    assert Settings.from_json(Settings(adaptive=False).to_json()) == Settings(adaptive=False)
    with pytest.raises(ValueError, match="adaptive must be true or false"):
        Settings(adaptive=1)  # type: ignore[arg-type]


def test_helpers_give_the_same_report_as_one_process() -> None:
    record = medium_record(30)
    assert len(record_decisions(record, 0)) >= pool.MIN_PARALLEL
    calls: list[tuple[int, int]] = []
    alone = analyse_record(record, 0, settings=SMALL, workers=1)
    shared = analyse_record(
        record, 0, settings=SMALL, workers=2, progress=lambda d, n: calls.append((d, n))
    )
    assert shared == alone
    total = len(record_decisions(record, 0))
    assert calls == [(done, total) for done in range(total + 1)]


def test_a_helper_that_fails_loses_no_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    record = medium_record(30)
    started: list[subprocess.Popen[bytes]] = []

    def broken(_settings: Settings) -> subprocess.Popen[bytes]:
        # a helper that reads its first decision and dies without answering
        code = "import sys; sys.stdin.buffer.read(1)"
        process = subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        started.append(process)
        return process

    monkeypatch.setattr(pool, "_start_helper", broken)
    shared = analyse_record(record, 0, settings=SMALL, workers=3)
    assert len(started) == 2
    assert shared == analyse_record(record, 0, settings=SMALL, workers=1)
    assert all(process.poll() is not None for process in started)


def test_a_stopped_analysis_leaves_no_helper_running(monkeypatch: pytest.MonkeyPatch) -> None:
    record = medium_record(30)
    started: list[subprocess.Popen[bytes]] = []
    real = pool._start_helper

    def watched(settings: Settings) -> Any:
        process = real(settings)
        assert process is not None
        started.append(process)
        return process

    monkeypatch.setattr(pool, "_start_helper", watched)
    judged = 0

    def progress(done: int, _total: int) -> None:
        nonlocal judged
        judged = done

    with pytest.raises(AnalysisCancelled):
        analyse_record(
            record, 0, settings=SMALL, workers=2, progress=progress, should_stop=lambda: judged >= 3
        )
    assert len(started) == 1
    assert all(process.poll() is not None for process in started)


def test_a_short_game_is_valued_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(_settings: Settings) -> None:
        raise AssertionError("no helper for a short game")

    monkeypatch.setattr(pool, "_start_helper", refused)
    start = P.game(P.missed_payoff())
    report = analyse_game(start, ["H9-S1"], 0, settings=SMALL, workers=4)
    assert report.turns


def test_a_helper_answers_each_decision_it_reads() -> None:
    """The helper's side of the pipe (``python -m spite_malice.analysis.worker``), in this
    process: the settings, then decisions; an answer for each, then it stops at the end."""
    decisions = record_decisions(medium_record(8), 0)[:2]
    sent = io.BytesIO()
    pickle.dump(SMALL, sent)
    for index, decision in enumerate(decisions):
        pickle.dump((index, decision), sent)
    sent.seek(0)
    answers = io.BytesIO()
    pool.worker_main(sent, answers)
    answers.seek(0)
    for index, decision in enumerate(decisions):
        expected = judge_decision(decision, SMALL)
        assert pickle.load(answers) == (index, expected.choices, expected.samples)
    with pytest.raises(EOFError):
        pickle.load(answers)
