"""An analysis in the background: progress, cancellation, failure, and its state as JSON."""

from __future__ import annotations

import json

from spite_malice.analysis import AnalysisJob, Settings, analyse_record, record_decisions
from spite_malice.engine import GameRecord

from .test_analysis import short_record

SMALL = Settings(samples=2, horizon=1, candidates=2)


def test_a_job_gives_the_same_report_as_a_direct_analysis() -> None:
    record = short_record(turns=6)
    seen: list[tuple[int, int]] = []
    job = AnalysisJob(record, 0, SMALL, on_progress=lambda d, n: seen.append((d, n)))
    assert job.status() == {"state": "waiting", "done": 0, "total": 0}
    assert job.start() is job
    assert job.wait(600)
    assert job.state == "done"
    assert job.report == analyse_record(record, 0, settings=SMALL)
    total = len(record_decisions(record, 0))
    assert job.progress == (total, total)
    assert seen == [(done, total) for done in range(total + 1)]
    status = json.loads(json.dumps(job.status()))
    assert status["state"] == "done" and status["report"] == job.report.to_json()


def test_a_job_cancelled_midway_stops_without_a_report() -> None:
    record = short_record(turns=6)
    holder: list[AnalysisJob] = []

    def cancel_after_first(done: int, total: int) -> None:
        if done == 1:
            holder[0].cancel()

    job = AnalysisJob(record, 0, SMALL, on_progress=cancel_after_first)
    holder.append(job)
    job.run()
    assert job.state == "cancelled"
    assert job.report is None
    assert job.progress[0] == 1
    assert job.status()["state"] == "cancelled"


def test_a_job_cancelled_before_it_starts_never_analyses() -> None:
    job = AnalysisJob(short_record(turns=6), 0, SMALL)
    job.cancel()
    job.start()
    assert job.wait(600)
    assert job.state == "cancelled"
    assert job.progress[0] == 0


def test_a_bad_record_fails_with_a_sentence() -> None:
    record = short_record(turns=4)
    broken = GameRecord(seed=record.seed, moves=(*record.moves[:2], "HQ-C3"))
    job = AnalysisJob(broken, 0, SMALL)
    job.run()
    assert job.state == "failed"
    assert "invalid game record: move 3" in job.error
    assert job.status()["error"] == job.error
    assert job.report is None
