"""The interactive tutorial: hand-made deals that teach one idea each, free of any screen.

A :class:`Lesson` is a fixed position (built through the engine's public position API) and a
few :class:`Step` s, each saying what to do and which moves reach its goal. A
:class:`LessonRun` plays a lesson: the engine decides what is legal, the lesson what counts
as doing the step; a wrong move is refused with an explanation and changes nothing. The
terminal and the browser both drive the same runs; :mod:`.progress` is what they keep.
"""

from __future__ import annotations

from .errors import TutorialError
from .lesson import Attempt, Lesson, LessonRun, Step
from .lessons import LESSONS, lesson_named
from .practice import PRACTICE_LEVEL, PRACTICE_RULES, PRACTICE_SEED
from .progress import Progress

__all__ = [
    "LESSONS",
    "PRACTICE_LEVEL",
    "PRACTICE_RULES",
    "PRACTICE_SEED",
    "Attempt",
    "Lesson",
    "LessonRun",
    "Progress",
    "Step",
    "TutorialError",
    "lesson_named",
]
