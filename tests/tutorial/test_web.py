"""The tutorial's HTTP endpoints: the server runs the lesson, the page sends moves."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")

from fastapi.testclient import TestClient  # noqa: E402

from spite_malice.tutorial import LESSONS, PRACTICE_SEED, lesson_named  # noqa: E402
from spite_malice.web import create_app  # noqa: E402
from spite_malice.web.api import PLAYER_HEADER  # noqa: E402


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "web.db"))) as test_client:
        answer = test_client.post("/api/players", json={"name": "Ann"})
        assert answer.status_code == 201
        test_client.headers.update({PLAYER_HEADER: answer.json()["secret"]})
        yield test_client


def _lesson(client: TestClient, key: str, moves: list[str], move: str | None) -> dict[str, Any]:
    body: dict[str, Any] = {"moves": moves}
    if move is not None:
        body["move"] = move
    response = client.post(f"/api/tutorial/lessons/{key}", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_the_tutorial_needs_a_player(client: TestClient) -> None:
    response = client.get("/api/tutorial", headers={PLAYER_HEADER: "nobody"})
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "no_player"


def test_overview_lists_the_lessons_and_the_practice_game(client: TestClient) -> None:
    overview = client.get("/api/tutorial").json()
    assert [lesson["key"] for lesson in overview["lessons"]] == [each.key for each in LESSONS]
    assert overview["next"] == "payoff" and not overview["progress"]["offered"]
    assert overview["practice"] == {"level": "easy", "preset": "quick", "seed": PRACTICE_SEED}
    offered = client.post("/api/tutorial/offered").json()
    assert offered["progress"]["offered"]
    assert client.get("/api/tutorial").json()["progress"]["offered"]


@pytest.mark.parametrize("key", [lesson.key for lesson in LESSONS])
def test_each_lesson_plays_through_the_server_with_a_wrong_move_explained(
    client: TestClient, key: str
) -> None:
    lesson = lesson_named(key)
    start = _lesson(client, key, [], None)
    assert start["step"] == 0 and start["say"] == lesson.steps[0].say and start["attempt"] is None
    observation = start["state"]["observation"]
    assert observation["seat"] == 0 and "hand" not in observation["players"][1]  # R6.3
    assert "stock" not in observation
    assert lesson.steps[0].example in start["legal_moves"]
    assert start["show"]["move"] == lesson.steps[0].example
    assert start["show"]["text"].startswith("Show me: ")
    wrong = next(m for m in start["legal_moves"] if m != lesson.steps[0].example)
    refused = _lesson(client, key, [], wrong)
    step = lesson.steps[0]
    run_game = lesson.start()
    if not step.goal(run_game, next(m for m in run_game.legal_moves() if m.notation == wrong)):
        assert refused["attempt"]["accepted"] is False
        assert refused["attempt"]["text"]
        assert refused["moves"] == [] and refused["state"] == start["state"]
    moves: list[str] = []
    answer = start
    for example in lesson.examples:
        answer = _lesson(client, key, moves, example)
        assert answer["attempt"]["accepted"], answer["attempt"]["text"]
        moves = answer["moves"]
    assert answer["finished"] and answer["legal_moves"] == [] and answer["show"] is None
    overview = client.get("/api/tutorial").json()
    assert overview["progress"]["finished"] == [key]


def test_moves_that_do_not_replay_are_refused(client: TestClient) -> None:
    response = client.post("/api/tutorial/lessons/payoff", json={"moves": ["H8-S1"]})
    assert response.status_code == 422
    assert "do not replay" in response.json()["error"]["message"]
    assert client.post("/api/tutorial/lessons/nothing", json={}).status_code == 404
    too_many = client.post("/api/tutorial/lessons/payoff", json={"moves": ["P-C1"] * 65})
    assert too_many.status_code == 422
    odd = client.post("/api/tutorial/lessons/payoff", json={"moves": [], "move": 3})
    assert odd.status_code == 422


def test_saving_settings_keeps_the_tutorial_progress(client: TestClient) -> None:
    _lesson(client, "score", [], "P-C1")
    saved = client.put("/api/settings", json={"player": "Ann", "animation_speed": "fast"})
    assert saved.status_code == 200, saved.text
    assert client.get("/api/tutorial").json()["progress"]["finished"] == ["score"]


def test_the_practice_game_is_a_seeded_practice_room_against_easy(client: TestClient) -> None:
    practice = client.get("/api/tutorial").json()["practice"]
    response = client.post("/api/rooms", json={"mode": "computer", **practice})
    assert response.status_code == 201, response.text
    room = client.app.state.lobby.rooms[response.json()["room"]]  # type: ignore[attr-defined]
    assert room.table.meta.practice and room.table.level == "easy"
    assert room.table.match.seed == PRACTICE_SEED and room.table.rules.payoff_size == 10
