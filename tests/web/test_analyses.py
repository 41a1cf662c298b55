"""Analysis in the page (issue 14 item 3): started for a finished game, run in a child
process with progress, its report the library's own, and nothing in it the seat did not see."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from spite_malice.analysis import Settings, analyse_record
from spite_malice.engine import Game, GameRecord
from spite_malice.engine.cards import card_str
from spite_malice.web import analyses
from spite_malice.web.analyses import AnalysisService, Busy
from waiting import wait_for

from .conftest import card_strings, new_player
from .test_replays import finished_game

FAST = Settings(samples=2, horizon=1, candidates=2)
DEADLINE_S = 180.0


def seen_by(record: GameRecord, seat: int) -> set[str]:
    """Every card the seat saw during the game (its hands and every face-up card)."""
    game = Game.new(record.seed, record.rules, first=record.first)
    seen = {card_str(c) for c in game.observation(seat).visible_cards()}
    for move in record.moves:
        game.play(move)
        seen |= {card_str(c) for c in game.observation(seat).visible_cards()}
    return seen


def wait_done(client: TestClient, path: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Poll the analysis until it is over (a deadline, no timing assertion); every status seen."""
    seen: list[dict[str, Any]] = []

    def over() -> bool:
        seen.append(client.get(path).json())
        return seen[-1]["state"] in ("done", "failed")

    try:
        wait_for(over, DEADLINE_S, 0.1, "the analysis to finish")
    except AssertionError:
        raise AssertionError(f"the analysis did not finish: {seen[-1]}") from None
    return seen[-1], seen


def test_the_analysis_runs_in_the_background_with_progress_and_the_librarys_report(
    client: TestClient,
) -> None:
    client.app.state.analysis_settings = FAST  # type: ignore[attr-defined]
    finished_game(client)
    entry = client.get("/api/games").json()["games"][0]
    path = f"/api/games/{entry['id']}/analysis"
    assert client.get(path).json()["error"]["code"] == "no_analysis"
    started = client.post(path)
    assert started.status_code == 202
    assert started.json()["state"] in ("waiting", "running")
    assert client.post(path).json()["state"] in ("waiting", "running", "done")  # the same one
    status, seen = wait_done(client, path)
    assert status["state"] == "done", status
    assert status["done"] == status["total"] > 0
    # progress only grows, and is out of the same total
    counts = [s["done"] for s in seen if s["state"] in ("running", "done") and s["total"]]
    assert counts == sorted(counts)
    report = status["report"]
    record = GameRecord.from_json(client.get(f"/api/games/{entry['id']}/record").json())
    assert report == analyse_record(record, entry["seat"], settings=FAST).to_json()
    assert report["seat"] == entry["seat"] and len(report["worst"]) <= 3
    # R6.3: nothing in the report is a card the seat never saw
    text = client.get(path).text
    assert card_strings(text) <= seen_by(record, entry["seat"])


def test_only_the_games_player_can_ask_and_a_bad_id_is_refused(client: TestClient) -> None:
    client.app.state.analysis_settings = FAST  # type: ignore[attr-defined]
    finished_game(client)
    entry = client.get("/api/games").json()["games"][0]
    other = new_player(client, "mallory")
    refused = client.post(f"/api/games/{entry['id']}/analysis", headers=other)
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "unknown_game"
    assert client.post("/api/games/0/analysis").status_code == 404
    assert client.post("/api/games/abc/analysis").status_code == 422


def test_the_queue_is_bounded_and_says_who_is_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    service = AnalysisService(FAST, use_process=False)
    monkeypatch.setattr(service, "_worker", object())  # no worker: everything stays queued
    record = GameRecord(seed=1, moves=())
    for game in range(analyses.MAX_WAITING):
        service.submit((game + 1, 0), record, 0)
    statuses = [service.status((game + 1, 0)) for game in range(analyses.MAX_WAITING)]
    assert [s["ahead"] for s in statuses if s] == list(range(analyses.MAX_WAITING))
    assert service.submit((1, 0), record, 0).key == (1, 0)  # asked again: the same task
    with pytest.raises(Busy):
        service.submit((99, 0), record, 0)


def test_a_failing_analysis_says_so_in_a_sentence() -> None:
    service = AnalysisService(FAST, use_process=True)
    broken = GameRecord(seed=1, moves=("P-S1",))  # a record whose moves do not replay
    task = service.submit((1, 0), broken, 0)
    assert task.finished.wait(DEADLINE_S)
    status = service.status((1, 0))
    assert status is not None and status["state"] == "failed"
    assert status["error"] == "This game could not be analysed."
    service.close()
