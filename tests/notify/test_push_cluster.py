"""Issue 47, item 2, across instances: two lobbies on one PostgreSQL database (as two server
instances) both see each step of a friend room (one stores it, the other follows it), and
the event's row in the outbox makes exactly one of them send its notification; a player
connected to the other instance is on the game's page, so nobody is notified; both sign
with the one key kept in the database."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from cluster.lobbies import Listener, started_lobbies
from push_service import PushService, push_service
from spite_malice.web.lobby import Lobby
from waiting import until

from .games import Clock, end_turn, friend_game, subscribe, turn_game


@pytest.fixture
def service() -> Iterator[PushService]:
    with push_service() as running:
        yield running


def recorded_claims(lobby: Lobby, claims: list[tuple[str, str, bool]]) -> None:
    """Record every claim of ``lobby``'s store: (instance, key, won)."""
    store = lobby.store.notifications
    claim = store.claim

    def recording(key: str, player: str, kind: str, instance: str) -> bool:
        won = claim(key, player, kind, instance)
        claims.append((instance, key, won))
        return won

    store.claim = recording  # type: ignore[method-assign]


async def test_one_notification_per_event_across_two_instances(
    postgres_schema_url: str, service: PushService
) -> None:
    async with started_lobbies(postgres_schema_url, 2) as (one, two):
        claims: list[tuple[str, str, bool]] = []
        recorded_claims(one, claims)
        recorded_claims(two, claims)
        room, alice, bob = await friend_game(one)
        browsers = [service.browser("alice"), service.browser("bob")]
        await subscribe(one, alice, browsers[0])
        await subscribe(one, bob, browsers[1])
        mover = room.game.to_move
        here, there = Listener(), Listener()
        await room.connect(here, mover)
        followed = await two.get(room.code)
        assert followed is not None
        await followed.connect(there, mover)  # the mover is on both: the room is used on both
        await end_turn(room, here)
        turns = room.table.turns
        await until(lambda: followed.table.turns == turns)  # the other instance followed
        away = 1 - mover
        # both instances claim the event; one wins
        await until(lambda: len({instance for instance, _k, _w in claims}) == 2)
        await one.notifier.idle()
        await two.notifier.idle()
        keys = {key for _instance, key, _won in claims}
        assert len(keys) == 1
        assert sorted(won for _i, _k, won in claims) == [False, True]
        [received] = service.taken(browsers[away])
        assert browsers[away].decrypt(received)["kind"] == "turn"
        player = (alice, bob)[away]
        sent: list[Any] = await one.run(one.store.notifications.sent, player.id)
        assert len(sent) == 1
        assert await one.notifier.public_key() == await two.notifier.public_key()


async def test_no_push_to_a_player_on_the_page_of_another_instance(
    postgres_schema_url: str, service: PushService
) -> None:
    async with started_lobbies(postgres_schema_url, 2) as (one, two):
        room, alice, bob = await friend_game(one)
        browsers = [service.browser("alice"), service.browser("bob")]
        await subscribe(one, alice, browsers[0])
        await subscribe(one, bob, browsers[1])
        mover = room.game.to_move
        here, there = Listener(), Listener()
        await room.connect(here, mover)
        followed = await two.get(room.code)
        assert followed is not None
        await followed.connect(there, 1 - mover)  # the other player is on instance two
        for _turn in range(2):
            seat = room.game.to_move
            mine = room if seat == mover else followed
            listener = here if seat == mover else there
            await end_turn(mine, listener)
            await until(lambda: followed.table.turns == room.table.turns)
        await one.notifier.idle()
        await two.notifier.idle()
        assert service.taken(browsers[0]) == service.taken(browsers[1]) == []


async def test_two_instances_end_a_game_on_time_once_and_remind_once(
    postgres_schema_url: str, service: PushService
) -> None:
    """Both instances' clocks find the same reminder and the same time-out due: one
    reminder goes out, and one step ends the game (the other instance's conflicts)."""
    async with started_lobbies(postgres_schema_url, 2) as (one, two):
        clock = Clock()
        one.turns.now = two.turns.now = clock
        room, alice, bob = await turn_game(one, days=1)
        sitter = room.game.to_move
        browser = service.browser("sitter")
        await subscribe(one, (alice, bob)[sitter], browser)
        assert await two.get(room.code) is not None  # both hold the room
        clock.advance(20)
        reminded = await asyncio.gather(one.turns.tick(), two.turns.tick())  # at once
        assert sorted(reminded) == [0, 1]
        await one.notifier.idle()
        await two.notifier.idle()
        assert [browser.decrypt(r)["kind"] for r in service.taken(browser)] == ["reminder"]
        clock.advance(5)
        ended = await asyncio.gather(one.turns.tick(), two.turns.tick())
        assert sorted(ended) == [0, 1]
        stored = await one.run(one.store.load_room, room.code)
        assert stored is not None
        claims = [step for step in stored.steps if step.kind == "claim"]
        assert len(claims) == 1 and claims[0].seat == 1 - sitter
