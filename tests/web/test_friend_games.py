"""Issue 17, item 8: friend games. A rematch is offered by one friend and accepted or declined
by the other (web-protocol 4.2); a game can be claimed, as a win, once the friend has been
offline for the claim time, offline meaning connected to no server instance on the database
(the store's presence rows), not only to this one."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spite_malice.store import Store
from spite_malice.web import create_app, friend_games, presence, rooms
from spite_malice.web.lobby import Lobby
from spite_malice.web.rooms import CLAIM_ENV, Room
from waiting import wait_for

from .conftest import Seat, greedy, new_player, new_room, open_seat, room_of

DEADLINE_SECONDS = 20.0
"""How long a test waits for the server to notice a closed connection."""


def friend_room(client: TestClient, **rules: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A friend room of alice (the client's player) that bob (another player) joined."""
    host = new_room(client, mode="friend", rules=rules)
    bob = new_player(client, "bob")
    guest = client.post(f"/api/rooms/{host['room']}/join", headers=bob).json()
    return host, guest | {"headers": bob}


def play_until_match_over(room_code: str, client: TestClient, seats: tuple[Seat, Seat]) -> None:
    """Play greedy games (dealing the next one after a draw) until the match is over."""
    room = room_of(client, room_code)
    for _ in range(5000):
        if room.table.match.is_over:
            return
        if room.game.is_over:
            seats[0].request({"type": "new_game"})
            seats[1].until(lambda m: m.get("cause") == "new_game")
            continue
        mover = seats[room.game.to_move]
        reply = mover.play(greedy(mover.observation))
        assert reply["type"] == "update", reply
        seats[1 - mover.seat].until(lambda m: m["type"] == "update")
    raise AssertionError("the match did not end")


def test_a_rematch_is_offered_declined_and_accepted(client: TestClient) -> None:
    host, guest = friend_room(client, payoff_size=5, match_target=1)
    with open_seat(client, host) as one, open_seat(client, guest) as two:
        early = one.request({"type": "rematch"})
        assert early["type"] == "error" and early["code"] == "match_not_over"
        play_until_match_over(host["room"], client, (one, two))
        assert one.request({"type": "decline_rematch"})["code"] == "no_offer"

        offer = one.request({"type": "rematch"})
        assert offer["cause"] == "rematch"
        assert offer["state"]["rematch"] == {"offered_by": 0, "declined_by": None}
        told = two.until(lambda m: m.get("cause") == "rematch")
        assert told["state"]["rematch"]["offered_by"] == 0

        no = two.request({"type": "decline_rematch"})
        assert no["state"]["rematch"] == {"offered_by": None, "declined_by": 1}
        one.until(lambda m: m.get("cause") == "rematch")
        assert one.state["rematch"]["declined_by"] == 1 and one.state["match"]["over"]

        # new_match between friends is an offer too: the match does not start alone
        again = one.request({"type": "new_match"})
        assert again["cause"] == "rematch" and again["state"]["match"]["over"]
        two.until(lambda m: m.get("cause") == "rematch")
        yes = two.request({"type": "rematch"})
        assert yes["cause"] == "new_match"
        state = yes["state"]
        assert state["match"]["score"] == [0, 0] and state["match"]["game_number"] == 1
        assert state["rematch"] == {"offered_by": None, "declined_by": None}
        assert state["players"] == [one.state["players"][0], "bob"]
        fresh = one.until(lambda m: m.get("cause") == "new_match")
        assert fresh["state"]["match"]["game_number"] == 1
    assert room_of(client, host["room"]).table.meta.tokens == (
        room_of(client, host["room"]).header.meta.tokens
    )


def test_a_rematch_is_for_friends(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules={"payoff_size": 5})
    with open_seat(client, answer) as seat:
        assert seat.request({"type": "rematch"})["code"] == "invalid"
        assert seat.request({"type": "claim"})["code"] == "not_available"


def wait_refusals(seat: Seat, codes: set[str]) -> dict[str, Any]:
    """Claim until the answer is no longer one of ``codes`` (the server has not noticed the
    friend's closed connection yet), within the deadline; return that answer."""

    def answered() -> dict[str, Any] | None:
        answer = seat.request({"type": "claim"})
        return answer if answer.get("code") not in codes else None

    return wait_for(answered, DEADLINE_SECONDS, what=f"a claim answered with none of {codes}")


def test_a_game_is_claimed_once_the_friend_is_gone_long_enough(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CLAIM_ENV, "3600")
    host, guest = friend_room(client, payoff_size=20)
    with open_seat(client, host) as one:
        with open_seat(client, guest) as two:
            assert one.state["claim_after"] == 3600
            refused = one.request({"type": "claim"})
            assert refused["code"] == "friend_online", refused
            assert two.request({"type": "claim"})["code"] == "friend_online"
        # the friend left: too soon to claim, and the message says how long to wait
        soon = wait_refusals(one, {"friend_online"})
        assert soon["code"] == "too_soon", soon
        assert "60 minutes" in soon["message"] and soon["message"][0].isupper()
        monkeypatch.setenv(CLAIM_ENV, "0")
        claimed = one.request({"type": "claim"})
        assert claimed["type"] == "state" and claimed["cause"] == "claim", claimed
        state = claimed["state"]
        assert state["resigned"] == 1 and state["claimed"] is True
        assert state["reveal"] is not None
        assert one.request({"type": "claim"})["code"] == "game_over"
    store: Store = client.app.state.lobby.store  # type: ignore[attr-defined]
    (record,) = store.games(room_of(client, host["room"]).header.id)
    assert record.result is not None and record.result.reason == "claimed"
    assert record.result.winner == 0
    friend_row = client.get("/api/stats").json()["levels"]
    assert [(r["level"], r["wins"], r["losses"]) for r in friend_row] == [("friend", 1, 0)]
    bob = client.get("/api/stats", headers=guest["headers"]).json()["levels"]
    assert [(r["level"], r["wins"], r["losses"]) for r in bob] == [("friend", 0, 1)]
    # the friend coming back sees the claimed match
    with open_seat(client, guest) as two:
        assert two.state["resigned"] == 1 and two.state["claimed"] is True


