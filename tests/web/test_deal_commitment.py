"""Deals anyone can verify (docs/verifying.md): from the deal on, the state shows the game's
commitment (SHA-256 of its seed and a secret salt); the seed and the salt are in no message
before the game is over; then the final state and the stored record reveal them, and
``verify`` (the engine's replay from the seed) accepts the honest record and refuses one
with a changed move or a changed seed, saying why in plain words."""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spite_malice.cli import main
from spite_malice.engine import GameRecord
from spite_malice.verify import verify_record
from waiting import wait_for

from .conftest import Seat, greedy, new_room, open_seat, room_of
from .test_reveal import stored_records
from .test_socket import play_game_against_computer, start_friend_game

QUICK = {"payoff_size": 5}


def _sha(seed: int | str, salt: str) -> str:
    return hashlib.sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()


COMMITMENT = re.compile(r"[0-9a-f]{64}")


def committed_at_the_deal(seats: Sequence[Seat]) -> str:
    """The commitment every seat's table shows at the deal, before the first move (the
    same for all); for the games between strangers, whose tables are dealt by a wave."""
    committed = seats[0].state["match"]["commitment"]
    assert isinstance(committed, str) and COMMITMENT.fullmatch(committed), committed
    for seat in seats:
        assert seat.observation["history"] == [] and seat.state["reveal"] is None
        assert seat.state["match"]["commitment"] == committed
    return committed


def play_to_the_end(seats: Sequence[Seat]) -> None:
    """The seats of a game between people play greedy moves until the game is over; after
    each move every other seat has heard it (its state has as many moves as the mover's)."""
    for _move in range(5000):
        mover = next((seat for seat in seats if seat.my_turn()), None)
        if mover is None:
            assert all(seat.observation["outcome"] is not None for seat in seats)
            return
        reply = mover.play(greedy(mover.observation))
        assert reply["type"] == "update", reply
        played = len(mover.observation["history"])
        for seat in seats:
            if seat is not mover:
                seat.until(
                    lambda m, n=played: (
                        "state" in m and len(m["state"]["observation"]["history"]) >= n
                    )
                )
    raise AssertionError("the game did not end")


def assert_the_deal_verifies(
    client: TestClient, seats: Sequence[Seat], committed: str, match_id: str
) -> None:
    """A game dealt to ``committed`` and played to its end: no message of the game in play
    held its seed or salt; every seat's final state reveals them, and they make the
    commitment; the stored record of the match's first game keeps the commitment and the
    salt and verifies against the commitment seen at the deal, and so does the revealed
    record in the end screen's check (``POST /api/verify``)."""
    reveal = seats[0].state["reveal"]
    assert reveal is not None
    seed, salt = reveal["seed"], reveal["salt"]
    assert _sha(seed, salt) == committed
    for seat in seats:
        final = seat.state["reveal"]
        assert (final["seed"], final["salt"], final["commitment"]) == (seed, salt, committed)
        during = [t for t, m in zip(seat.texts, seat.messages, strict=True) if not _over(m)]
        assert during, "no message of the game in play to check"
        assert all(seed not in text and salt not in text for text in during)
    store = client.app.state.lobby.store  # type: ignore[attr-defined]
    records = wait_for(lambda: store.games(match_id), what="the game's stored record")
    record = records[0]
    deal = record.to_json()["deal"]
    assert str(record.seed) == seed
    assert (deal["commitment"], deal["salt"]) == (committed, salt)
    verified = verify_record(record, seen=committed)
    assert verified.ok, verified.checks
    answer = client.post(f"/api/verify?seen={committed}", content=json.dumps(reveal["record"]))
    assert answer.status_code == 200, answer.text
    assert answer.json()["ok"] is True, answer.json()


def _finished(client: TestClient) -> tuple[dict[str, Any], GameRecord]:
    """A game against the computer dealt from a secret seed, played to its end: the final
    state and the stored record."""
    answer = new_room(client, level="easy", rules=QUICK)
    with open_seat(client, answer) as seat:
        play_game_against_computer(seat)
        state = seat.state
    (record,) = stored_records(client, answer["room"])
    return state, record


