"""Quick match on a cluster of server processes behind HAProxy: two players waiting on
different instances are paired exactly once; with the instance running the waves killed
(SIGKILL), another takes the waves over and pairs the next players. Needs PostgreSQL's
programs and HAProxy (.ci/run installs both)."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from spite_malice.cluster import Cluster, Instance
from spite_malice.store import Store
from spite_malice.store.pairing import WAVE_LEASE
from waiting import wait_for

from .helpers import have_services, new_player
from .processes import database_url, instance_name

pytestmark = pytest.mark.skipif(
    not have_services(), reason="needs PostgreSQL's server programs and HAProxy"
)


def wave_runner(cluster: Cluster) -> str | None:
    with Store.open(database_url(cluster)) as store:
        return store.lease_owner(WAVE_LEASE)


def wait_for_game(base: str, who: dict[str, str]) -> dict[str, Any]:
    """Long-poll the pool on one instance until paired (at most a minute)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        answer = httpx.get(f"{base}/api/pool", params={"wait": 20}, headers=who, timeout=40)
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        if body["status"] == "paired":
            return body
        assert body["status"] in ("waiting", "pairing"), body
    raise AssertionError("never paired")


def pair_on(first: Instance, second: Instance) -> list[dict[str, Any]]:
    ann, bob = new_player(first.url, "Ann"), new_player(second.url, "Bob")
    for base, who in ((first.url, ann), (second.url, bob)):
        joined = httpx.post(f"{base}/api/pool", json={"pool": "standard"}, headers=who, timeout=30)
        assert joined.status_code == 200 and joined.json()["status"] == "waiting", joined.text
    with ThreadPoolExecutor(2) as threads:
        games = list(threads.map(wait_for_game, (first.url, second.url), (ann, bob)))
    assert games[0]["room"] == games[1]["room"]
    assert {games[0]["seat"], games[1]["seat"]} == {0, 1}
    # asked again (on the other instance): the same game, nobody paired again
    for base, who, game in ((second.url, ann, games[0]), (first.url, bob, games[1])):
        again = httpx.get(f"{base}/api/pool", headers=who, timeout=30).json()
        assert again == game
    return games


def state_through_balancer(cluster: Cluster, game: dict[str, Any]) -> dict[str, Any]:
    url = cluster.address.replace("http://", "ws://") + game["ws_url"]
    with connect(url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": game["token"]}))
        while True:
            message: dict[str, Any] = json.loads(ws.recv(timeout=30))
            if message["type"] == "state":
                state: dict[str, Any] = message["state"]
                return state


def test_players_on_different_instances_are_paired_exactly_once(cluster: Cluster) -> None:
    first, second, _third = cluster.instances
    games = pair_on(first, second)
    for game in games:
        state = state_through_balancer(cluster, game)
        assert state["strangers"]["pool"] == "standard"
        assert state["seat"] == game["seat"]
    runners = {instance_name(instance) for instance in cluster.instances}
    assert wave_runner(cluster) in runners


def test_the_waves_go_on_when_their_instance_is_killed(cluster: Cluster) -> None:
    by_name = {instance_name(instance): instance for instance in cluster.instances}
    runner = wait_for(lambda: wave_runner(cluster), 30, 0.2, "an instance to run the waves")
    leader = by_name[runner]
    leader.kill()
    survivors = [instance for instance in cluster.instances if instance is not leader]
    games = pair_on(survivors[0], survivors[1])
    assert wave_runner(cluster) in {instance_name(instance) for instance in survivors}
    state = state_through_balancer(cluster, games[0])
    assert state["strangers"]["pool"] == "standard"
