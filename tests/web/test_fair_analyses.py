"""The analysis queue is fair between players (``web-protocol.md`` 2.8): one player asking
for the analyses of ten games gets one started and a plain "wait for it" for the others,
and another player's analysis is queued and served meanwhile (9 requests of one player
filled the queue and everyone else got ``503 busy``); a game asked again is answered from
its report, not analysed twice."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spite_malice.analysis import Settings
from spite_malice.engine import GameRecord
from spite_malice.web import analyses
from spite_malice.web.analyses import AnalysisService
from waiting import wait_for

from .conftest import new_player
from .test_replays import finished_game

FAST = Settings(samples=2, horizon=1, candidates=2)
DEADLINE_S = 180.0
FLOOD = 10


def _done(client: TestClient, path: str, headers: dict[str, str]) -> dict[str, Any]:
    def over() -> dict[str, Any] | None:
        status: dict[str, Any] = client.get(path, headers=headers).json()
        return status if status.get("state") in ("done", "failed") else None

    return wait_for(over, DEADLINE_S, 0.1, "the analysis to finish")


def test_one_players_flood_leaves_anothers_analysis_served(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    finished_game(client)
    entry = client.get("/api/games").json()["games"][0]
    record = GameRecord.from_json(client.get(f"/api/games/{entry['id']}/record").json())
    # every game id is a finished game of the asker's (the flooder needs no ten real games)
    monkeypatch.setattr(analyses, "game_record", lambda store, player, game: (record, 0))
    ran: list[tuple[int, int]] = []
    service = AnalysisService(FAST, use_process=False)
    running = service._run_here
    release = threading.Event()  # the analyses wait until both players have asked

    def run(task: analyses.AnalysisTask) -> None:
        assert release.wait(DEADLINE_S)
        ran.append(task.key)
        running(task)

    monkeypatch.setattr(service, "_run_here", run)
    client.app.state.analyses = service  # type: ignore[attr-defined]
    flooder = dict(client.headers)
    answers = [client.post(f"/api/games/{n + 1}/analysis") for n in range(FLOOD)]
    assert answers[0].status_code == 202
    assert {a.status_code for a in answers[1:]} == {429}
    assert {a.json()["error"]["code"] for a in answers[1:]} == {"analysis_running"}
    other = new_player(client, "bob")
    theirs = client.post("/api/games/500/analysis", headers=other)
    assert theirs.status_code == 202, theirs.text
    release.set()
    assert _done(client, "/api/games/500/analysis", other)["state"] == "done"
    assert _done(client, "/api/games/1/analysis", flooder)["state"] == "done"
    # asked again, a finished game is answered from its report, not analysed again
    again = client.post("/api/games/1/analysis", headers=flooder)
    assert again.status_code == 202 and again.json()["state"] == "done"
    assert sorted(ran) == [(1, 0), (500, 0)]
    # and the flooder's next game is taken now that the first is done
    assert client.post("/api/games/2/analysis", headers=flooder).status_code == 202
    service.close()
