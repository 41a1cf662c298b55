"""R6.3: no message to a seat ever contains a card hidden from it, in any field.

Each test plays whole games over the WebSocket, keeping every message each seat receives.
A connection that asks for deltas (4.3) is checked the same way: the text of every
delta is scanned, and the state it makes of the last one must be the engine's.
Afterwards the game record is replayed with the engine, step by step, to find every card
face that seat could ever see (its hand, every face-up card). A face outside that set was
only ever in the other hand, the stock or the face-down pay-off cards: its notation must
appear in no message to that seat. Every observation in a message must also equal the
engine's observation of that seat at that point, field for field.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spite_malice.engine import (
    CardBuilt,
    CardDiscarded,
    CardsDrawn,
    Event,
    Game,
    GameRecord,
    PayoffTurned,
    StackCompleted,
    card_str,
    public_event,
)

from .conftest import Seat, card_strings, fixed_deals, greedy, new_room, open_seat, room_of
from .test_socket import play_game_against_computer, play_turn

ALL_FACES = {rank + suit for rank in "A23456789TJQK" for suit in "SHDC"}


def seen_faces(game: Game, seat: int) -> set[str]:
    """Every face the seat could see at some point of this (finished) game: face-up cards
    and its hand after each move, and the cards the public events name (a Queen that
    completes a stack is seen only in its move)."""
    record = GameRecord.from_game(game)
    replay = Game.new(record.seed, record.rules, first=record.first)
    seen = {card_str(card) for card in replay.observation(seat).visible_cards()}
    for move in record.moves:
        replay.play(move)
        seen |= {card_str(card) for card in replay.observation(seat).visible_cards()}
    for event in replay.events:
        seen |= {card_str(card) for card in event_cards(public_event(event, seat))}
    return seen


def event_cards(event: Event) -> tuple[int, ...]:
    if isinstance(event, CardBuilt | CardDiscarded | PayoffTurned):
        return (event.card,)
    if isinstance(event, CardsDrawn | StackCompleted):
        return event.cards
    return ()


def observations_by_length(game: Game, seat: int) -> dict[int, dict[str, Any]]:
    """The engine's observation JSON of ``seat`` after each number of moves."""
    record = GameRecord.from_game(game)
    replay = Game.new(record.seed, record.rules, first=record.first)
    found = {0: replay.observation(seat).to_json()}
    for number, move in enumerate(record.moves, start=1):
        replay.play(move)
        found[number] = replay.observation(seat).to_json()
    return found


def check_seat(seat: Seat, games: list[Game]) -> int:
    """Assert that no message of game ``n`` (``games[n - 1]``) to the seat holds a face hidden
    from it in that game, and that every observation is the engine's; return the fewest
    faces that stayed hidden in a game."""
    number = 1
    fewest = len(ALL_FACES)
    checked = dict.fromkeys(range(1, len(games) + 1), 0)
    hidden = {n: ALL_FACES - seen_faces(game, seat.seat) for n, game in enumerate(games, 1)}
    expected = {n: observations_by_length(game, seat.seat) for n, game in enumerate(games, 1)}
    for message, text in zip(seat.messages, seat.texts, strict=True):
        state = message.get("state")
        if state is not None:
            number = state["match"]["game_number"]
            if state["observation"]["outcome"] is None and state["resigned"] is None:
                # issue 17, item 7: the hidden cards are shown only once the game is over
                assert state["reveal"] is None, f"a reveal during play: {text[:300]}"
            elif state["reveal"] is not None:
                # the end-of-game reveal is the one place hidden cards may be: scan the rest
                assert state["reveal"]["game"] == number
                # (and in a delta, which holds the reveal when it changed)
                scanned = {**message, "state": {**state, "reveal": None}}
                if "delta" in message:
                    scanned["delta"] = {**message["delta"], "reveal": None}
                text = json.dumps(scanned)
        leaked = card_strings(text) & hidden[number]
        assert not leaked, f"seat {seat.seat} was sent hidden cards {leaked}: {text[:300]}"
        checked[number] += 1
        if state is None:
            continue
        observation = state["observation"]
        assert "stock" not in observation
        assert all("hand" not in player for player in observation["players"])
        assert observation == expected[number][len(observation["history"])]
    assert all(checked.values()), "a game had no message to check"
    for faces in hidden.values():
        fewest = min(fewest, len(faces))
    return fewest


