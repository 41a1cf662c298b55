"""Two joins of one invitation at once, through two server instances on one database
(SQLite and PostgreSQL): exactly one gets seat 1 and a token; the other a refusal and no
token, and the stored seat is the winner's (it was the last writer's: both got a token and
the first one's acknowledged join was lost, issue "A server that strangers cannot knock
over" 4). Each instance is a lobby of its own on a store of its own, as two processes are."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from spite_malice.engine.rules import Rules
from spite_malice.store import Store
from spite_malice.web.lobby import Lobby
from spite_malice.web.rooms import FRIEND_MODE, RoomError, hash_token

ROUNDS = 50


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url: str = request.getfixturevalue("postgres_schema_url")
    return url


async def _race(database: str) -> list[tuple[int, int]]:
    """(tokens given, whether the stored seat is a winner's) for each round."""
    stores = [Store.open(database), Store.open(database)]
    lobbies = [Lobby(store) for store in stores]
    try:
        host, _ = stores[0].create_player("Host")
        guests = [stores[0].create_player(f"Guest {n}")[0] for n in (1, 2)]
        outcomes = []
        for _round in range(ROUNDS):
            room, _token = await lobbies[0].create(
                mode=FRIEND_MODE,
                player=host.id,
                name="Host",
                level=None,
                rules=Rules.STANDARD,
                seed=None,
            )
            rooms = [room, await lobbies[1].get(room.code)]
            assert rooms[1] is not None
            answers = await asyncio.gather(
                *(r.join(g.id, g.name) for r, g in zip(rooms, guests, strict=True)),
                return_exceptions=True,
            )
            tokens = [a for a in answers if isinstance(a, str)]
            refused = [a for a in answers if isinstance(a, RoomError)]
            assert len(tokens) + len(refused) == 2, answers
            assert all(error.code == "room_full" for error in refused)
            stored = stores[1].load_match(room.header.id)
            assert stored is not None
            kept = stored.header.meta.tokens[1]
            outcomes.append((len(tokens), int(any(hash_token(t) == kept for t in tokens))))
        return outcomes
    finally:
        for lobby in lobbies:
            await lobby.close()
        for store in stores:
            store.close()


def test_two_joins_at_once_give_the_seat_once(database: str) -> None:
    outcomes = asyncio.run(_race(database))
    doubled = sum(given != 1 for given, _ in outcomes)
    lost = sum(not kept for _, kept in outcomes)
    assert doubled == 0, f"{doubled} of {ROUNDS} rounds gave the seat twice (or never)"
    assert lost == 0, f"{lost} of {ROUNDS} rounds kept a seat nobody was told of"
