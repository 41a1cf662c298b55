"""Issue 17, item 7: the end-of-game reveal. Once a game is over (won, drawn or resigned) the
state carries every card that was hidden (both pay-off piles, both hands, the stock in draw
order), and it is exactly what the server's stored record of that game gives when replayed;
while the game is played it is absent (test_privacy scans every message for that)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi.testclient import TestClient

from spite_malice.engine import GameRecord, card_str
from spite_malice.store import Store

from .conftest import new_room, open_seat, room_of
from .test_socket import play_game_against_computer, play_turn

QUICK = {"payoff_size": 5}


def reveal_of_record(record: GameRecord) -> dict[str, Any]:
    """The hidden cards at the end of a stored game, from its record alone."""
    game = replace(record, result=None).replay()  # a resigned record ends unfinished
    return {
        "payoffs": [[card_str(c) for c in player.payoff] for player in game.players],
        "hands": [[card_str(c) for c in player.hand] for player in game.players],
        "stock": [card_str(c) for c in reversed(game.stock)],
    }


def stored_records(client: TestClient, code: str) -> list[GameRecord]:
    store: Store = client.app.state.lobby.store  # type: ignore[attr-defined]
    return store.games(room_of(client, code).header.id)


def without_game(reveal: dict[str, Any]) -> dict[str, Any]:
    """The reveal's cards (its seed, salt and record are test_deal_commitment's)."""
    return {key: reveal[key] for key in ("payoffs", "hands", "stock")}


def test_the_reveal_of_a_finished_game_is_the_stored_record(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules=QUICK, seed=5)
    with open_seat(client, answer) as seat:
        assert seat.state["reveal"] is None
        play_game_against_computer(seat)
        reveal = seat.state["reveal"]
        assert reveal is not None and reveal["game"] == 1
        (record,) = stored_records(client, answer["room"])
        assert without_game(reveal) == reveal_of_record(record)
        # 104 cards in all: the table's face-up cards and the reveal account for every one
        obs = seat.observation
        shown = sum(len(stack) for stack in obs["center"])
        shown += sum(len(pile) for player in obs["players"] for pile in player["side"])
        hidden = sum(len(cards) for part in ("payoffs", "hands") for cards in reveal[part])
        assert shown + hidden + len(reveal["stock"]) == 104
        # the computer's hand is in the reveal, though it was never in an observation
        assert len(reveal["hands"][1]) == obs["players"][1]["hand_count"]
        # the next game hides everything again
        fresh = seat.request({"type": "new_game"})
        assert fresh["state"]["reveal"] is None


def test_a_resigned_game_is_in_the_state_and_revealed(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules={"payoff_size": 20}, seed=8)
    with open_seat(client, answer) as seat:
        play_turn(seat)
        seat.wait_my_turn_or_end()
        assert seat.state["resigned"] is None and seat.state["reveal"] is None
        reply = seat.request({"type": "resign"})
        assert reply["cause"] == "resign"
        assert reply["state"]["resigned"] == 0
        reveal = reply["state"]["reveal"]
        (record,) = stored_records(client, answer["room"])
        assert record.result is not None and record.result.reason == "resigned"
        assert without_game(reveal) == reveal_of_record(record)
    # a reload (a new connection) shows the resignation and the reveal again
    with open_seat(client, answer) as again:
        assert again.state["resigned"] == 0
        assert again.state["reveal"] == reveal
