"""One daily deal a player and a day, kept by the database (``daily_plays``, revision 0005):
two processes on one database that both looked and found none cannot both store one, and
the upgrade records the daily matches already stored. On SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import select, text

from spite_malice.daily import DAILY_RULES, daily_seed
from spite_malice.store import DailyTaken, MatchHeader, Store
from spite_malice.store.access import MIGRATIONS
from spite_malice.store.schema import DailyPlayRow
from spite_malice.table import COMPUTER, PERSON, Seat, Table

DAY = date(2026, 12, 2)


def daily_header(match_id: str, player: str, day: date = DAY) -> tuple[MatchHeader, Table]:
    seats = (Seat(PERSON, player, player), Seat(COMPUTER, "Easy"))
    table = Table.new(DAILY_RULES, seats, level="easy", seed=daily_seed(day), daily=day.isoformat())
    header = MatchHeader(match_id, DAILY_RULES, table.meta, seed=daily_seed(day), source="web")
    return header, table


def store_daily(store: Store, match_id: str, player: str, day: date = DAY) -> None:
    header, table = daily_header(match_id, player, day)
    store.create_match(header, table.check_deal())


def test_a_second_daily_match_of_the_day_is_refused_and_not_stored(
    open_store: Callable[[], Store],
) -> None:
    first, second = open_store(), open_store()  # two processes on one database
    store_daily(first, "daily-1", "ann")
    with pytest.raises(DailyTaken):
        store_daily(second, "daily-2", "ann")
    assert second.load_match("daily-2") is None  # nothing of it was written
    assert first.load_match("daily-1") is not None
    store_daily(second, "daily-3", "bob")  # another player's, the same day
    store_daily(second, "daily-4", "ann", date(2026, 12, 3))  # the next day's


def test_the_upgrade_records_the_daily_matches_already_stored(tmp_path: Path) -> None:
    """A database of revision 0004 holds two daily matches of one player and day (made by two
    processes at once); the upgrade keeps the first as the day's, and the others' days too."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    with Store.open(url) as store:
        store_daily(store, "first", "ann")
        store_daily(store, "other-day", "ann", date(2026, 12, 3))
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with store.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0004")
        with store.engine.begin() as connection:  # a second match of the day, as 0004 let in
            connection.execute(
                text(
                    "INSERT INTO matches (id, room, source, kind, level, player0, player1, status,"
                    " rules, seed, meta, score0, score1, game_number, created_at, updated_at)"
                    " SELECT 'second', room, source, kind, level, player0, player1, status,"
                    " rules, seed, meta, score0, score1, game_number, created_at, updated_at"
                    " FROM matches WHERE id = 'first'"
                )
            )
    with Store.open(url) as store:
        with store.engine.connect() as connection:
            rows = connection.execute(
                select(DailyPlayRow.player, DailyPlayRow.day, DailyPlayRow.match_id)
            ).all()
        assert sorted(rows) == [("ann", "2026-12-02", "first"), ("ann", "2026-12-03", "other-day")]
        with pytest.raises(DailyTaken):
            store_daily(store, "third", "ann")