def test_the_seed_and_salt_are_secret_until_the_end_and_then_make_the_commitment(
    client: TestClient,
) -> None:
    host, guest = start_friend_game(client, rules=QUICK)
    room = room_of(client, host["room"])
    with open_seat(client, host) as one, open_seat(client, guest) as two:
        seats = (one, two)
        committed = one.state["match"]["commitment"]
        assert committed == two.state["match"]["commitment"]
        game = room.table.game
        seed, salt, key = str(game.seed), room.table.deal_salt(), str(room.table.meta.bot_seed)
        assert committed == _sha(seed, salt)
        for count in range(3000):
            if room.table.game.is_over:
                break
            mover = seats[room.table.game.to_move]
            if count % 25 == 0:
                mover.request({"type": "sync"})
            reply = mover.play(greedy(mover.observation))
            assert reply["type"] == "update", reply
            seats[1 - mover.seat].until(lambda m: m["type"] == "update")
        assert room.table.game.is_over
        for seat in seats:
            during = [t for t, m in zip(seat.texts, seat.messages, strict=True) if not _over(m)]
            assert during, "no message of the game in play to check"
            for text in during:
                assert seed not in text and salt not in text and key not in text
                assert committed in text or '"commitment"' not in text
            # the end: the final state reveals both, and they make the commitment shown
            final = seat.state
            assert final["reveal"]["seed"] == seed and final["reveal"]["salt"] == salt
            assert final["reveal"]["commitment"] == committed


def _over(message: dict[str, Any]) -> bool:
    state = message.get("state")
    return isinstance(state, dict) and state.get("reveal") is not None


def test_an_honest_record_verifies(client: TestClient) -> None:
    state, record = _finished(client)
    data = record.to_json()
    assert data["deal"]["commitment"] == state["match"]["commitment"]
    assert data["deal"]["salt"] == state["reveal"]["salt"]
    verified = verify_record(record, seen=state["match"]["commitment"])
    assert verified.ok, verified.checks
    assert "the seed was fixed before the first move" in verified.checks[0].text
    assert "moves can be played, with the record's result" in verified.checks[-1].text


def test_a_changed_move_or_a_changed_seed_is_found(client: TestClient) -> None:
    _, record = _finished(client)
    data = record.to_json()
    moved = copy.deepcopy(data)
    moved["moves"][0] = next(m for m in ("H1-S1", "H1-S2", "H2-S1") if m != data["moves"][0])
    changed = verify_record(GameRecord.from_json(moved))
    assert not changed.ok
    assert changed.checks[0].ok  # the seed is still the one committed to
    assert "does not match the record" in changed.checks[-1].text
    reseeded = {**data, "seed": data["seed"] + 1}
    other = verify_record(GameRecord.from_json(reseeded))
    assert not other.ok
    assert "this is not the seed committed to at the deal" in other.checks[0].text
    unsalted = {key: value for key, value in data.items() if key != "deal"}
    assert "no commitment" in verify_record(GameRecord.from_json(unsalted)).checks[0].text


def test_the_end_screen_asks_the_server_to_verify(client: TestClient) -> None:
    state, _ = _finished(client)
    record = state["reveal"]["record"]
    assert isinstance(record["seed"], str)  # exact in a page
    seen = state["match"]["commitment"]
    answer = client.post(f"/api/verify?seen={seen}", content=json.dumps(record))
    assert answer.status_code == 200, answer.text
    assert answer.json()["ok"] is True and len(answer.json()["checks"]) == 2
    forged = {**record, "seed": str(int(record["seed"]) + 1)}
    refused = client.post(f"/api/verify?seen={seen}", content=json.dumps(forged)).json()
    assert refused["ok"] is False
    assert "not the seed committed to" in refused["checks"][0]["text"]
    other = client.post("/api/verify?seen=" + "0" * 64, content=json.dumps(record)).json()
    assert other["ok"] is False and "not the one shown at the deal" in other["checks"][0]["text"]
    bad = client.post("/api/verify", content=b"not json")
    assert bad.status_code == 422 and "not JSON" in bad.json()["error"]["message"]


def test_the_command_line_verifies_a_record_file(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, record = _finished(client)
    honest = tmp_path / "honest.json"
    honest.write_text(record.dumps(), encoding="utf-8")
    assert main(["verify", str(honest)]) == 0
    printed = capsys.readouterr().out
    assert "The deal is verified." in printed and "✗" not in printed
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps({**record.to_json(), "seed": record.seed + 1}), encoding="utf-8")
    assert main(["verify", str(forged)]) == 1
    assert "The deal is NOT verified." in capsys.readouterr().out
