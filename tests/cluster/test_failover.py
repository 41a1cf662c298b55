"""Failover through the balancer (issue 13, item 5): an instance killed with SIGKILL while two
friends play and while the computer is in the middle of its turn. The pages reconnect through
HAProxy, both games go on from where they were, no acknowledged move is lost and none is
applied twice. Needs PostgreSQL's programs and HAProxy (.ci/run installs both)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from spite_malice.cluster import Cluster, Instance
from spite_malice.store import Store
from waiting import wait_for

from .helpers import (
    LONG,
    QUICK,
    greedy,
    have_services,
    new_player,
    stored_history,
)
from .processes import database_url, instance_name

pytestmark = pytest.mark.skipif(
    not have_services(), reason="needs PostgreSQL's server programs and HAProxy"
)


class Seat:
    """A page's seat through the balancer: it reconnects (and says hello again) whenever its
    connection drops, as the page does."""

    def __init__(self, base: str, ticket: dict[str, Any]) -> None:
        self.url = base.replace("http://", "ws://") + ticket["ws_url"]
        self.token = ticket["token"]
        self.ident = 0
        self.reconnects = -1
        self.ws: ClientConnection | None = None
        self.opened = ExitStack()
        """The open connection's context (websockets wants one: it is kept across requests
        and left by :meth:`close`)."""

    def _open(self) -> ClientConnection:
        def opened() -> ClientConnection | None:
            try:
                ws = self.opened.enter_context(connect(self.url, open_timeout=10))
                ws.send(json.dumps({"type": "hello", "token": self.token}))
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                # refused, or 503 from the balancer until it has marked the instance down
                return None
            self.reconnects += 1
            return ws

        return wait_for(opened, 60, 0.2, "a connection through the balancer")

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send and wait for the direct reply; on a dropped connection reconnect and ask again
        (a move asked again after a failover is refused or answered from the log)."""
        while True:
            if self.ws is None:
                self.ws = self._open()
            self.ident += 1
            try:
                self.ws.send(json.dumps({**message, "id": self.ident}))
                while True:
                    answer: dict[str, Any] = json.loads(self.ws.recv(timeout=60))
                    if answer.get("reply_to") == self.ident:
                        return answer
            except (ConnectionClosed, OSError, TimeoutError):
                self.close()

    def observation(self) -> dict[str, Any]:
        state: dict[str, Any] = self.request({"type": "sync"})["state"]
        observation: dict[str, Any] = state["observation"]
        return observation

    def close(self) -> None:
        if self.ws is not None:
            with suppress(ConnectionClosed, OSError):
                self.opened.close()
            self.ws = None


@contextmanager
def seats(*tickets: tuple[str, dict[str, Any]]) -> Iterator[list[Seat]]:
    opened = [Seat(base, ticket) for base, ticket in tickets]
    try:
        yield opened
    finally:
        for seat in opened:
            seat.close()


def _wait_for_my_turn(person: Seat, seconds: float = 90.0) -> dict[str, Any]:
    """The person's observation once it is the person's turn (or the game is over)."""

    def mine() -> dict[str, Any] | None:
        observation = person.observation()
        if observation["to_move"] == 0 or observation["outcome"] is not None:
            return observation
        return None

    return wait_for(mine, seconds, 0.3, "the computer's turn to end")


def test_a_rooms_requests_reach_one_instance_and_rooms_spread_over_all(
    cluster: Cluster,
) -> None:
    """The balancer sends a room's requests to one instance, chosen by its code, and other
    requests to the least busy one (deploy/haproxy.cfg). First in this module: the kills
    below change which instance serves which room while the balancer notices them."""
    base = cluster.address
    player = new_player(base, "Ann")
    serving: dict[str, set[str]] = {}
    for _ in range(12):
        ticket = httpx.post(
            f"{base}/api/rooms", json={"mode": "friend", "rules": QUICK}, headers=player, timeout=30
        ).json()
        serving[ticket["room"]] = set()
        for _ in range(4):
            answer = httpx.get(
                f"{base}/api/rooms/{ticket['room']}",
                headers={"X-Seat-Token": ticket["token"]},
                timeout=30,
            )
            assert answer.status_code == 200, answer.text
            serving[ticket["room"]].add(answer.headers["X-Spite-Malice-Instance"])
    assert all(len(names) == 1 for names in serving.values()), serving
    used = set().union(*serving.values())
    assert len(used) >= 2, serving  # 12 rooms on one of 3 instances: 3 in 3^11 by chance


