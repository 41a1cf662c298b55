"""Updates as deltas (web-protocol 4.3): a connection whose ``hello`` says ``"delta": true``
gets, with each move, what changed since the state its ``base`` numbers; applied to its last
state it must give the whole state a connection without deltas gets. (The hidden-card scan of
deltas is in test_privacy; the seat helper checks every delta's ``base``.)"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import new_room, open_seat, room_of
from .test_socket import QUICK, play_game_against_computer, play_turn


def shown(messages: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    """Each update's and state's (type, state), as the seat holds them."""
    return [(m["type"], m["state"]) for m in messages if m["type"] in ("update", "state")]


def test_a_seat_taking_deltas_holds_the_states_of_one_taking_whole_states(
    client: TestClient,
) -> None:
    """Two tabs of one seat, one with deltas: after every message of a whole game (hints,
    an undo, the next game's deal) both hold the same state, and each update is shorter as a
    delta than whole."""
    answer = new_room(client, level="easy", rules=QUICK, seed=5)
    with open_seat(client, answer) as whole, open_seat(client, answer, deltas=True) as deltas:
        whole.until(lambda m: m["type"] == "presence")  # the second tab's arrival
        start = len(whole.messages)
        whole.wait_my_turn_or_end()
        whole.hint_build_undo()
        play_game_against_computer(whole)
        assert whole.request({"type": "new_game"})["type"] == "state"
        play_turn(whole)
        seen = shown(whole.messages[start:])
        while len(shown(deltas.messages)) < len(seen) + 1:  # + its own connect state
            deltas.receive()
        assert shown(deltas.messages)[1:] == seen
    made = [t for t, m in zip(deltas.texts, deltas.messages, strict=True) if "delta" in m]
    sent = [
        text
        for text, message in zip(whole.texts[start:], whole.messages[start:], strict=True)
        if message["type"] == "update"
    ]
    assert len(made) == len(sent) > 20
    for delta, text in zip(made, sent, strict=True):
        assert '"history":' not in delta
        assert len(delta) < len(text), (delta, text)


def test_a_move_s_delta_holds_only_what_the_move_changed(client: TestClient) -> None:
    """A build's delta: the history's new move as its tail, the presence fields, and no
    unchanged field (the room, the players, the rules)."""
    answer = new_room(client, level="easy", rules=QUICK, seed=5)
    with open_seat(client, answer, deltas=True) as seat:
        seat.wait_my_turn_or_end()
        before = seat.observation["history"]
        move = seat.observation["legal_moves"][0]
        reply = seat.play(move)
    delta = reply["delta"]
    assert {"connected", "away"} <= delta.keys()
    assert not {"room", "mode", "players", "level", "seat"} & delta.keys()
    observation = delta["observation"]
    assert "rules" not in observation and "seat" not in observation
    assert observation["history_tail"] == {"at": len(before), "moves": [move.upper()]}
    assert reply["seq"] > reply["base"]


def test_a_reconnect_starts_again_from_the_whole_state(client: TestClient) -> None:
    """A connection opened again gets the whole state, and the deltas after it follow it."""
    answer = new_room(client, level="easy", rules=QUICK, seed=9)
    with open_seat(client, answer, deltas=True) as seat:
        play_turn(seat)
        seat.wait_my_turn_or_end()
    with open_seat(client, answer, deltas=True) as again:
        assert again.state == seat.state
        play_turn(again)  # every delta's base is checked by the seat helper
        again.wait_my_turn_or_end()
        room = room_of(client, answer["room"])
        assert again.observation == room.broadcaster.state_for(0)["observation"]


def test_a_missed_update_is_caught_by_its_base_and_a_sync_mends_it(client: TestClient) -> None:
    """An update made and never sent (as when the store refuses a computer turn after its
    updates were made) leaves the next delta's ``base`` on a state the client never had: the
    client sees it, asks ``sync``, and the deltas after the whole state follow it."""
    answer = new_room(client, level="easy", rules=QUICK, seed=11)
    room = room_of(client, answer["room"])
    with open_seat(client, answer, deltas=True) as seat:
        seat.wait_my_turn_or_end()
        room.broadcaster.updates(1, "P-C1", [])  # made, never sent
        with pytest.raises(AssertionError, match="a delta of state"):
            seat.play(seat.observation["legal_moves"][0])
        seat.socket.send_json({"type": "sync", "id": "mend"})
        while True:  # what comes before the whole state follows the missed one: dropped
            synced = json.loads(seat.socket.receive_text())
            if synced.get("reply_to") == "mend":
                break
        assert synced["type"] == "state"
        seat.state, seat.seq = synced["state"], synced["seq"]
        play_turn(seat)  # every delta's base is checked by the seat helper again
        seat.wait_my_turn_or_end()
        assert seat.state["observation"] == room.broadcaster.state_for(0)["observation"]
