"""What the notifications' tests share: a friend game of two lobbies' players, moves that
pass the turn, and a browser subscribed to the tests' push service."""

from __future__ import annotations

from cluster.lobbies import Listener
from push_service import Browser
from spite_malice.engine.rules import Rules
from spite_malice.store import Player
from spite_malice.store.notifications import PushSubscription
from spite_malice.web.lobby import Lobby
from spite_malice.web.protocol import MoveMessage
from spite_malice.web.rooms import Room

QUICK = Rules.from_json({"payoff_size": 5, "match_target": 1})


async def friend_game(lobby: Lobby) -> tuple[Room, Player, Player]:
    """A friend room of Alice (seat 0) that Bob (seat 1) joined."""
    alice, _ = await lobby.run(lobby.store.create_player, "Alice")
    bob, _ = await lobby.run(lobby.store.create_player, "Bob")
    room, _token = await lobby.create(
        mode="friend", player=alice.id, name="Alice", level=None, rules=QUICK, seed=None
    )
    await room.join(bob.id, "Bob")
    return room, alice, bob


async def subscribe(lobby: Lobby, player: Player, browser: Browser, language: str = "en") -> None:
    keys = browser.subscription()["keys"]
    subscription = PushSubscription(
        player.id, browser.endpoint, keys["p256dh"], keys["auth"], language
    )
    await lobby.run(lobby.store.notifications.subscribe, subscription)


async def end_turn(room: Room, listener: Listener) -> int:
    """The seat to move plays discards until its turn passes (a discard ends a turn, R5);
    the seat that played."""
    mover = room.game.to_move
    while room.game.to_move == mover and not room.game.is_over:
        legal = [str(move) for move in room.game.legal_moves()]
        move = next(m for m in legal if "-S" in m and m.startswith("H"))
        await room.handle(listener, mover, MoveMessage(type="move", move=move))
    return mover


class Clock:
    """An injected clock: the seconds a test sets (a simulated week, no sleeping)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.at = start

    def __call__(self) -> float:
        return self.at

    def advance(self, hours: float) -> None:
        self.at += hours * 3600


async def turn_game(
    lobby: Lobby, days: int, players: tuple[Player, Player] | None = None
) -> tuple[Room, Player, Player]:
    """A turn-based friend game (``days`` a move) of Alice (seat 0) and Bob (seat 1), both
    seated: its clock is running."""
    if players is None:
        alice, _ = await lobby.run(lobby.store.create_player, "Alice")
        bob, _ = await lobby.run(lobby.store.create_player, "Bob")
    else:
        alice, bob = players
    rules = Rules.from_json({"payoff_size": 20, "match_target": 1})
    room, _token = await lobby.create(
        mode="friend", player=alice.id, name="Alice", level=None, rules=rules, seed=None
    )
    await lobby.run(lobby.turns.create, room.code, room.header.id, days)
    await room.join(bob.id, "Bob")
    await lobby.turns.settled()
    return room, alice, bob
