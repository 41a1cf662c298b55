"""The tutorial's HTTP endpoints: the server runs every lesson, the page only draws it.

The page sends a lesson's key, the moves accepted so far and the move the player tries; the
server replays the lesson (:class:`~spite_malice.tutorial.LessonRun`), tries the move and
answers with the learner's view of the table (seat 0's observation only, R6.3), what is
legal, what to do and what became of the move. Nothing of a lesson is kept on the server
but the player's progress, in a settings row of its own (``tutorial:<player id>``), the
same convention as the terminal's.

Every text in an answer (titles, instructions, explanations, "show me", errors) is made in
the request's language (``web/language.py`` runs each request under it).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ..i18n import _
from ..store import Player, Store
from ..tutorial import LESSONS, PRACTICE_LEVEL, PRACTICE_SEED, LessonRun, Progress, TutorialError
from ..tutorial.answers import answer
from ..tutorial.lesson import Attempt
from ..tutorial.lessons import LESSON_KEYS, lesson_named
from ..tutorial.practice import PRACTICE_PRESET
from .errors import error_response
from .requests import current_player, lobby_of

router = APIRouter(prefix="/api/tutorial")

MOVES_LIMIT = 64
"""More moves than any lesson needs: a longer list is refused before it is replayed."""

MoveText = Annotated[StrictStr, Field(min_length=1, max_length=8)]


class LessonRequest(BaseModel):
    """The body of ``POST /api/tutorial/lessons/{key}``: the accepted moves so far and,
    optionally, the move tried now (leave it out to see the lesson as it stands)."""

    model_config = ConfigDict(extra="forbid")

    moves: Annotated[list[MoveText], Field(max_length=MOVES_LIMIT)] = []
    move: MoveText | None = None


def _key(player: Player) -> str:
    return f"tutorial:{player.id}"


def _read(store: Store, player: Player) -> Progress:
    return Progress.from_json(store.settings(_key(player)))


def _write(store: Store, player: Player, progress: Progress) -> None:
    store.save_settings(_key(player), progress.to_json())


def _overview(progress: Progress) -> dict[str, Any]:
    return {
        "lessons": [
            {
                "key": lesson.key,
                "number": number,
                "title": lesson.title,
                "intro": lesson.intro,
                "steps": len(lesson.steps),
                "finished": progress.is_finished(lesson.key),
            }
            for number, lesson in enumerate(LESSONS, start=1)
        ],
        "next": progress.next_lesson(LESSON_KEYS),
        "progress": progress.to_json(),
        "practice": {"level": PRACTICE_LEVEL, "preset": PRACTICE_PRESET, "seed": PRACTICE_SEED},
    }


@router.get("")
async def overview(request: Request) -> dict[str, Any]:
    """The lessons, which of them this player finished, and the practice game's settings."""
    player = await current_player(request)
    lobby = lobby_of(request)
    return _overview(await lobby.run(_read, lobby.store, player))


@router.post("/offered")
async def offered(request: Request) -> dict[str, Any]:
    """The page offered the tutorial to this player (at the first visit): never again."""
    player = await current_player(request)
    lobby = lobby_of(request)
    progress = (await lobby.run(_read, lobby.store, player)).with_offered()
    await lobby.run(_write, lobby.store, player, progress)
    return _overview(progress)


@router.post("/lessons/{key}", response_model=None)
async def lesson(request: Request, key: str, body: LessonRequest) -> dict[str, Any] | JSONResponse:
    """Replay the lesson's accepted moves, try ``move`` and answer with the table."""
    player = await current_player(request)
    try:
        chosen = lesson_named(key)
    except TutorialError:
        return error_response(404, "unknown_lesson", _("There is no such lesson."))
    try:
        run = LessonRun.replay(chosen, body.moves)
    except TutorialError:
        message = _("These moves do not replay in the lesson: start it again.")
        return error_response(422, "invalid", message)
    attempt: Attempt | None = None
    if body.move is not None:
        was_finished = run.is_finished
        attempt = run.attempt(body.move)
        if run.is_finished and not was_finished:
            lobby = lobby_of(request)
            progress = (await lobby.run(_read, lobby.store, player)).with_finished(chosen.key)
            await lobby.run(_write, lobby.store, player, progress)
    return answer(run, attempt)
