"""Issue 47, item 2, across instances: two lobbies on one PostgreSQL database (as two server
instances) both see each step of a friend room (one stores it, the other follows it), and
the event's row in the outbox makes exactly one of them send its notification; a player
connected to the other instance is on the game's page, so nobody is notified; both sign
with the one key kept in the database."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cluster.lobbies import Listener, started_lobbies
from push_service import PushService, push_service
from spite_malice.web.lobby import Lobby
from waiting import until

from .games import end_turn, friend_game, subscribe


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
