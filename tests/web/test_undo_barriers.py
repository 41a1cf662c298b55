"""Undo never reveals, in the browser game: a move after which a hidden card was seen (a
pay-off build turned up the next card, emptying the hand drew five) cannot be taken back,
and the player is told why (issue 11, item 2)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from undo_scenes import RULES, Scene, hand_emptied, payoff_turned

from .conftest import Seat, new_room, open_seat


def play_scene(seat: Seat, scene: Scene) -> None:
    """Play the person's moves of the scene; the computer (reference) plays its own."""
    for number in range(len(scene.moves) + 1):
        if len(seat.observation["history"]) < number:
            seat.until(
                lambda m, n=number: "state" in m and len(m["state"]["observation"]["history"]) >= n
            )
        history = seat.observation["history"]
        assert history == list(scene.moves[: len(history)])
        mine = seat.observation["to_move"] == 0
        if number < len(scene.moves) and len(history) == number and mine:
            assert seat.play(scene.moves[number])["type"] == "update"


@pytest.mark.parametrize(
    ("scene", "reason"),
    [(payoff_turned(), "a new card was turned up"), (hand_emptied(), "five new cards were drawn")],
    ids=["payoff_turned_up", "hand_drew_five"],
)
def test_undo_stops_at_a_move_that_showed_a_hidden_card(
    client: TestClient, scene: Scene, reason: str
) -> None:
    answer = new_room(client, level="reference", rules=RULES.to_json(), seed=scene.seed)
    with open_seat(client, answer) as seat:
        play_scene(seat, scene)
        before = seat.request({"type": "sync"})["state"]
        assert before["observation"]["history"] == list(scene.moves)
        assert not before["can_undo"] and reason in before["undo_barrier"]
        refused = seat.request({"type": "undo"})
        assert refused["type"] == "error" and refused["code"] == "no_undo"
        assert reason in refused["message"]
        after = seat.request({"type": "sync"})["state"]
        assert after["observation"] == before["observation"]  # nothing taken back
