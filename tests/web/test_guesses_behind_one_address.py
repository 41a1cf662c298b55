"""Only wrong guesses count (``web-protocol.md`` 7): behind one address (a class of 30,
the documented case), one pupil's wrong codes and tokens leave the others' right tokens and
invitations served (a right token got 4429/429 after 20 wrong guesses from its address)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spite_malice.web.limits import LOOKUP_BURST

from .conftest import new_player, new_room, open_seat

GUESSES = 100


@pytest.fixture
def client(client: TestClient) -> Iterator[TestClient]:
    """The client, on a server whose limits' clock stands still: on a slow machine the
    guesses take long enough to earn a try back (one every 3 seconds), which would change
    the counts."""
    client.app.state.lookups.clock = lambda: 0.0  # type: ignore[attr-defined]
    yield client


def _guess_wrong(client: TestClient, room: str) -> list[int]:
    """100 wrong guesses (HTTP, sockets, unknown rooms and wrong tokens); their answers."""
    statuses = []
    for n in range(GUESSES):
        if n % 4 == 0:
            with client.websocket_connect(f"/ws/{room}") as socket:
                socket.send_json({"type": "hello", "token": f"guess{n}"})
                statuses.append(
                    429 if socket.receive_json()["code"] == "too_many_requests" else 404
                )
                with contextlib.suppress(WebSocketDisconnect):
                    socket.receive_json()
        else:
            code = room if n % 2 else "ZZZZZZ"
            got = client.get(f"/api/rooms/{code}", headers={"X-Seat-Token": f"guess{n}"})
            statuses.append(got.status_code)
    return statuses


def test_a_right_token_is_served_after_100_wrong_guesses_from_its_address(
    client: TestClient,
) -> None:
    mine = new_room(client, level="easy", rules={"payoff_size": 5})
    statuses = _guess_wrong(client, mine["room"])
    assert statuses.count(404) == LOOKUP_BURST and statuses.count(429) == GUESSES - LOOKUP_BURST
    # the same address, the right token: the game, at once
    info = client.get(f"/api/rooms/{mine['room']}", headers={"X-Seat-Token": mine["token"]})
    assert info.status_code == 200, info.text
    with open_seat(client, mine) as seat:
        assert seat.request({"type": "ping"})["type"] == "pong"
    # and the guesses are still refused
    wrong = client.get(f"/api/rooms/{mine['room']}", headers={"X-Seat-Token": "nope"})
    assert wrong.status_code == 429


def test_one_players_wrong_invitation_codes_leave_anothers_join_served(
    client: TestClient,
) -> None:
    invitation = new_room(client, mode="friend")
    guesser = new_player(client, "guesser")
    refused = [
        client.post(f"/api/rooms/ZZZZZ{n % 10 + 2}/join", json={}, headers=guesser).status_code
        for n in range(LOOKUP_BURST + 5)
    ]
    assert refused.count(404) == LOOKUP_BURST and refused.count(429) == 5
    friend = new_player(client, "friend")
    joined = client.post(f"/api/rooms/{invitation['room']}/join", json={}, headers=friend)
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
