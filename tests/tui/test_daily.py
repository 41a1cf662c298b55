"""The daily deal in the terminal (issue 14 item 4): the browser's deal of the day, one game a
day across both front ends, its statistics, and other unfinished matches left alone."""

from __future__ import annotations

import warnings
from datetime import UTC, datetime, time
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")

from fastapi.testclient import TestClient  # noqa: E402

from spite_malice import daily as daily_module  # noqa: E402
from spite_malice.cli import main  # noqa: E402
from spite_malice.daily import DAILY_RULES, daily_seed, today  # noqa: E402
from spite_malice.store import PLAYING, Store  # noqa: E402
from spite_malice.store.daily import daily_match  # noqa: E402
from spite_malice.tui.app import SpiteMaliceApp  # noqa: E402
from spite_malice.tui.screens import TableSettings  # noqa: E402
from spite_malice.tui.session import GameSession, MatchSetup  # noqa: E402
from spite_malice.tui.store_link import StorePersistence  # noqa: E402
from spite_malice.web import create_app  # noqa: E402
from spite_malice.web import daily as web_daily  # noqa: E402
from spite_malice.web.api import PLAYER_HEADER  # noqa: E402


def test_the_terminal_deals_the_browsers_deal_and_counts_one_game_a_day(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # One day for the whole test: run across midnight UTC, the browser's deal (its clock,
    # web.daily.now) and the terminal's (daily.today, read by the daily command) would be of
    # two days, and the terminal would neither deal the same cards nor see the game played.
    day = today()
    noon = datetime.combine(day, time(12), UTC)
    real_today = daily_module.today
    monkeypatch.setattr(web_daily, "now", lambda: noon)
    monkeypatch.setattr(
        daily_module, "today", lambda now=None: day if now is None else real_today(now)
    )
    db = str(tmp_path / "shared.db")
    with TestClient(create_app(db)) as client:
        made = client.post("/api/players", json={"name": "ann"}).json()
        client.headers.update({PLAYER_HEADER: made["secret"]})
        ticket = client.post("/api/daily", json={"level": "easy"}).json()
        with client.websocket_connect(ticket["ws_url"]) as socket:
            socket.send_json({"type": "hello", "token": ticket["token"]})
            for _ in range(200):
                message = socket.receive_json()
                obs = message.get("state", {}).get("observation")
                if obs and obs["to_move"] == 0 and not message["state"]["thinking"]:
                    break
            socket.send_json({"type": "resign", "id": 1})
            while socket.receive_json().get("reply_to") != 1:
                pass
        game_id = client.get("/api/games").json()["games"][0]["id"]
        browser_seed = client.get(f"/api/games/{game_id}/record").json()["seed"]
    session = GameSession.new(
        MatchSetup(rules=DAILY_RULES, seed=daily_seed(day), daily=day.isoformat())
    )
    assert session.game.seed == browser_seed  # the same deal in the terminal
    assert session.table.meta.daily == day.isoformat()

    player = made["id"]
    assert main(["daily", "--stats", "--db", db, "--player", player]) == 0
    out = capsys.readouterr().out
    assert "Today: you lost." in out and "Days played 1, won 0" in out
    assert main(["daily", "--db", db, "--player", player]) == 2
    err = capsys.readouterr().err
    assert "you have played today's deal (you lost)" in err and "midnight UTC" in err


async def test_a_daily_match_leaves_the_unfinished_match_as_it_is(tmp_path: Path) -> None:
    url = str(tmp_path / "terminal.db")
    ordinary = StorePersistence(Store.open(url))
    first = GameSession.new(MatchSetup(rules=DAILY_RULES, level="easy"))
    ordinary.save(first)
    ordinary.flush()
    player = ordinary.player
    ordinary.close()

    day = today()
    persistence = StorePersistence(Store.open(url), player)
    setup = MatchSetup(level="easy", rules=DAILY_RULES, seed=daily_seed(day), daily=day.isoformat())
    app = SpiteMaliceApp(
        setup,
        settings=TableSettings(move_delay=0.0),
        persistence=persistence,
        resume=False,
        fresh=True,
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.game_screen.session.table.meta.daily == day.isoformat()
        persistence.flush()
        store = persistence.store
        found = daily_match(store, player, day)
        assert found is not None and found.status == PLAYING and found.source == "terminal"
        unfinished = store.matches(status=PLAYING, source="terminal", player=player)
        assert len(unfinished) == 2  # the ordinary match was not given up
        await pilot.press("q")


async def test_the_table_says_it_is_the_daily_deal() -> None:
    from spite_malice.tui.app import SpiteMaliceApp
    from spite_malice.tui.persistence import NoPersistence
    from spite_malice.tui.screens import TableSettings
    from spite_malice.tui.session import MatchSetup
    from spite_malice.tui.widgets import StatusBar

    from .driver import settle

    def status_of(setup: MatchSetup) -> SpiteMaliceApp:
        return SpiteMaliceApp(
            setup, settings=TableSettings(move_delay=0.0), persistence=NoPersistence()
        )

    daily = status_of(MatchSetup(level="reference", seed=11, daily="2026-12-06"))
    async with daily.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        line = str(daily.screen.query_one(StatusBar).render())
        assert "daily deal, turn" in line and "game 1" not in line
    ordinary = status_of(MatchSetup(level="reference", seed=11))
    async with ordinary.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        line = str(ordinary.screen.query_one(StatusBar).render())
        assert "daily deal" not in line and "game 1, turn" in line
