"""Issue 47, item 1: turn-based games between friends, over a simulated week (the clock
injected, never a real sleep): each turn passed starts the next one's time per move; at 80%
of it the player to move is reminded (a notification), at 100% the game is lost on time;
the time runs on across a restart; the player's games are listed, where it is the player's
turn first; a game over days is never claimed after minutes away."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cluster.lobbies import Listener, started_lobbies
from push_service import PushService, push_service
from spite_malice.table import TableError
from spite_malice.table.table import Table
from spite_malice.web.protocol import ClaimMessage, RematchMessage, ResignMessage
from spite_malice.web.turn_based import left_words

from .games import Clock, end_turn, subscribe, turn_game


@pytest.fixture
def service() -> Iterator[PushService]:
    with push_service() as running:
        yield running


def lost_on_time(table: Table) -> int | None:
    """The seat that lost the game on time (the other's claim, made by the server)."""
    return table.resigned if table.claimed and table.is_game_over else None


async def test_a_week_of_turns_then_a_reminder_then_the_time_runs_out(
    tmp_path: Path, service: PushService
) -> None:
    async with started_lobbies(str(tmp_path / "week.db"), 1) as (lobby,):
        clock = Clock()
        lobby.turns.now = clock
        room, alice, bob = await turn_game(lobby, days=1)
        browsers = [service.browser("alice"), service.browser("bob")]
        await subscribe(lobby, alice, browsers[0])
        await subscribe(lobby, bob, browsers[1])
        players = [Listener(), Listener()]
        started = clock()
        for _turn in range(14):  # a week: one turn in the morning, one at night
            clock.advance(11)  # 11 hours of 24: no reminder yet
            assert await lobby.turns.tick() == 0
            await end_turn(room, players[room.game.to_move])
            await lobby.turns.settled()
            game = await lobby.run(lobby.store.turn_games.get, room.code)
            assert game is not None and game.to_move == room.game.to_move
            assert game.deadline == clock() + 86400
        assert clock() - started == 14 * 11 * 3600
        assert room.table.status == "playing"
        await lobby.notifier.idle()
        sitter = room.game.to_move
        turns = [browsers[s].decrypt(r)["kind"] for s in (0, 1) for r in service.taken(browsers[s])]
        assert turns.count("turn") == 14  # each player away was told of each of its turns
        # the player to move sits: at 80% of the day, a reminder
        clock.advance(20)
        assert await lobby.turns.tick() == 1
        assert await lobby.turns.tick() == 0  # once
        await lobby.notifier.idle()
        last = browsers[sitter].decrypt(service.taken(browsers[sitter])[-1])
        assert last["kind"] == "reminder"
        assert last["body"] == (
            f"Your move in the game with {('Bob', 'Alice')[sitter]}: 4 hours left before the "
            "time runs out."
        )
        assert room.table.status == "playing"
        clock.advance(3.99)
        assert await lobby.turns.tick() == 0  # not yet
        clock.advance(0.02)
        assert await lobby.turns.tick() == 1  # out of time: the game is lost
        assert lost_on_time(room.table) == sitter
        await lobby.turns.settled()
        game = await lobby.run(lobby.store.turn_games.get, room.code)
        assert game is not None and game.status == "over" and game.deadline is None
        await lobby.notifier.idle()
        assert browsers[sitter].decrypt(service.taken(browsers[sitter])[-1])["kind"] == "over"


async def test_the_time_runs_on_across_a_restart(tmp_path: Path) -> None:
    url = str(tmp_path / "restart.db")
    clock = Clock()
    async with started_lobbies(url, 1) as (lobby,):
        lobby.turns.now = clock
        room, _alice, _bob = await turn_game(lobby, days=3)
        code, sitter = room.code, room.game.to_move
    clock.advance(3 * 24 + 1)  # the server was down when the time ran out
    async with started_lobbies(url, 1) as (lobby,):
        lobby.turns.now = clock
        assert await lobby.turns.tick() == 1
        room = await lobby.get(code)
        assert room is not None and lost_on_time(room.table) == sitter


async def test_the_games_are_listed_where_it_is_your_turn_first(tmp_path: Path) -> None:
    async with started_lobbies(str(tmp_path / "list.db"), 1) as (lobby,):
        clock = Clock()
        lobby.turns.now = clock
        first, alice, bob = await turn_game(lobby, days=7)
        listener = Listener()
        rooms = [first]
        for days in (1, 3, 3):
            room, _a, _b = await turn_game(lobby, days=days, players=(alice, bob))
            rooms.append(room)
            clock.advance(1)
        for room in rooms:  # make it Bob's turn in rooms[1], Alice's in the others
            want = 1 if room is rooms[1] else 0
            if room.game.to_move != want:
                await end_turn(room, listener)
        await lobby.turns.settled()
        await end_turn(rooms[3], listener)  # Alice plays: Bob's turn there too
        await end_turn(rooms[3], listener)  # and back
        await lobby.turns.settled()
        listed = await lobby.turns.games_of(alice.id)
        assert [game["room"] for game in listed[:3]] == sorted(
            [rooms[0].code, rooms[2].code, rooms[3].code],
            key=lambda code: next(g["left_seconds"] for g in listed if g["room"] == code),
        )
        assert all(game["your_turn"] for game in listed[:3])
        assert listed[3]["room"] == rooms[1].code and not listed[3]["your_turn"]
        assert {game["opponent"] for game in listed} == {"Bob"}
        theirs = await lobby.turns.games_of(bob.id)
        assert theirs[0]["room"] == rooms[1].code and theirs[0]["your_turn"]


def test_the_time_left_is_in_days_and_hours() -> None:
    assert left_words(5 * 3600 + 59) == "5 hours"
    assert left_words(2 * 86400 + 3 * 3600) == "2 days and 3 hours"
    assert left_words(86400) == "1 day"
    assert left_words(60) == "1 hour"


async def test_a_game_over_days_is_not_claimed(tmp_path: Path) -> None:
    async with started_lobbies(str(tmp_path / "claim.db"), 1) as (lobby,):
        room, _alice, _bob = await turn_game(lobby, days=1)
        here = Listener()
        await room.connect(here, 0)
        with pytest.raises(TableError) as refused:
            await room.handle(here, 0, ClaimMessage(type="claim"))
        assert refused.value.code == "turn_based"
        assert "time for a move runs out" in refused.value.message
        assert room.table.status == "playing"


async def test_a_rematch_of_a_game_over_days_starts_its_clock(tmp_path: Path) -> None:
    async with started_lobbies(str(tmp_path / "rematch.db"), 1) as (lobby,):
        clock = Clock()
        lobby.turns.now = clock
        room, _alice, _bob = await turn_game(lobby, days=7)
        seats = [Listener(), Listener()]
        await room.handle(seats[0], 0, ResignMessage(type="resign"))
        await lobby.turns.settled()
        over = await lobby.run(lobby.store.turn_games.get, room.code)
        assert over is not None and over.status == "over"
        clock.advance(30)
        await room.handle(seats[0], 0, RematchMessage(type="rematch"))
        await room.handle(seats[1], 1, RematchMessage(type="rematch"))
        await lobby.turns.settled()
        game = await lobby.run(lobby.store.turn_games.get, room.code)
        assert game is not None and game.status == "playing"
        assert game.match_id == room.header.id != over.match_id
        assert game.to_move == room.game.to_move and game.deadline == clock() + 7 * 86400


async def test_the_state_shows_the_time_for_the_move_being_played(tmp_path: Path) -> None:
    """web-protocol 4.1 ``turn_game``: the days a move and the time by which the move being
    played must be made, the new turn's as soon as a turn passes (before its row is written),
    the stored one after a restart, none once the game is over; other rooms have no field."""
    url = str(tmp_path / "state.db")
    clock = Clock()
    async with started_lobbies(url, 1) as (lobby,):
        lobby.turns.now = clock
        room, alice, _bob = await turn_game(lobby, days=3)
        first = clock() + 3 * 86400
        for seat in (0, 1):
            assert room.broadcaster.state_for(seat)["turn_game"] == {"days": 3, "deadline": first}
        clock.advance(5)
        await end_turn(room, Listener())
        passed = clock() + 3 * 86400
        assert room.broadcaster.state_for(0)["turn_game"]["deadline"] == passed
        await lobby.turns.settled()
        assert room.broadcaster.state_for(1)["turn_game"]["deadline"] == passed
        code = room.code
        plain, _token = await lobby.create(
            mode="friend",
            player=alice.id,
            name="Alice",
            level=None,
            rules=room.table.rules,
            seed=None,
        )
        assert "turn_game" not in plain.broadcaster.state_for(0)
    clock.advance(1)
    async with started_lobbies(url, 1) as (lobby,):
        lobby.turns.now = clock
        room = await lobby.get(code)
        assert room is not None
        assert room.broadcaster.state_for(0)["turn_game"] == {"days": 3, "deadline": passed}
        await room.handle(Listener(), 0, ResignMessage(type="resign"))
        assert room.broadcaster.state_for(0)["turn_game"] == {"days": 3, "deadline": None}
