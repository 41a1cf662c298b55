"""What a player has done of the tutorial: the lessons finished and whether it was offered.

Front ends keep this value in their own store (see ``docs/terminal.md`` and the README);
it is plain JSON, so a stored value from an older version reads back without error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Progress:
    """Lessons finished (by key, in the order finished) and whether the tutorial was
    already offered to this player (it is offered once, at the first start)."""

    finished: tuple[str, ...] = ()
    offered: bool = False

    def with_finished(self, key: str) -> Progress:
        """This progress with lesson ``key`` finished too."""
        if key in self.finished:
            return self
        return Progress((*self.finished, key), self.offered)

    def with_offered(self) -> Progress:
        return Progress(self.finished, True)

    def is_finished(self, key: str) -> bool:
        return key in self.finished

    def next_lesson(self, keys: tuple[str, ...]) -> str | None:
        """The first of ``keys`` not finished yet, or None when all are."""
        return next((key for key in keys if key not in self.finished), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "finished": list(self.finished),
            "offered": self.offered,
        }

    @classmethod
    def from_json(cls, data: object) -> Progress:
        """Read a stored progress; anything unreadable counts as no progress."""
        if not isinstance(data, dict):
            return cls()
        finished = data.get("finished")
        listed = finished if isinstance(finished, list) else []
        keys = tuple(key for key in listed if isinstance(key, str))
        return cls(
            tuple(dict.fromkeys(keys)),
            data.get("offered") is True,
        )