@pytest.mark.parametrize("deltas", [False, True], ids=["whole states", "deltas"])
def test_no_hidden_card_reaches_either_seat_of_a_friend_game(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, deltas: bool
) -> None:
    fixed_deals(monkeypatch, 31)  # a deal in which some faces stay hidden to the end
    host = new_room(client, mode="friend", rules={"payoff_size": 8})
    guest = client.post(f"/api/rooms/{host['room']}/join", json={"player": "bob"}).json()
    room = room_of(client, host["room"])
    with (
        open_seat(client, host, deltas=deltas) as one,
        open_seat(client, guest, deltas=deltas) as two,
    ):
        seats = (one, two)
        for _ in range(3000):
            game = room.game
            if game.is_over:
                break
            mover = seats[game.to_move]
            reply = mover.play(greedy(mover.observation))
            assert reply["type"] == "update", reply
            other = seats[1 - mover.seat]
            other.until(lambda m: m["type"] == "update")
        assert room.game.is_over
        # a few refused requests and a sync also go through the scan
        one.request({"type": "sync"})
        two.request({"type": "hint"})
        one.play("P-S1")
        hidden = [check_seat(seat, [room.game]) for seat in seats]
    assert min(hidden) > 0, "the test proves nothing when every face was seen"
    # the check does catch a leak: plant one hidden face in one more message
    face = sorted(ALL_FACES - seen_faces(room.game, 0))[0]
    one.messages.append({"type": "planted"})
    one.texts.append(json.dumps({"type": "planted", "opponent_hand": [face]}))
    with pytest.raises(AssertionError, match="hidden cards"):
        check_seat(one, [room.game])


def test_no_hidden_card_reaches_any_connection_of_a_seat_open_several_times(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each seat open three times at once: whole states in English, deltas in English and
    deltas in French. A move's update is made once per seat and language, and only in the
    forms that seat's connections ask for (``Broadcaster.updates``): no connection of either
    seat gets the other seat's update, nor a card hidden from its seat, in either form, and
    every connection of a seat ends on the same observation."""
    fixed_deals(monkeypatch, 31)
    host = new_room(client, mode="friend", rules={"payoff_size": 8})
    guest = client.post(f"/api/rooms/{host['room']}/join", json={"player": "bob"}).json()
    room = room_of(client, host["room"])
    ways = [(False, None), (True, None), (True, "fr")]
    with contextlib.ExitStack() as opened:
        seats = [
            [
                opened.enter_context(open_seat(client, answer, deltas=deltas, language=language))
                for deltas, language in ways
            ]
            for answer in (host, guest)
        ]
        for _ in range(3000):
            game = room.game
            if game.is_over:
                break
            mover = seats[game.to_move][game.to_move % 2 + 1]  # a delta connection, by turns
            reply = mover.play(greedy(mover.observation))
            assert reply["type"] == "update", reply
            for connection in seats[0] + seats[1]:
                if connection is not mover:
                    connection.until(lambda m: m["type"] == "update")
        assert room.game.is_over
        for connection in seats[0] + seats[1]:
            check_seat(connection, [room.game])
            assert connection.observation == seats[connection.seat][0].observation
    # a stream each (the streams are kept per seat and language), the same moves in both
    english, french = (
        [m for m in connection.messages if m["type"] == "update"] for connection in seats[0][1:]
    )
    assert len(english) == len(french) and english[-1]["seq"] != french[-1]["seq"]
    assert [m["move"] for m in english] == [m["move"] for m in french]


@pytest.mark.parametrize("deltas", [False, True], ids=["whole states", "deltas"])
def test_no_hidden_card_reaches_a_player_against_the_computer(
    client: TestClient, deltas: bool
) -> None:
    answer = new_room(client, level="easy", rules={"payoff_size": 8}, seed=34)
    room = room_of(client, answer["room"])
    with open_seat(client, answer, deltas=deltas) as seat:
        games = []
        for _ in range(2):
            seat.wait_my_turn_or_end()
            if seat.my_turn():
                seat.hint_build_undo()
                play_turn(seat)
            play_game_against_computer(seat)
            games.append(room.game)
            if len(games) < 2:
                seat.request({"type": "new_game"})
        hidden = check_seat(seat, games)
    assert hidden > 0
