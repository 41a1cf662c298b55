"""Ratings over HTTP (web-protocol 9.3): a game against the computer under a rules preset,
given up through the server, moves the player's rating against the computer as Glicko-2
gives against the level's fixed rating; it shows provisional, with its history; the
leaderboards leave provisional players out; an unknown pool is explained."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from spite_malice.ratings.policy import LEVEL_RATINGS, NEW_RATING, after_game
from spite_malice.web.api import PLAYER_HEADER

from .conftest import new_player, new_room


def test_a_new_player_has_no_rating_yet(client: TestClient) -> None:
    assert client.get("/api/ratings").json() == {
        "pools": [],
        "provisional_deviation": 110.0,
        "levels": {"easy": 1154.0, "medium": 1532.0, "hard": 1814.0, "expert": 1957.0},
    }


def test_a_game_given_up_against_the_computer_is_rated(client: TestClient) -> None:
    room = new_room(client, level="medium", preset="quick")
    answer = client.post(
        f"/api/rooms/{room['room']}/give-up", headers={"X-Seat-Token": room["token"]}
    )
    assert answer.status_code == 200, answer.text
    ratings = client.get("/api/ratings").json()
    [pool] = ratings["pools"]
    want = after_game(NEW_RATING.glicko, LEVEL_RATINGS["medium"], 0.0)
    assert pool["pool"] == "computer" and pool["games"] == 1 and pool["provisional"]
    assert pool["rating"] == pytest.approx(want.rating, abs=0.05)
    assert pool["shown"] == f"{round(want.rating)}?"
    assert [round(p["rating"]) for p in pool["history"]] == [round(want.rating)]
    # a custom game is not rated; another player's ratings are its own
    custom = new_room(client, level="medium", rules={"payoff_size": 5})
    client.post(f"/api/rooms/{custom['room']}/give-up", headers={"X-Seat-Token": custom["token"]})
    assert client.get("/api/ratings").json()["pools"][0]["games"] == 1
    other = new_player(client, "bob")
    assert client.get("/api/ratings", headers=other).json()["pools"] == []
    # still provisional: on no leaderboard
    board = client.get("/api/leaderboard/computer").json()
    assert board["players"] == [] and board["days"] == 30


def test_ratings_need_the_players_secret_and_a_known_pool(client: TestClient) -> None:
    assert client.get("/api/ratings", headers={PLAYER_HEADER: "nope"}).status_code == 401
    answer = client.get("/api/leaderboard/blitz")
    assert answer.status_code == 404
    assert answer.json()["error"]["message"] == (
        "There is no such rating. The ratings are standard, quick, turn-based and computer."
    )


def test_a_leaderboard_shows_established_active_players_by_name_only(
    client: TestClient,
) -> None:
    from datetime import timedelta

    from sqlalchemy import insert

    from spite_malice.store.schema import utcnow
    from spite_malice.store.schema_accounts import RATINGS

    store = client.app.state.lobby.store  # type: ignore[attr-defined]
    made = {name: store.create_player(name)[0].id for name in ("Ann", "Ben", "Cy")}
    now = utcnow()
    rows = [
        ("Ann", 1720.4, 70.0, 0),  # established, active
        ("Ben", 1900.0, 150.0, 0),  # provisional
        ("Cy", 1650.0, 60.0, 45),  # not active for 45 days
    ]
    with store.db.connection() as connection:
        for name, rating, deviation, days in rows:
            connection.execute(
                insert(RATINGS).values(
                    player=made[name],
                    pool="standard",
                    rating=rating,
                    deviation=deviation,
                    volatility=0.06,
                    games=40,
                    updated_at=now - timedelta(days=days),
                )
            )
    board = client.get("/api/leaderboard/standard").json()
    assert board["players"] == [{"rank": 1, "name": "Ann", "rating": 1720, "games": 40}]
    assert made["Ann"] not in client.get("/api/leaderboard/standard").text
