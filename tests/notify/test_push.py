"""Issue 47, item 2: Web Push. A player away from a game (no connection to its room on any
instance) is notified of its turn, the game's end and a rematch offer, through a push
service the test runs, which checks the VAPID signature and decrypts the payload; a player
on the game's page is not; the server's key is made once and kept in the store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cluster.lobbies import Listener, started_lobbies
from push_service import PushService, check_vapid, push_service
from spite_malice.store import Store
from spite_malice.web.lobby import Lobby
from spite_malice.web.protocol import RematchMessage, ResignMessage
from waiting import until

from .games import end_turn, friend_game, subscribe


@pytest.fixture
def service() -> Iterator[PushService]:
    with push_service() as running:
        yield running


async def test_a_player_away_is_told_of_its_turn(tmp_path: Path, service: PushService) -> None:
    url = str(tmp_path / "push.db")
    async with started_lobbies(url, 1) as (lobby,):
        room, alice, bob = await friend_game(lobby)
        browsers = {0: service.browser("alice"), 1: service.browser("bob")}
        await subscribe(lobby, alice, browsers[0])
        await subscribe(lobby, bob, browsers[1])
        mover = room.game.to_move
        here = Listener()
        await room.connect(here, mover)  # the mover plays; the other seat is away
        assert await end_turn(room, here) == mover
        await lobby.notifier.idle()
        waiting = browsers[1 - mover]
        [received] = service.taken(waiting)
        assert service.taken(browsers[mover]) == []  # on the page: nothing
        payload = waiting.decrypt(received)
        name = "Alice" if mover == 0 else "Bob"
        assert payload == {
            "title": "Your turn",
            "body": f"{name} has played. It is your turn.",
            "tag": f"game-{room.code}",
            "url": f"/#/game/{room.code}",
            "room": room.code,
            "kind": "turn",
        }
        claims = check_vapid(received, await lobby.notifier.public_key(), service.origin)
        assert claims["sub"].startswith("mailto:")
        assert int(received.headers["ttl"]) > 0
        player = bob if mover == 0 else alice
        sent = await lobby.run(lobby.store.notifications.sent, player.id)
        assert [(kind, instance) for _key, kind, instance in sent] == [("turn", lobby.instance)]


async def test_no_push_while_the_player_is_on_the_page(
    tmp_path: Path, service: PushService
) -> None:
    url = str(tmp_path / "push.db")
    async with started_lobbies(url, 1) as (lobby,):
        room, alice, bob = await friend_game(lobby)
        browsers = [service.browser("alice"), service.browser("bob")]
        await subscribe(lobby, alice, browsers[0])
        await subscribe(lobby, bob, browsers[1])
        seats = [Listener(), Listener()]
        await room.connect(seats[0], 0)
        await room.connect(seats[1], 1)
        for _turn in range(3):  # both on the page: no notification at all
            await end_turn(room, seats[room.game.to_move])
        await lobby.notifier.idle()
        assert service.taken(browsers[0]) == service.taken(browsers[1]) == []
        # the seat to move next leaves: the other's move then tells it
        away = 1 - room.game.to_move
        await room.disconnect(seats[away], away)
        await lobby.run(lambda: None)  # the presence write's task had its turn
        await until(lambda: not room.writes)
        await end_turn(room, seats[1 - away])
        await lobby.notifier.idle()
        [received] = service.taken(browsers[away])
        assert browsers[away].decrypt(received)["kind"] == "turn"


async def test_game_over_and_a_rematch_offer_replace_each_other(
    tmp_path: Path, service: PushService
) -> None:
    """One notification per game: each carries the game's tag, so the browser shows the
    last only (the service worker's ``tag``)."""
    url = str(tmp_path / "push.db")
    async with started_lobbies(url, 1) as (lobby,):
        room, _alice, bob = await friend_game(lobby)
        browser = service.browser("bob")
        await subscribe(lobby, bob, browser, language="fr")
        here = Listener()
        await room.connect(here, 0)
        await room.handle(here, 0, ResignMessage(type="resign"))
        await room.handle(here, 0, RematchMessage(type="rematch"))
        await lobby.notifier.idle()
        payloads = [browser.decrypt(item) for item in service.taken(browser)]
        assert [p["kind"] for p in payloads] == ["over", "rematch"]
        assert {p["tag"] for p in payloads} == {f"game-{room.code}"}
        # in the language Bob's browser reads
        assert [(p["title"], p["body"]) for p in payloads] == [
            ("Partie terminée", "Votre partie avec Alice est terminée."),
            ("Revanche", "Alice vous propose une revanche."),
        ]


async def test_a_gone_subscription_is_forgotten(tmp_path: Path, service: PushService) -> None:
    url = str(tmp_path / "push.db")
    async with started_lobbies(url, 1) as (lobby,):
        room, _alice, bob = await friend_game(lobby)
        browser = service.browser("bob")
        await subscribe(lobby, bob, browser)
        service.status = 410  # the browser unsubscribed: the push service says it is gone
        here = Listener()
        await room.connect(here, 0)
        await room.handle(here, 0, ResignMessage(type="resign"))
        await lobby.notifier.idle()
        assert len(service.taken(browser)) == 1
        assert await lobby.run(lobby.store.notifications.subscriptions, bob.id) == []


def test_the_server_key_is_made_once_and_kept(tmp_path: Path) -> None:
    url = str(tmp_path / "keys.db")
    made: list[str] = []

    def make() -> str:
        made.append("key")
        return f"key-{len(made)}"

    with Store.open(url) as store:
        assert store.notifications.server_key("vapid", make) == "key-1"
    with Store.open(url) as store:  # the next start reads it
        assert store.notifications.server_key("vapid", make) == "key-1"
    assert made == ["key"]


async def test_the_lobby_makes_its_key_on_start(tmp_path: Path) -> None:
    url = str(tmp_path / "start.db")
    async with started_lobbies(url, 1) as (lobby,):
        await lobby.notifier.idle()
        first = await lobby.notifier.public_key()
    with Store.open(url) as store:
        lobby = Lobby(store)
        try:
            assert await lobby.notifier.public_key() == first
        finally:
            await lobby.close()