@contextmanager
def two_instances(make_app: Callable[[], FastAPI]) -> Iterator[tuple[TestClient, TestClient]]:
    """Two servers (two lobbies and stores) on one database file, as in a cluster."""
    with TestClient(make_app()) as first, TestClient(make_app()) as second:
        first.headers.update(new_player(first, "alice"))
        yield first, second


def test_presence_is_shared_by_the_instances_on_one_database(
    make_app: Callable[[], FastAPI], monkeypatch: pytest.MonkeyPatch
) -> None:
    check_shared_presence(make_app, monkeypatch)


@pytest.mark.postgres
def test_presence_is_shared_by_the_instances_on_postgresql(
    postgres_schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    check_shared_presence(lambda: create_app(postgres_schema_url), monkeypatch)


def check_shared_presence(make_app: Callable[[], FastAPI], monkeypatch: pytest.MonkeyPatch) -> None:
    """A friend connected to instance b is online for instance a (no claim); once gone from
    b, instance a lets the game be claimed."""
    monkeypatch.setenv(CLAIM_ENV, "0")
    with two_instances(make_app) as (a, b):
        host, guest = friend_room(a, payoff_size=20)
        with open_seat(a, host) as one:
            assert one.state["connected"] == [True, False]
            with open_seat(b, guest) as two:
                # instance a hears of the friend on b at its next presence round
                lobby: Lobby = a.app.state.lobby  # type: ignore[attr-defined]
                a.portal.call(lobby.renew_presence)  # type: ignore[union-attr]
                synced = one.request({"type": "sync"})
                assert synced["state"]["connected"] == [True, True]
                assert synced["state"]["away"] == [None, None]
                # and it told the seat when it heard (a presence message before the sync)
                told = [m["connected"] for m in one.messages if m["type"] == "presence"]
                assert told[-1] == [True, True], told
                # connected to the other instance is connected: no claim
                refused = one.request({"type": "claim"})
                assert refused["code"] == "friend_online", refused
                assert two.state["connected"] == [True, True]
            # the friend left instance b: instance a sees it in the store and allows the claim
            claimed = wait_refusals(one, {"friend_online"})
            assert claimed["type"] == "state" and claimed["cause"] == "claim", claimed


def _backdate(room: Room, seconds: float) -> None:
    """Make a room's invitation ``seconds`` old (as if it had waited for its friend)."""
    assert room.header.created_at is not None
    room.header = replace(
        room.header, created_at=room.header.created_at - timedelta(seconds=seconds)
    )


def test_a_friend_who_has_just_joined_cannot_be_claimed_against(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The invitation waited longer than the claim time; the friend joins and has not
    connected yet: the host's claim is too soon (the clock starts at the join), where it used
    to count the friend as offline since the room was made."""
    monkeypatch.setenv(CLAIM_ENV, "300")
    host = new_room(client, mode="friend", rules={"payoff_size": 20})
    room = room_of(client, host["room"])
    _backdate(room, 600)
    with open_seat(client, host) as one:
        bob = new_player(client, "bob")
        assert client.post(f"/api/rooms/{host['room']}/join", headers=bob).status_code == 200
        refused = one.request({"type": "claim"})
        assert refused["type"] == "error" and refused["code"] == "too_soon", refused
        assert room.table.status == "playing"


def test_the_host_who_left_before_the_friend_joined_is_not_claimed_against_at_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host sent the link and closed the page longer ago than the claim time; the friend
    joins and claims at once: too soon, the host was away from no game (it used to be
    accepted). Once the host has been away for the claim time since the join, it is.

    The room's clock is moved on instead of waiting for the claim time: with a real wait of a
    few seconds, a busy machine could take longer than the claim time between the join and
    the claim, and the claim would rightly be accepted."""
    claim = 600.0
    monkeypatch.setenv(CLAIM_ENV, str(claim))
    offset = [0.0]
    clock = SimpleNamespace(
        time=lambda: time.time() + offset[0],
        monotonic=time.monotonic,
        perf_counter=time.perf_counter,
    )
    for module in (rooms, presence, friend_games):  # the room's parts that read the clock
        monkeypatch.setattr(module, "time", clock)
    host = new_room(client, mode="friend", rules={"payoff_size": 20})
    room = room_of(client, host["room"])
    with open_seat(client, host):
        pass
    # the server sees the close in its own time
    wait_for(lambda: room.last_seen[0] is not None, DEADLINE_SECONDS, what="the host's close")
    offset[0] = claim + 60  # the host has now been offline longer than the claim time
    bob = new_player(client, "bob")
    guest = client.post(f"/api/rooms/{host['room']}/join", headers=bob).json()
    with open_seat(client, guest | {"headers": bob}) as two:
        refused = two.request({"type": "claim"})
        assert refused["type"] == "error" and refused["code"] == "too_soon", refused
        # the claim clock started at the join: move the join back past the claim time
        joined = room.table.meta.joined_at
        assert joined is not None and abs(time.time() + offset[0] - joined) < DEADLINE_SECONDS
        room.table.meta = replace(room.table.meta, joined_at=joined - 2 * claim)
        claimed = two.request({"type": "claim"})
        assert claimed["type"] == "state" and claimed["cause"] == "claim", claimed
