"""A lesson's answer as the page draws it (``web-protocol.md`` 2.5,
``POST /api/tutorial/lessons/<key>``): the learner's view of the table, what is legal, what to
do and what became of the move tried. The server's endpoint and the page's offline engine
(Pyodide, with no server) both answer with these functions, so this module uses nothing but
the tutorial and the translations (no web framework, no pydantic).
"""

from __future__ import annotations

from typing import Any

from ..i18n import _
from .errors import TutorialError
from .lesson import Attempt, LessonRun
from .lessons import LESSONS, lesson_named


def lesson_answer(key: str, moves: list[str], move: str | None) -> dict[str, Any]:
    """Replay lesson ``key``'s accepted ``moves``, try ``move``; the page's answer, or
    ``{"error": {"code", "message"}}``."""
    try:
        chosen = lesson_named(key)
    except TutorialError:
        return {"error": {"code": "unknown_lesson", "message": _("There is no such lesson.")}}
    try:
        run = LessonRun.replay(chosen, moves)
    except TutorialError:
        message = _("These moves do not replay in the lesson: start it again.")
        return {"error": {"code": "invalid", "message": message}}
    attempt = run.attempt(move) if move is not None else None
    return answer(run, attempt)


def answer(run: LessonRun, attempt: Attempt | None) -> dict[str, Any]:
    """What the page draws of a lesson run and the move just tried."""
    lesson = run.lesson
    number = LESSONS.index(lesson) + 1
    observation = run.game.observation(0).to_json()  # the learner's seat only (R6.3)
    following = LESSONS[number].key if number < len(LESSONS) else None
    shown = run.show_me()
    return {
        "lesson": {
            "key": lesson.key,
            "number": number,
            "count": len(LESSONS),
            "title": lesson.title,
            "intro": lesson.intro,
            "steps": len(lesson.steps),
            "next": following,
        },
        "step": run.index,
        "say": run.instruction,
        "finished": run.is_finished,
        "moves": list(run.moves),
        "legal_moves": [move.notation for move in run.legal_moves()],
        "state": {"observation": observation},
        "show": None if shown is None else {"move": shown[0].notation, "text": shown[1]},
        "attempt": None
        if attempt is None
        else {
            "accepted": attempt.accepted,
            "text": attempt.text,
            "finished_step": attempt.finished_step,
            "opponent_moves": [move.notation for move in attempt.opponent_moves],
        },
    }
