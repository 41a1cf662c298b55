"""The tutorial in the offline engine answers as the server does (web-protocol 2.5)."""

from __future__ import annotations

from spite_malice.offline.tutorial import lesson_answer
from spite_malice.tutorial import LESSONS, LessonRun
from spite_malice.web.tutorial import _answer as server_answer


def test_every_lesson_plays_to_its_end_answering_as_the_server() -> None:
    for lesson in LESSONS:
        moves: list[str] = []
        answer = lesson_answer(lesson.key, moves, None)
        for _ in range(50):
            if answer["finished"]:
                break
            move = answer["show"]["move"]
            run = LessonRun.replay(lesson, moves)
            expected = server_answer(run, run.attempt(move))
            answer = lesson_answer(lesson.key, moves, move)
            assert answer == expected
            moves = answer["moves"]
        assert answer["finished"], lesson.key


def test_a_wrong_move_is_explained_and_an_unknown_lesson_refused() -> None:
    first = LESSONS[0]
    start = lesson_answer(first.key, [], None)
    wrong = next(m for m in start["legal_moves"] if m != start["show"]["move"])
    answer = lesson_answer(first.key, [], wrong)
    assert answer["attempt"]["text"]
    assert lesson_answer("no-such-lesson", [], None)["error"]["code"] == "unknown_lesson"
    assert lesson_answer(first.key, ["P-C9"], None)["error"]["code"] == "invalid"
