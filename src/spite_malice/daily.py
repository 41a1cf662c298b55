"""The daily deal (issue 14 item 4): one deal a day, the same for everyone, against a level.

The day is the UTC date; its seed comes from the date alone (:func:`daily_seed`), so every
player, in the browser or the terminal, gets the same cards that day and other cards the next.
The deal is known (anyone can look it up), so a daily game is a practice game: its results
count under the level ``daily``, apart from the ordinary statistics, with statistics of their
own (:func:`daily_stats`: days played and won, the streak of days won, the best score).
A daily match is one game (``DAILY_RULES``: the first win ends it), and a player gets one
daily match a day: the first one counts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from .engine.rules import Rules

DAILY_RULES = Rules(match_target=1)
"""The standard rules, in a match of one game: the first game won ends it."""
HISTORY_DAYS = 14
"""Days of results a daily statistics answer lists."""

_SALT = b"spite-malice daily deal "


def today(now: datetime | None = None) -> date:
    """The daily deal's day: the UTC date of ``now`` (of the clock when None)."""
    moment = now if now is not None else datetime.now(UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).date()


def daily_seed(day: date) -> int:
    """The seed of ``day``'s deal: from the date alone, the same for everyone (63 bits)."""
    digest = hashlib.sha256(_SALT + day.isoformat().encode()).digest()
    return int.from_bytes(digest[:8], "big") & (2**63 - 1)


def seconds_to_next(now: datetime | None = None) -> int:
    """Seconds until the next daily deal (the next UTC midnight)."""
    moment = now if now is not None else datetime.now(UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    midnight = datetime.combine(today(moment) + timedelta(days=1), datetime.min.time(), UTC)
    return max(1, int((midnight - moment).total_seconds()))


def parse_day(text: object) -> date | None:
    """An ISO date (``2026-12-01``) as a date, None when it is not one."""
    if not isinstance(text, str):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class DailyResult:
    """One daily game from one player's side."""

    day: date
    outcome: str
    """``win``, ``loss`` or ``draw``."""
    points: int
    """Points scored (0 unless won)."""
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "date": self.day.isoformat(),
            "outcome": self.outcome,
            "points": self.points,
            "level": self.level,
        }


@dataclass(slots=True)
class DailyStats:
    """A player's daily statistics on a given day."""

    days_played: int = 0
    days_won: int = 0
    current_streak: int = 0
    """Daily deals won on consecutive days, up to today (or yesterday, before today's is
    played)."""
    best_streak: int = 0
    best_score: int = 0
    """The most points scored in one daily game."""
    today: DailyResult | None = None
    """Today's result, once played."""
    recent: list[DailyResult] = field(default_factory=list)
    """The results of the last :data:`HISTORY_DAYS` days played, the latest first."""

    def to_json(self) -> dict[str, Any]:
        return {
            "days_played": self.days_played,
            "days_won": self.days_won,
            "current_streak": self.current_streak,
            "best_streak": self.best_streak,
            "best_score": self.best_score,
            "today": None if self.today is None else self.today.to_json(),
            "recent": [result.to_json() for result in self.recent],
        }


def daily_stats(results: Iterable[DailyResult], on: date) -> DailyStats:
    """Statistics from a player's daily results in the order finished: the first result of a
    day counts, later ones that day are ignored; days after ``on`` are ignored."""
    by_day: dict[date, DailyResult] = {}
    for result in results:
        if result.day <= on:
            by_day.setdefault(result.day, result)
    stats = DailyStats()
    run, previous = 0, None
    for day in sorted(by_day):
        result = by_day[day]
        stats.days_played += 1
        stats.best_score = max(stats.best_score, result.points)
        if result.outcome == "win":
            stats.days_won += 1
            run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
            previous = day
        else:
            run, previous = 0, None
        stats.best_streak = max(stats.best_streak, run)
    # the run counts now if its last day won is today or yesterday (today not played yet)
    if previous is not None and on - previous <= timedelta(days=1):
        stats.current_streak = run
    stats.today = by_day.get(on)
    stats.recent = [by_day[day] for day in sorted(by_day, reverse=True)[:HISTORY_DAYS]]
    return stats


__all__ = [
    "DAILY_RULES",
    "HISTORY_DAYS",
    "DailyResult",
    "DailyStats",
    "daily_seed",
    "daily_stats",
    "parse_day",
    "seconds_to_next",
    "today",
]
