"""A server stopped mid-game and started again on the same database resumes every room
exactly where it was (issue 4): each move is stored before anyone hears of it."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spite_malice.engine import Match, Rules
from spite_malice.store import MatchHeader, Store
from spite_malice.table import COMPUTER, PERSON, Seat, Table
from spite_malice.web.rooms import RoomClosed, hash_token, new_token
from waiting import wait_for

from .conftest import PLAYER, greedy, new_player, new_room, open_seat
from .test_socket import play_game_against_computer, play_turn

QUICK = {"payoff_size": 5}


def stored_moves(db_path: Path, code: str) -> list[str]:
    with Store.open(str(db_path)) as store:
        stored = store.load_room(code)
        assert stored is not None
        header = stored.header
        table = Table.restore(header.rules, header.seed, header.meta, stored.steps)
        return [str(move) for move in table.game.moves]


def test_every_update_is_stored_before_it_is_sent(client: TestClient, db_path: Path) -> None:
    answer = new_room(client, level="easy", rules=QUICK, seed=41)
    with open_seat(client, answer) as seat:
        for _ in range(3):
            play_turn(seat)
            update = seat.until(lambda m: m["type"] == "update")
            history = update["state"]["observation"]["history"]
            assert stored_moves(db_path, answer["room"])[: len(history)] == history


def test_computer_game_resumes_after_a_restart_mid_turn(
    make_app: Callable[[], FastAPI], db_path: Path
) -> None:
    for seed in range(50, 90):
        with TestClient(make_app()) as client:
            client.headers.update(new_player(client, PLAYER))
            answer = new_room(client, level="easy", rules=QUICK, seed=seed)
            with open_seat(client, answer) as seat:
                seat.wait_my_turn_or_end()
                builds = [m for m in seat.observation["legal_moves"] if "-C" in m]
                if not builds:
                    continue
                seat.play(builds[0])
                before = seat.request({"type": "sync"})
        # a new server process on the same database
        with TestClient(make_app()) as client, open_seat(client, answer) as seat:
            after = seat.messages[-1]
            assert after["state"]["observation"] == before["state"]["observation"]
            assert after["log"] == before["log"]
            assert after["state"]["can_undo"]
            undone = seat.request({"type": "undo"})
            assert undone["state"]["observation"]["history"] == []
            outcome = play_game_against_computer(seat)
            assert outcome["reason"]
        return
    raise AssertionError("no seed gave a first turn with a build")


def test_friend_game_resumes_for_both_seats(make_app: Callable[[], FastAPI], db_path: Path) -> None:
    with TestClient(make_app()) as client:
        client.headers.update(new_player(client, PLAYER))
        # 20 pay-off cards: the deal is secret, and with 5 a game can end within the 7 moves
        # played here (then a greedy move is asked of a seat with no legal move)
        host = new_room(client, mode="friend", rules={"payoff_size": 20})
        bob = new_player(client, "bob")
        guest = client.post(f"/api/rooms/{host['room']}/join", headers=bob).json()
        with open_seat(client, host) as one, open_seat(client, guest) as two:
            seats = (one, two)
            for _ in range(7):
                mover = seats[one.observation["to_move"]]
                mover.play(greedy(mover.observation))
                seats[1 - mover.seat].until(lambda m: m["type"] == "update")
            states = [seat.request({"type": "sync"})["state"] for seat in seats]
    with (
        TestClient(make_app()) as client,
        open_seat(client, host) as one,
        open_seat(client, guest) as two,
    ):
        for seat, before in zip((one, two), states, strict=True):
            after = seat.messages[-1]["state"]
            assert after["observation"] == before["observation"]
            assert after["players"] == [PLAYER, "bob"]
        mover = (one, two)[one.observation["to_move"]]
        assert mover.play(greedy(mover.observation))["type"] == "update"


def test_an_interrupted_computer_turn_is_played_after_a_restart(
    make_app: Callable[[], FastAPI], db_path: Path
) -> None:
    """A room stored with the computer to move (the server stopped while it thought)."""
    token = new_token()
    for seed in range(100):
        match = Match(Rules(payoff_size=5), seed, (PLAYER, "Easy"))
        game = match.next_game()
        if game.to_move == 1:
            break
    seats = (Seat(PERSON, PLAYER, PLAYER), Seat(COMPUTER, "Easy"))
    table = Table.new(
        Rules(payoff_size=5), seats, level="easy", seed=seed, tokens=(hash_token(token), None)
    )
    header = MatchHeader("interrupted", table.rules, table.meta, seed=seed, room="RESUME")
    with Store.open(str(db_path)) as store:
        store.create_match(header, table.check_deal())
    assert match.game is not None and match.game.to_move == 1
    answer: dict[str, Any] = {"ws_url": "/ws/RESUME", "token": token, "seat": 0}
    with TestClient(make_app()) as client, open_seat(client, answer) as seat:
        seat.wait_my_turn_or_end()
        assert seat.observation["history"]
        assert seat.observation["to_move"] == 0 or seat.observation["outcome"] is not None


def test_an_idle_room_is_forgotten_then_loaded_again(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules=QUICK, seed=43)
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    with open_seat(client, answer) as seat:
        play_turn(seat)
        seat.wait_my_turn_or_end()
        before = seat.request({"type": "sync"})["state"]
        # a room with a connection is kept
        assert client.portal.call(lobby.sweep, 0.0) == 0  # type: ignore[union-attr]
    old = lobby.rooms[answer["room"]]
    # the server notices the closed connection on its own time: wait for it (up to 20 s)
    with suppress(AssertionError):
        wait_for(lambda: not any(old.peers), 20.0, 0.02, "the closed connection to be seen")
    assert client.portal.call(lobby.sweep, 0.0) == 1  # type: ignore[union-attr]
    assert answer["room"] not in lobby.rooms and old.closed
    # the forgotten object refuses work; the next use loads the room from the store
    info = client.get(f"/api/rooms/{answer['room']}", headers={"X-Seat-Token": answer["token"]})
    assert info.status_code == 200 and info.json()["match"]["game_number"] == 1
    with open_seat(client, answer) as again:
        assert again.state["observation"] == before["observation"]
        assert lobby.rooms[answer["room"]] is not old


def test_a_forgotten_room_object_sends_its_callers_back_to_the_lobby(
    client: TestClient,
) -> None:
    host = new_room(client, mode="friend", rules=QUICK)
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    old = lobby.rooms[host["room"]]
    assert client.portal.call(lobby.sweep, 0.0) == 1  # type: ignore[union-attr]
    with pytest.raises(RoomClosed):
        client.portal.call(old.join, "bob", "bob")  # type: ignore[union-attr]
    # the join endpoint loads the room again and seats the friend there
    guest = client.post(f"/api/rooms/{host['room']}/join", json={"player": "bob"})
    assert guest.status_code == 200
    with open_seat(client, host) as seat:
        assert seat.state["players"] == [PLAYER, "bob"]
