"""A stored match's meta: its seats, level, seat tokens and the friend room's state."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..engine.rules import PRESETS, Rules
from .seats import COMPUTER, FRIEND, Seat


@dataclass(frozen=True, slots=True)
class TableMeta:
    """What a stored match needs besides its moves, the same shape for both front ends:
    the seats, the computer's level, the web seats' token hashes and the bot's seed.
    ``practice``: the player chose the deals' seed, so its games are kept out of the
    ordinary statistics (they count under ``practice``). ``rematch`` and ``declined``: a
    friend room's rematch offer once the match is over (who offers, who declined)."""

    seats: tuple[Seat, Seat]
    level: str | None = None
    tokens: tuple[str | None, str | None] = (None, None)
    bot_seed: int = 0
    practice: bool = False
    daily: str | None = None
    """The date (ISO, UTC) of the daily deal this match plays (``spite_malice.daily``); its
    games count under ``daily``, apart from the ordinary statistics."""
    rematch: int | None = None
    """The seat offering a rematch of this match, once it is over (friend rooms)."""
    declined: int | None = None
    """The seat that declined the last rematch offer."""
    joined_at: float | None = None
    """When (wall-clock seconds since the epoch) the friend took the second seat: a friend
    room's claim clock starts no earlier (``web-protocol.md`` 4.2 ``claim``). None for a
    computer room, a room nobody joined yet, and rooms stored before it was kept."""
    pool: str | None = None
    """The quick-match pool (:data:`POOL_NAMES`: ``standard`` or ``quick``, a rules preset's
    name, or a turn-based one, ``days-3``) that paired the two strangers of a rated match;
    None for every other match (never rated as a game between strangers)."""

    @property
    def names(self) -> list[str | None]:
        return [seat.name for seat in self.seats]

    @property
    def computer_seat(self) -> int | None:
        """The computer's seat, or None at a table of two people."""
        return 0 if self.seats[0].is_computer else 1 if self.seats[1].is_computer else None

    @property
    def kind(self) -> str:
        """``computer`` when the computer sits at the table, else ``friend``."""
        first, second = self.seats  # read for every state sent: no generator
        return COMPUTER if first.kind == COMPUTER or second.kind == COMPUTER else FRIEND

    def to_json(self) -> dict[str, Any]:
        return (
            {
                "format": 2,
                "seats": [seat.to_json() for seat in self.seats],
                "level": self.level,
                "tokens": list(self.tokens),
                "bot_seed": self.bot_seed,
                "practice": self.practice,
                "rematch": self.rematch,
                "declined": self.declined,
            }
            | ({"daily": self.daily} if self.daily is not None else {})
            | ({"joined_at": self.joined_at} if self.joined_at is not None else {})
            | ({"pool": self.pool} if self.pool is not None else {})
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableMeta:
        seats = data.get("seats") or [{}, {}]
        tokens = data.get("tokens") or [None, None]
        level = data.get("level")
        bot_seed = data.get("bot_seed")
        return cls(
            (Seat.from_json(seats[0]), Seat.from_json(seats[1])),
            str(level) if level is not None else None,
            (_text(tokens[0]), _text(tokens[1])),
            bot_seed if type(bot_seed) is int else 0,
            data.get("practice") is True,
            _day(data.get("daily")),
            _seat_number(data.get("rematch")),
            _seat_number(data.get("declined")),
            _moment(data.get("joined_at")),
            _pool(data.get("pool")),
        )


TURN_POOL_NAMES = ("days-1", "days-3", "days-7")
"""The turn-based quick-match pools (``ratings.policy.TURN_POOLS``: 1, 3 or 7 days a move)."""
POOL_NAMES = ("standard", "quick", *TURN_POOL_NAMES)
"""The quick-match pools a stored match may name: live (``standard``, ``quick``: rules
presets) and turn-based."""


def pool_rules(pool: str) -> Rules | None:
    """The rules of a quick-match pool's matches: a live pool's preset; a turn-based pool's
    are the standard rules for one game (the match ends with it, as a friend game over days
    does). None for a name that is no pool."""
    if pool in TURN_POOL_NAMES:
        return replace(PRESETS["standard"], match_target=1)
    return PRESETS.get(pool)


def _seat_number(value: object) -> int | None:
    return value if type(value) is int and value in (0, 1) else None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _moment(value: object) -> float | None:
    """A stored wall-clock time (seconds since the epoch), else None."""
    if isinstance(value, (int, float)) and type(value) is not bool and 0 <= value < 1e11:
        return float(value)
    return None


def _pool(value: object) -> str | None:
    """A stored quick-match pool's name, else None."""
    return value if value in POOL_NAMES else None


def _day(value: object) -> str | None:
    """A stored daily deal's date: an ISO date (``2026-12-01``), else None."""
    if isinstance(value, str) and len(value) == 10 and value[4] == value[7] == "-":
        return value
    return None
