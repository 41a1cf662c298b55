"""Several instances on one PostgreSQL (issue 13): a move made on one instance reaches the
seat connected to another at once (LISTEN/NOTIFY), the computer's turn is played by exactly
one instance and taken over when that instance dies, and the health check reports the
database. Real ``spite-malice serve`` processes on loopback.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from spite_malice.cluster import Instance
from spite_malice.cluster.processes import free_port, wait_until

from .helpers import LONG, QUICK, greedy, new_player, stored_history

pytestmark = pytest.mark.postgres

WAIT = 30.0


@contextmanager
def instances(db: str, count: int, folder: Path, first: int = 0) -> Iterator[list[Instance]]:
    """``count`` instances of ``spite-malice serve`` on ``db``, once they answer (numbered
    from ``first``: their logs' names)."""
    numbers = range(first, first + count)
    started = [Instance(n, free_port(), db, folder / f"instance{n}.log") for n in numbers]
    try:
        for instance in started:
            instance.start()
            wait_until(instance.is_up, 60, f"instance {instance.number}")
        yield started
    finally:
        for instance in started:
            instance.kill()


@pytest.fixture(scope="module")
def shared(
    postgres_module_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, list[Instance]]]:
    """Two instances on one database for the module's tests (each plays its own room); the
    instance a test kills is its own."""
    folder = tmp_path_factory.mktemp("instances")
    with instances(postgres_module_url, 2, folder) as started:
        yield postgres_module_url, started


@contextmanager
def seat_socket(address: str, ticket: dict[str, Any]) -> Iterator[ClientConnection]:
    """A seat's WebSocket on the instance at ``address``, after its ``hello``."""
    with connect(f"ws://{address}{ticket['ws_url']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": ticket["token"]}))
        yield ws


def request(ws: ClientConnection, message: dict[str, Any], ident: int) -> dict[str, Any]:
    ws.send(json.dumps({**message, "id": ident}))
    while True:
        answer: dict[str, Any] = json.loads(ws.recv(timeout=WAIT))
        if answer.get("reply_to") == ident:
            return answer


def wait_for_state(ws: ClientConnection, wanted: Any, timeout: float = WAIT) -> dict[str, Any]:
    """Read what the server pushes (sending nothing) until a state satisfies ``wanted``."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "the server did not send the expected state in time"
        message: dict[str, Any] = json.loads(ws.recv(timeout=left))
        state = message.get("state")
        if state is not None and wanted(state):
            return state


def test_a_move_on_one_instance_reaches_the_seat_on_another(
    shared: tuple[str, list[Instance]],
) -> None:
    db, (one, two) = shared
    host = httpx.post(
        f"{one.url}/api/rooms",
        json={"mode": "friend", "rules": QUICK},
        headers=new_player(one.url, "Ann"),
    ).json()
    guest = httpx.post(
        f"{two.url}/api/rooms/{host['room']}/join", headers=new_player(two.url, "Bob")
    ).json()
    assert guest["seat"] == 1, guest
    with ExitStack() as stack:
        seats = (
            stack.enter_context(seat_socket(one.address, host)),
            stack.enter_context(seat_socket(two.address, guest)),
        )
        ident = 0
        states = []
        for ws in seats:
            ident += 1
            states.append(request(ws, {"type": "sync"}, ident)["state"])
        acknowledged: list[str] = []
        observation = states[0]["observation"]
        for _ in range(12):
            mover = observation["to_move"]
            ident += 1
            mine = request(seats[mover], {"type": "sync"}, ident)["state"]["observation"]
            ident += 1
            answer = request(seats[mover], {"type": "move", "move": greedy(mine)}, ident)
            assert answer["type"] == "update", answer
            acknowledged.append(answer["move"])
            # the other seat, on the other instance, hears of it without asking
            seen = wait_for_state(
                seats[1 - mover],
                lambda s: s["observation"]["history"] == acknowledged,
            )
            observation = seen["observation"]
            if observation["outcome"] is not None:
                break
    assert stored_history(db, host["room"])[: len(acknowledged)] == acknowledged


def test_the_computer_turn_is_taken_over_when_its_instance_dies(
    shared: tuple[str, list[Instance]], tmp_path: Path
) -> None:
    """The person discards on instance one, which starts the computer's turn and is killed
    at once; the page reconnects to instance two, which takes over when the lease runs out:
    the computer's turn is played once, and the person is to move again."""
    db, (_, two) = shared
    with instances(db, 1, tmp_path, first=2) as (one,):
        header = new_player(one.url, "Ann")
        room = httpx.post(
            f"{one.url}/api/rooms",
            json={"mode": "computer", "level": "hard", "rules": LONG},
            headers=header,
        ).json()
        ident = 0
        with seat_socket(one.address, room) as ws:
            ident += 1
            observation = request(ws, {"type": "sync"}, ident)["state"]["observation"]
            # play until the person's discard hands the turn to the computer
            while observation["to_move"] != 0:
                observation = wait_for_state(ws, lambda s: s["observation"]["to_move"] == 0)[
                    "observation"
                ]
            while True:
                move = greedy(observation)
                ident += 1
                answer = request(ws, {"type": "move", "move": move}, ident)
                assert answer["type"] == "update", answer
                observation = answer["state"]["observation"]
                if observation["to_move"] == 1:
                    break
            before = list(observation["history"])
            one.kill()  # in the middle of the computer's turn
        with seat_socket(two.address, room) as ws:
            state = wait_for_state(
                ws,
                lambda s: s["observation"]["to_move"] == 0 or s["observation"]["outcome"],
                timeout=60,
            )
        history = state["observation"]["history"]
    assert history[: len(before)] == before
    computer_turn = history[len(before) :]
    discards = [m for m in computer_turn if "-S" in m and not m.startswith("S")]
    # one whole turn of the computer: its builds and exactly one discard (unless it won)
    assert len(discards) == 1 or (not discards and state["observation"]["outcome"])
    assert stored_history(db, room["room"]) == history
