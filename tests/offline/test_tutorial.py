"""The tutorial's answers (web-protocol 2.5) come from one module, spite_malice.tutorial.answers,
which the server's endpoint and the page's offline engine both call: here its lessons play to
their end through the offline engine's entry point, as the page plays them with no network."""

from __future__ import annotations

import json

from spite_malice.offline.bridge import Bridge
from spite_malice.tutorial import LESSONS, LessonRun
from spite_malice.tutorial.answers import answer
from spite_malice.web import tutorial as web_tutorial


def _lesson(bridge: Bridge, key: str, moves: list[str], move: str | None) -> dict[str, object]:
    body = json.dumps({"moves": moves, "move": move})
    found: dict[str, object] = json.loads(bridge.lesson(key, body, None))
    return found


def test_every_lesson_plays_to_its_end_in_the_offline_engine() -> None:
    bridge = Bridge()
    for lesson in LESSONS:
        moves: list[str] = []
        reply = _lesson(bridge, lesson.key, moves, None)
        for _ in range(50):
            if reply["finished"]:
                break
            shown = reply["show"]
            assert isinstance(shown, dict)
            move = shown["move"]
            run = LessonRun.replay(lesson, moves)
            expected = answer(run, run.attempt(move))
            reply = _lesson(bridge, lesson.key, moves, move)
            assert reply == json.loads(json.dumps(expected))
            assert isinstance(reply["moves"], list)
            moves = reply["moves"]
        assert reply["finished"], lesson.key


def test_the_server_answers_with_the_same_module() -> None:
    assert web_tutorial.answer is answer


def test_a_wrong_move_is_explained_and_an_unknown_lesson_refused() -> None:
    bridge = Bridge()
    first = LESSONS[0]
    start = _lesson(bridge, first.key, [], None)
    shown = start["show"]
    assert isinstance(shown, dict) and isinstance(start["legal_moves"], list)
    wrong = next(m for m in start["legal_moves"] if m != shown["move"])
    attempt = _lesson(bridge, first.key, [], wrong)["attempt"]
    assert isinstance(attempt, dict) and attempt["text"]
    assert _lesson(bridge, "no-such-lesson", [], None)["error"] == {
        "code": "unknown_lesson",
        "message": "There is no such lesson.",
    }
    invalid = _lesson(bridge, first.key, ["P-C9"], None)["error"]
    assert isinstance(invalid, dict) and invalid["code"] == "invalid"
