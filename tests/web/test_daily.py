"""The daily deal in the page (issue 14 item 4): the same deal for two players on one date,
another the next day, one daily match a day, and its own statistics."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spite_malice.daily import daily_seed
from spite_malice.engine import GameRecord, Match
from spite_malice.web import daily as web_daily

from .conftest import new_player, open_seat

DAY = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)


def set_clock(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    monkeypatch.setattr(web_daily, "now", lambda: moment)


def first_view(client: TestClient, headers: dict[str, str], level: str = "easy") -> Any:
    """Start a daily match as this player; what its seat sees at the first turn."""
    answer = client.post("/api/daily", json={"level": level}, headers=headers)
    assert answer.status_code == 201, answer.text
    ticket = answer.json()
    with client.websocket_connect(ticket["ws_url"]) as socket:
        socket.send_json({"type": "hello", "token": ticket["token"]})
        assert socket.receive_json()["type"] == "welcome"
        state = socket.receive_json()["state"]
    obs = state["observation"]
    # what the computer's first turn (when it starts) cannot change: my hand and pay-off pile
    mine = obs["players"][0]
    return ticket, {
        "hand": sorted(obs["hand"]),
        "payoff": (mine["payoff_top"], mine["payoff_count"]),
    }


def test_the_same_deal_for_two_players_on_one_date_and_another_the_next_day(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_clock(monkeypatch, DAY)
    ann = new_player(client, "ann")
    bob = new_player(client, "bob")
    _, seen_ann = first_view(client, ann)
    _, seen_bob = first_view(client, bob)
    assert seen_ann == seen_bob
    set_clock(monkeypatch, DAY + timedelta(days=1))
    _, next_day = first_view(client, ann)
    assert next_day != seen_ann


def test_one_daily_match_a_day_and_its_statistics(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_clock(monkeypatch, DAY)
    before = client.get("/api/daily").json()
    assert before["date"] == "2026-12-01" and before["match"] is None
    assert before["next_in"] == (14 * 60 + 30) * 60
    assert before["stats"]["days_played"] == 0
    assert "seed" not in str(before)
    ticket, _ = first_view(client, dict(client.headers))
    again = client.post("/api/daily", json={"level": "hard"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "daily_started"
    assert client.get("/api/daily").json()["match"]["status"] == "playing"
    with open_seat(client, ticket) as seat:
        seat.wait_my_turn_or_end()
        assert seat.request({"type": "resign"})["type"] != "error"
    after = client.get("/api/daily").json()
    assert after["stats"]["days_played"] == 1 and after["stats"]["days_won"] == 0
    assert after["stats"]["today"]["outcome"] == "loss"
    refused = client.post("/api/daily", json={"level": "easy"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "daily_played"
    assert refused.json()["error"]["message"].startswith("You have played today's deal.")
    # a known deal: on its own row, not in the ordinary total
    stats = client.get("/api/stats").json()
    assert stats["total"]["games"] == 0
    assert [row["level"] for row in stats["levels"]] == ["daily"]
    # the stored game is the day's deal, its record replays from the day's seed
    entry = client.get("/api/games").json()["games"][0]
    assert entry["level"] == "daily"
    record = GameRecord.from_json(client.get(f"/api/games/{entry['id']}/record").json())
    assert record.rules.match_target == 1
    # the record's game seed derives from the day's seed alone
    match = Match(record.rules, daily_seed(date(2026, 12, 1)), record.players)
    assert match.next_seed() == record.seed


def test_a_bad_level_is_refused_clearly(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_clock(monkeypatch, DAY)
    answer = client.post("/api/daily", json={"level": "grandmaster"})
    assert answer.status_code == 422
    message = answer.json()["error"]["message"]
    assert message[0].isupper()
    assert client.get("/api/daily").json()["match"] is None


def test_a_second_daily_match_started_elsewhere_at_the_same_moment_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two server processes on one database, asked at the same moment: each looks, finds no
    daily match and makes one. The database keeps one a player and a day (``daily_plays``):
    the second is refused as started, and nothing of it is stored. Shown here by a look that
    misses the first match, as the other process's look would."""
    set_clock(monkeypatch, DAY)
    ticket, _ = first_view(client, dict(client.headers))
    monkeypatch.setattr(web_daily, "daily_match", _missed_once(web_daily.daily_match))
    again = client.post("/api/daily", json={"level": "hard"})
    assert again.status_code == 409, again.text
    assert again.json()["error"]["code"] == "daily_started"
    daily = client.get("/api/daily").json()
    assert daily["match"]["room"] == ticket["room"] and daily["match"]["status"] == "playing"
    rooms = client.get("/api/rooms").json()["rooms"]
    assert [room["room"] for room in rooms] == [ticket["room"]]


def _missed_once(look: Any) -> Any:
    """``daily_match`` that answers None the first time (a look made before the other
    process stored its match), then looks for real."""
    calls = [0]

    def missed(*args: Any) -> Any:
        calls[0] += 1
        return None if calls[0] == 1 else look(*args)

    return missed


def test_the_first_move_spends_the_days_try_not_opening_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 43: GET /api/daily says whether the player has moved in today's match; opening
    the deal (and leaving it before a move) leaves it unspent, and the page says so."""
    set_clock(monkeypatch, DAY)
    ticket, _ = first_view(client, dict(client.headers))
    opened = client.get("/api/daily").json()["match"]
    assert opened["status"] == "playing" and opened["moved"] is False
    with open_seat(client, ticket) as seat:
        seat.wait_my_turn_or_end()
        state = seat.state
        assert state["daily"] == "2026-12-01"
        move = state["observation"]["legal_moves"][0]
        assert seat.request({"type": "move", "move": move})["type"] != "error"
    assert client.get("/api/daily").json()["match"]["moved"] is True
