"""The two seats of a table: who sits there (a person here, the computer, a remote friend)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PERSON, COMPUTER, FRIEND = "person", "computer", "friend"
KINDS = (PERSON, COMPUTER, FRIEND)


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: its kind, the name shown for it and the player it counts for (the store's
    player id; None for the computer or a seat nobody took yet)."""

    kind: str
    name: str | None = None
    player: str | None = None

    @property
    def is_computer(self) -> bool:
        return self.kind == COMPUTER

    @property
    def is_taken(self) -> bool:
        return self.kind != FRIEND or self.player is not None or self.name is not None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "player": self.player}

    @classmethod
    def from_json(cls, data: Any) -> Seat:
        if not isinstance(data, dict) or data.get("kind") not in KINDS:
            return cls(FRIEND)
        name, player = data.get("name"), data.get("player")
        return cls(
            str(data["kind"]),
            str(name) if name is not None else None,
            str(player) if player is not None else None,
        )