def test_a_friend_game_goes_on_when_instances_die(cluster: Cluster) -> None:
    base = cluster.address
    host = httpx.post(
        f"{base}/api/rooms",
        json={"mode": "friend", "rules": QUICK},
        headers=new_player(base, "Ann"),
        timeout=30,
    ).json()
    guest = httpx.post(
        f"{base}/api/rooms/{host['room']}/join", headers=new_player(base, "Bob"), timeout=30
    ).json()
    acknowledged: list[str] = []
    reconnects = _play_through_failovers(cluster, host, guest, acknowledged)
    assert reconnects >= 2  # both pages were on each killed instance and came back
    assert stored_history(database_url(cluster), host["room"]) == acknowledged


def _room_instance(cluster: Cluster, ticket: dict[str, Any]) -> Instance:
    """The instance that the balancer sends the room's requests to (the one that answers a
    request for the room names itself in a header)."""
    answers: list[httpx.Response] = []

    def answered() -> bool:  # right after a kill the balancer may answer 502 until it sees it died
        answers.append(
            httpx.get(
                f"{cluster.address}/api/rooms/{ticket['room']}",
                headers={"X-Seat-Token": ticket["token"]},
                timeout=30,
            )
        )
        return answers[-1].status_code not in (502, 503)

    with suppress(AssertionError):
        wait_for(answered, 30, 0.5, "the balancer to pass the request on")
    answer = answers[-1]
    assert answer.status_code == 200, answer.text
    name = answer.headers["X-Spite-Malice-Instance"]
    for instance in cluster.instances:
        alive = instance.process is not None and instance.process.poll() is None
        if alive and instance_name(instance) == name:
            return instance
    raise AssertionError(f"no live instance is called {name}")


def _play_through_failovers(
    cluster: Cluster, host: dict[str, Any], guest: dict[str, Any], acknowledged: list[str]
) -> int:
    base = cluster.address
    with seats((base, host), (base, guest)) as players:
        for seat in players:
            seat.observation()  # both connected, to the room's instance
        for _kill in range(2):  # the room's instance, then the one it moved to
            victim = _room_instance(cluster, host)
            for _ in range(4):
                observation = players[0].observation()
                if observation["outcome"] is not None:
                    break
                mover = players[observation["to_move"]]
                mine = mover.observation()
                assert mine["history"] == acknowledged  # nothing lost, nothing twice
                answer = mover.request({"type": "move", "move": greedy(mine)})
                assert answer["type"] == "update", answer
                acknowledged.append(answer["move"])
            victim.kill()
        for seat in players:  # both carry on, through the instance that is left
            assert seat.observation()["history"] == acknowledged
        return sum(seat.reconnects for seat in players)


def test_a_computer_turn_goes_on_when_its_instance_dies(cluster: Cluster) -> None:
    base = cluster.address
    room = httpx.post(
        f"{base}/api/rooms",
        json={"mode": "computer", "level": "expert", "rules": LONG},
        headers=new_player(base, "Ann"),
        timeout=30,
    ).json()
    names = {instance_name(instance): instance for instance in cluster.instances}
    with Store.open(database_url(cluster)) as store, seats((base, room)) as (person,):
        owner = None
        for _ in range(6):  # until the kill lands in the middle of a computer turn
            observation = _wait_for_my_turn(person)
            while observation["to_move"] == 0 and observation["outcome"] is None:
                answer = person.request({"type": "move", "move": greedy(observation)})
                assert answer["type"] == "update", answer
                observation = answer["state"]["observation"]
            assert observation["outcome"] is None, "the game ended before the test could"
            before = list(observation["history"])
            # the instance holding the lease is thinking for the computer: kill it mid-turn
            looking = time.monotonic() + 10
            while owner is None and time.monotonic() < looking:
                owner = store.lease_owner(room["room"])
            if owner is not None:
                break
        assert owner is not None, "no computer turn was caught in progress"
        victim = names[owner]
        victim.kill()
        observation = _wait_for_my_turn(person)
    history = observation["history"]
    assert history[: len(before)] == before
    turn = history[len(before) :]
    discards = [m for m in turn if m.startswith("H") and "-S" in m]
    assert len(discards) == 1 or observation["outcome"] is not None  # one whole turn, once
    assert stored_history(database_url(cluster), room["room"]) == history
