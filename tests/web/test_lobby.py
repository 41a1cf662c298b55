"""Issue 17, item 8: the lobby's unfinished games can be given up (web-protocol 3.6): the
match ends as a resignation, its game counts as a loss, and the lobby no longer lists it."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from spite_malice.web.requests import SEAT_TOKEN_HEADER

from .conftest import new_room, open_seat
from .test_socket import play_game_against_computer, play_turn, start_friend_game


def give_up(client: TestClient, answer: dict[str, Any], token: str | None = None) -> Any:
    return client.post(
        f"/api/rooms/{answer['room']}/give-up",
        headers={SEAT_TOKEN_HEADER: answer["token"] if token is None else token},
    )


def listed(client: TestClient) -> list[str]:
    return [room["room"] for room in client.get("/api/rooms").json()["rooms"]]


def easy_row(client: TestClient) -> dict[str, Any]:
    rows = [row for row in client.get("/api/stats").json()["levels"] if row["level"] == "easy"]
    return rows[0] if rows else {"games": 0, "losses": 0}


def test_giving_up_a_game_counts_a_loss_and_leaves_the_lobby(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules={"payoff_size": 20})
    with open_seat(client, answer) as seat:
        play_turn(seat)
    assert answer["room"] in listed(client)
    before = easy_row(client)
    # a wrong token gives up nothing (the same answer as an unknown room)
    wrong = give_up(client, answer, token="not-the-token")
    assert wrong.status_code == 404 and wrong.json()["error"]["code"] == "unknown_room"
    assert answer["room"] in listed(client)
    done = give_up(client, answer)
    assert done.status_code == 200, done.text
    assert done.json()["status"] == "abandoned"
    assert answer["room"] not in listed(client)
    after = easy_row(client)
    assert after["games"] == before["games"] + 1
    assert after["losses"] == before["losses"] + 1
    again = give_up(client, answer)
    assert again.status_code == 409 and again.json()["error"]["code"] == "match_over"
    # the room still opens, as a resigned match with its hidden cards shown
    with open_seat(client, answer) as seat:
        assert seat.state["resigned"] == 0 and seat.state["reveal"] is not None


def test_giving_up_between_two_games_still_counts_a_lost_game(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules={"payoff_size": 5, "match_target": 500})
    with open_seat(client, answer) as seat:
        play_game_against_computer(seat)
    before = easy_row(client)
    assert give_up(client, answer).status_code == 200
    after = easy_row(client)
    assert after["games"] == before["games"] + 1
    assert after["losses"] == before["losses"] + 1
    with open_seat(client, answer) as seat:
        assert seat.state["match"]["game_number"] == 2 and seat.state["resigned"] == 0


def test_giving_up_a_friend_game_tells_the_friend(client: TestClient) -> None:
    host, guest = start_friend_game(client, rules={"payoff_size": 20})
    with open_seat(client, guest) as friend:
        assert give_up(client, host).status_code == 200
        told = friend.until(lambda m: m["type"] == "state" and m["cause"] == "resign")
        assert told["state"]["resigned"] == 0
