"""The bans from play between strangers (web/fair_play.py): their thresholds and lengths."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from spite_malice.web.fair_play import (
    BAD_LIMIT,
    ESCALATION,
    FIRST_BAN,
    LONGEST_BAN,
    ban_length,
)

NOW = datetime(2026, 12, 7, 12, tzinfo=UTC)


def minutes_ago(*values: float) -> list[datetime]:
    return [NOW - timedelta(minutes=value) for value in values]


def test_a_ban_comes_at_the_limit_and_grows_with_each_ban() -> None:
    assert BAD_LIMIT == 3
    assert ban_length(minutes_ago(30, 20), []) is None
    assert ban_length(minutes_ago(30, 20, 10), []) == FIRST_BAN
    earlier = [(NOW - timedelta(hours=5), NOW - timedelta(hours=5) + FIRST_BAN)]
    # the endings counted for the earlier ban do not count again
    assert ban_length(minutes_ago(400, 350, 310, 20, 10), earlier) is None
    assert ban_length(minutes_ago(400, 350, 310, 30, 20, 10), earlier) == FIRST_BAN * ESCALATION
    many = [(NOW - timedelta(hours=h), NOW - timedelta(hours=h - 1)) for h in (90, 80, 70, 60, 50)]
    assert ban_length(minutes_ago(30, 20, 10), many) == LONGEST_BAN
