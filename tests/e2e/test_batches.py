"""End to end: the page asks for batches (web-protocol.md 4.3) and plays a batch's messages
in order, one by one, as if each had come in a frame of its own (issue 13): the discard's
update and the computer's whole turn after it come in one frame, and the move log then lists
every move of the game in the order played, each once. It asks for deltas too: the states
the test makes of them are the ones the page draws."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import WebSocket, expect

from spite_malice.table.seat_state import apply_delta

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e

MAX_TURNS = 30
"""A bound on my turns, so a page that never gets a batch fails instead of hanging."""


def test_a_batch_of_the_computers_turn_is_played_in_order(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    context = new_context()
    me = Player.open(context, server.url, "batches")
    page = me.page
    sent: list[dict[str, Any]] = []
    frames: list[dict[str, Any]] = []

    def watch(socket: WebSocket) -> None:
        socket.on("framesent", lambda text: sent.append(json.loads(text)))
        socket.on("framereceived", lambda text: frames.append(json.loads(text)))

    page.on("websocket", watch)
    me.configure(payoff_size=20, speed="fast")
    me.goto("settings")
    page.check("#pref-log_notation")  # the log shows each move's notation
    me.start_computer_game("easy")
    batch: list[dict[str, Any]] = []
    # a quick computer's moves come together; one whose decision took a while (a loaded
    # machine) comes move by move: a few turns find a batch of several
    for _ in range(MAX_TURNS):
        if me.wait_phase("mine", "over") == "over":
            break
        before = len(frames)
        me.play_greedy_turn()
        if me.wait_phase("mine", "over") == "over":
            break
        batch = next(
            (
                frame["messages"]
                for frame in frames[before:]
                if frame["type"] == "batch"
                and sum(m["type"] == "update" for m in frame["messages"]) > 1
            ),
            [],
        )
        if batch:
            break
    assert sent[0]["type"] == "hello" and sent[0]["batch"] is True
    assert batch, "no batch held several moves"
    assert sent[0]["delta"] is True
    received = [m for f in frames for m in (f["messages"] if f["type"] == "batch" else [f])]
    with_states(received)
    history: list[str] = [m for m in received if m["type"] == "update"][-1]["state"]["observation"][
        "history"
    ]
    # the page drew the state of the last move, having played every one before it
    expect(page.locator("#table")).to_have_attribute("data-moves", str(len(history)))
    logged = page.locator("#move-log code.log-move").all_inner_texts()
    assert logged == history  # each move once, in the order played
    # the batch's moves, one after the other, in the game as played
    updates = [m for m in batch if m["type"] == "update"]
    played: list[str] = updates[-1]["state"]["observation"]["history"]
    assert played[-len(updates) :] == [m["move"] for m in updates]
    assert history[: len(played)] == played
    assert me.errors == []


def with_states(received: list[dict[str, Any]]) -> None:
    """Give each update the whole state its delta makes of the one before (as net.js does,
    web-protocol.md 4.3), checking that each follows the state it names."""
    state: dict[str, Any] = {}
    seq = None
    for message in received:
        if message["type"] == "update" and "delta" in message:
            assert message["base"] == seq
            message["state"] = apply_delta(state, message["delta"])
        if message["type"] in ("state", "update"):
            state, seq = message["state"], message["seq"]
