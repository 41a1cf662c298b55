"""The offline session speaks the server's messages for a computer room (web-protocol 4)."""

from __future__ import annotations

import json

from spite_malice.offline import OfflineSession

from .conftest import new_session, play_out


def test_hello_is_welcome_state_and_presence_as_a_room_sends_them() -> None:
    session = new_session()
    sent = session.hello("en")
    assert [m["type"] for m in sent] == ["welcome", "state", "presence"]
    welcome, state = sent[0], sent[1]
    assert welcome["room"] == session.room and welcome["room"].startswith("OFF")
    assert welcome["mode"] == "computer" and welcome["level"] == "medium"
    assert state["cause"] == "connect"
    assert state["state"]["observation"]["rules"]["payoff_size"] == 5
    json.dumps(sent)  # all of it is JSON


def test_a_match_plays_to_the_end_against_each_level() -> None:
    for level in ("easy", "medium", "hard"):
        session = new_session(level)
        play_out(session)
        record = session.record()
        assert record["over"] and record["level"] == level
        assert record["steps"][0]["kind"] == "deal"


def test_an_illegal_move_is_refused_with_a_plain_reason_and_changes_nothing() -> None:
    session = new_session()
    while session.computer_to_move:
        session.computer_move()
    before = session.record()
    [answer] = session.handle({"type": "move", "id": 7, "move": "H9-C1"})
    assert answer["type"] == "error" and answer["reply_to"] == 7
    assert answer["code"] in ("illegal_move", "bad_notation")
    assert "Traceback" not in answer["message"] and answer["message"]
    assert session.record() == before


def test_undo_and_hint_answer_and_mark_the_game_assisted() -> None:
    session = new_session(seed=3)
    while session.computer_to_move:
        session.computer_move()
    [hint] = session.handle({"type": "hint", "id": 1})
    assert hint["type"] == "hint" and hint["moves"] and hint["reason"]
    [update] = session.handle({"type": "move", "id": 2, "move": hint["moves"][0]})
    assert update["type"] == "update" and update["reply_to"] == 2
    if not hint["moves"][0].count("-S"):  # not a discard: the turn goes on, undo works
        [state] = session.handle({"type": "undo", "id": 3})
        assert state["type"] == "state" and state["cause"] == "undo"
    assert session.state_for(0)["assisted"] is True


def test_a_saved_record_restores_the_same_match() -> None:
    session = new_session(seed=5)
    for _ in range(3):
        while session.computer_to_move:
            session.computer_move()
        move = session.table.observation(0).legal_moves[0]
        session.handle({"type": "move", "id": 1, "move": str(move)})
    record = json.loads(json.dumps(session.record()))
    again = OfflineSession.restore(session.room, record)
    assert again.record() == session.record()
    assert again.state_for(0) == session.state_for(0)


def test_a_new_match_is_a_new_record_and_gives_up_the_unfinished_one() -> None:
    session = new_session()
    first = session.record()["id"]
    [state] = session.handle({"type": "new_match", "id": 4, "level": "easy"})
    assert state["cause"] == "new_match" and state["state"]["level"] == "easy"
    assert session.record()["id"] != first and session.room == state["state"]["room"]


def test_friend_messages_and_unknown_ones_are_refused() -> None:
    session = new_session()
    for kind in ("rematch", "claim", "dance"):
        [answer] = session.handle({"type": kind, "id": 9})
        assert answer["type"] == "error" and answer["reply_to"] == 9
    [answer] = session.handle("not a message")
    assert answer["code"] == "bad_message"


def test_the_record_writes_seeds_as_text_a_page_keeps_exactly() -> None:
    """A page's numbers hold 53 bits and a seed 63: as a number, a seed would change."""
    session = new_session(seed=2**62 + 1)
    record = session.record()
    assert record["seed"] == str(2**62 + 1)
    deal = record["steps"][0]
    assert isinstance(deal["seed"], str) and int(deal["seed"]) >= 0
    again = OfflineSession.restore(session.room, json.loads(json.dumps(record)))
    assert again.record() == record
