"""Issue 47: the turn-based quick-match pools (``days-1``, ``days-3``, ``days-7``; web-protocol
3.8.1): strangers paired by the waves for a game over days, its clock the turn-based one
(``web/turn_based.py``: reminder at 80% of the time per move, then the game lost on time and
rated in the ``turn-based`` rating), none of the live pools' 90-second clock or 60-second
claim, abort before both moved without a rating. The clock is injected: no real sleeps."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from cluster.lobbies import Listener, started_lobbies
from notify.games import Clock, end_turn, subscribe
from push_service import PushService, push_service
from spite_malice.match_records.meta import POOL_NAMES, pool_rules
from spite_malice.ratings.policy import STRANGER_POOLS, TURN_BASED_POOL, TURN_POOLS
from spite_malice.store import Player, Store, StoreError, turn_pool
from spite_malice.store import pairing as stored
from spite_malice.store.schema import utcnow
from spite_malice.store.schema_notify import TURN_GAMES
from spite_malice.store.schema_pairing import POOL_ENTRIES
from spite_malice.store.turn_pool import TURN_POOL_ENTRIES
from spite_malice.table import TableError
from spite_malice.web.lobby import Lobby
from spite_malice.web.protocol import ClaimMessage, RematchMessage, ResignMessage
from spite_malice.web.quick_match import TURN_RULES
from spite_malice.web.rooms import Room, RoomError
from waiting import until, wait_for

from .conftest import new_player, open_seat, room_of
from .test_deal_commitment import assert_the_deal_verifies, committed_at_the_deal, play_to_the_end

DAY = 86400.0


@pytest.fixture
def service() -> Iterator[PushService]:
    with push_service() as running:
        yield running


async def players(lobby: Lobby, *names: str) -> list[Player]:
    made = []
    for name in names:
        player, _secret = await lobby.run(lobby.store.create_player, name)
        made.append(player)
    return made


async def paired_game(
    lobby: Lobby, first: Player, second: Player, pool: str = "days-3"
) -> tuple[Room, dict[str, dict[str, Any]]]:
    """Both players wait in ``pool``, a wave pairs them: their room, and each one's seat as
    its browser collects it (``GET /api/turn-pool``), by player id."""
    for player in (first, second):
        await lobby.quick.join_turn(player.id, pool, player.name)
    made = await lobby.quick.wave()
    assert len(made) == 1
    tickets = {}
    for player in (first, second):
        news = await lobby.quick.turn_news(player.id)
        assert news["waiting"] is None
        tickets[player.id] = next(g for g in news["games"] if g["room"] == made[0].room)
    room = await lobby.get(made[0].room)
    assert room is not None
    await lobby.turns.game(room.code)
    return room, tickets


async def clocked(lobby: Lobby, clock: Clock | None = None) -> Clock:
    """The lobby on an injected clock, its background waves and clock ticks stopped: the
    test runs each wave and tick itself."""
    clock = clock or Clock()
    lobby.turns.now = clock
    lobby.quick.now = clock
    await lobby.quick.close()
    await lobby.turns.close()  # its ticks only: steps still start the turns' clocks
    return clock


def test_the_pools_are_known_to_the_stored_matches_and_the_ratings() -> None:
    assert set(POOL_NAMES) == set(STRANGER_POOLS) | set(TURN_POOLS)
    assert TURN_POOLS == {"days-1": 1, "days-3": 3, "days-7": 7}
    assert all(pool_rules(pool) == TURN_RULES for pool in TURN_POOLS)  # a rematch keeps them


async def test_two_strangers_are_paired_for_a_game_over_days(tmp_path: Path) -> None:
    async with started_lobbies(str(tmp_path / "pair.db"), 1) as (lobby,):
        clock = await clocked(lobby)
        ann, bob = await players(lobby, "Ann", "Bob")
        waiting = await lobby.quick.join_turn(ann.id, "days-3", "Ann")
        assert waiting["waiting"]["status"] == "waiting"
        assert waiting["waiting"]["days"] == 3 and waiting["games"] == []
        assert await lobby.quick.wave() == []  # alone: nobody to play, never itself
        room, tickets = await paired_game(lobby, ann, bob)
        assert {tickets[ann.id]["seat"], tickets[bob.id]["seat"]} == {0, 1}
        for who in (ann, bob):
            ticket = tickets[who.id]
            assert room.seat_for(ticket["token"]) == ticket["seat"]
            assert ticket["days"] == 3 and ticket["pool"] == "days-3"
            assert room.table.seats[ticket["seat"]].player == who.id
        # one game of the standard rules, rated as a game between strangers over days
        assert room.table.meta.pool == "days-3"
        assert room.table.rules.match_target == 1
        assert room.table.rules.payoff_size == 20
        # the clock of the first turn runs from the wave on, before anyone opens the game
        game = await lobby.run(lobby.store.turn_games.get, room.code)
        assert game is not None and game.status == "playing"
        assert game.to_move == room.game.to_move
        assert game.deadline == clock() + 3 * DAY
        assert game.players == (room.table.seats[0].player, room.table.seats[1].player)
        # the state has the days clock and none of the live pools' clock and claim
        state = room.broadcaster.state_for(0)
        assert state["turn_game"] == {"days": 3, "deadline": round(clock() + 3 * DAY)}
        assert state["strangers"]["pool"] == "days-3"
        assert state["strangers"]["clock"] is None
        assert state["strangers"]["can_abort"] is True
        room.strangers.start()
        assert room.strangers.task is None
        # a second wave pairs nobody again
        assert await lobby.quick.wave() == []


async def test_the_game_is_in_both_players_lists_their_turn_first(tmp_path: Path) -> None:
    async with started_lobbies(str(tmp_path / "lists.db"), 1) as (lobby,):
        clock = await clocked(lobby)
        ann, bob, cat = await players(lobby, "Ann", "Bob", "Cat")
        with_bob, _ = await paired_game(lobby, ann, bob, "days-7")
        clock.advance(1)
        with_cat, _ = await paired_game(lobby, ann, cat, "days-1")
        listener = Listener()
        ann_seat = {
            r.code: 0 if r.table.seats[0].player == ann.id else 1 for r in (with_bob, with_cat)
        }
        # Ann to move against Bob, Cat to move against Ann
        if with_bob.game.to_move != ann_seat[with_bob.code]:
            await end_turn(with_bob, listener)
        if with_cat.game.to_move == ann_seat[with_cat.code]:
            await end_turn(with_cat, listener)
        await lobby.turns.settled()
        listed = await lobby.turns.games_of(ann.id)
        assert [(g["room"], g["your_turn"], g["opponent"]) for g in listed] == [
            (with_bob.code, True, "Bob"),
            (with_cat.code, False, "Cat"),
        ]
        assert [g["days"] for g in listed] == [7, 1]
        theirs = await lobby.turns.games_of(cat.id)
        assert [(g["room"], g["your_turn"], g["opponent"]) for g in theirs] == [
            (with_cat.code, True, "Ann")
        ]
        # Ann's browser collects both seats, the newest first
        news = await lobby.quick.turn_news(ann.id)
        assert [g["room"] for g in news["games"]] == [with_cat.code, with_bob.code]


async def test_a_reminder_then_the_time_runs_out_and_the_game_is_rated(tmp_path: Path) -> None:
    async with started_lobbies(str(tmp_path / "timeout.db"), 1) as (lobby,):
        clock = await clocked(lobby)
        ann, bob = await players(lobby, "Ann", "Bob")
        room, _tickets = await paired_game(lobby, ann, bob, "days-1")
        listener = Listener()
        for _turn in range(2):  # both have moved: the game can no longer be aborted
            clock.advance(2)
            await end_turn(room, listener)
            await lobby.turns.settled()
        sitter = room.game.to_move
        # the live pools' clock never acts here, even long after its 90 seconds
        room.strangers.clock.now = lambda: clock() + 10 * DAY
        assert await room.strangers.check_clock() is False
        clock.advance(0.79 * 24)
        assert await lobby.turns.tick() == 0
        clock.advance(0.02 * 24)
        assert await lobby.turns.tick() == 1  # the reminder at 80% of the day
        assert await lobby.turns.tick() == 0
        assert room.table.status == "playing"
        clock.advance(0.19 * 24 + 0.01)
        assert await lobby.turns.tick() == 1  # out of time: lost
        assert room.table.claimed and room.table.resigned == sitter
        assert not room.table.aborted
        loser = room.table.seats[sitter].player
        winner = room.table.seats[1 - sitter].player
        assert loser is not None and winner is not None
        store = lobby.store
        records = await lobby.run(store.games, room.header.id)
        assert len(records) == 1 and records[0].result is not None
        assert records[0].result.winner == 1 - sitter
        won = await lobby.run(store.rating_of, winner, TURN_BASED_POOL)
        lost = await lobby.run(store.rating_of, loser, TURN_BASED_POOL)
        assert won.games == lost.games == 1
        assert won.rating > 1500 > lost.rating
        # a rating of its own: the live pools' ratings did not move
        assert (await lobby.run(store.rating_of, winner, "standard")).games == 0
        await lobby.turns.settled()
        game = await lobby.run(store.turn_games.get, room.code)
        assert game is not None and game.status == "over"
        # a game over: its seat is no longer handed out
        assert (await lobby.quick.turn_news(winner))["games"] == []


async def test_the_first_player_out_of_time_aborts_the_game_unrated(tmp_path: Path) -> None:
    async with started_lobbies(str(tmp_path / "first.db"), 1) as (lobby,):
        clock = await clocked(lobby)
        ann, bob = await players(lobby, "Ann", "Bob")
        room, _tickets = await paired_game(lobby, ann, bob, "days-3")
        clock.advance(3 * 24 + 0.01)
        assert await lobby.turns.tick() == 1
        assert room.table.aborted and room.table.status != "playing"
        assert await lobby.run(lobby.store.games, room.header.id) == []
        for who in (ann, bob):
            assert (await lobby.run(lobby.store.rating_of, who.id, TURN_BASED_POOL)).games == 0


async def test_abort_before_both_moved_claim_refused_resign_and_rematch(tmp_path: Path) -> None:
    async with started_lobbies(str(tmp_path / "abort.db"), 1) as (lobby,):
        clock = await clocked(lobby)
        ann, bob, cat = await players(lobby, "Ann", "Bob", "Cat")
        room, _tickets = await paired_game(lobby, ann, bob, "days-7")
        seat = room.game.to_move
        answer = await room.strangers.abort(1 - seat)
        assert answer["status"] != "playing" and room.table.aborted
        assert await lobby.run(lobby.store.games, room.header.id) == []
        await lobby.turns.settled()
        over = await lobby.run(lobby.store.turn_games.get, room.code)
        assert over is not None and over.status == "over"
        # another game: never claimed after a minute away, resigned, then a rematch
        room, _tickets = await paired_game(lobby, ann, cat, "days-7")
        here = [Listener(), Listener()]
        await room.connect(here[0], 0)
        with pytest.raises(RoomError) as refused:
            await room.handle(here[0], 0, ClaimMessage(type="claim"))
        assert refused.value.code == "turn_based"
        await end_turn(room, here[room.game.to_move])
        await end_turn(room, here[room.game.to_move])
        with pytest.raises(TableError) as late:
            await room.strangers.abort(0)
        assert late.value.code == "too_late"
        await room.handle(here[0], 0, ResignMessage(type="resign"))
        resigner = room.table.seats[0].player
        assert resigner is not None
        lost = await lobby.run(lobby.store.rating_of, resigner, TURN_BASED_POOL)
        assert lost.games == 1 and lost.rating < 1500
        await lobby.turns.settled()
        first = room.header.id
        clock.advance(5)
        await room.handle(here[0], 0, RematchMessage(type="rematch"))
        await room.handle(here[1], 1, RematchMessage(type="rematch"))
        await lobby.turns.settled()
        assert room.header.id != first and room.table.meta.pool == "days-7"
        game = await lobby.run(lobby.store.turn_games.get, room.code)
        assert game is not None and game.status == "playing" and game.match_id == room.header.id
        assert game.to_move == room.game.to_move and game.deadline == clock() + 7 * DAY
        assert room.strangers.task is None


async def test_a_turn_based_wait_lasts_and_goes_with_a_live_one(tmp_path: Path) -> None:
    """The wait lasts with no page open (a live one goes stale), beside a live wait; a
    cancelled wait is never paired; blocked players are never paired."""
    async with started_lobbies(str(tmp_path / "wait.db"), 1) as (lobby,):
        await clocked(lobby)
        ann, bob, cat, dan = await players(lobby, "Ann", "Bob", "Cat", "Dan")
        await lobby.quick.join(ann.id, "standard", "Ann")
        await lobby.quick.join_turn(ann.id, "days-1", "Ann")
        await lobby.quick.join_turn(bob.id, "days-1", "Bob")
        await lobby.run(stored.block, lobby.store, ann.id, bob.id, "Bob")
        await lobby.quick.join_turn(cat.id, "days-1", "Cat")
        await lobby.quick.leave_turn(cat.id)
        assert (await lobby.quick.turn_news(cat.id))["waiting"] is None
        hour_ago = utcnow() - timedelta(hours=1)
        for table in (POOL_ENTRIES, TURN_POOL_ENTRIES):

            def age(table: Any = table) -> None:
                with lobby.store.db.connection() as connection:
                    connection.execute(update(table).values(seen_at=hour_ago, joined_at=hour_ago))

            await lobby.run(age)
        assert await lobby.quick.wave() == []  # Ann and Bob blocked: nobody paired
        assert await lobby.run(stored.pool_entry, lobby.store, ann.id) is None  # stale
        news = await lobby.quick.turn_news(ann.id)
        assert news["waiting"] is not None and news["waiting"]["waves"] >= 1
        await lobby.quick.join_turn(dan.id, "days-1", "Dan")
        made = await lobby.quick.wave()
        assert len(made) == 1 and set(made[0].players) in ({ann.id, dan.id}, {bob.id, dan.id})
        assert cat.id not in made[0].players


async def test_a_wave_cut_short_is_finished_with_its_clock(tmp_path: Path) -> None:
    async with started_lobbies(str(tmp_path / "cut.db"), 1) as (lobby,):
        clock = await clocked(lobby)
        ann, bob = await players(lobby, "Ann", "Bob")
        for who in (ann, bob):
            await lobby.quick.join_turn(who.id, "days-3", who.name)
        pairs = await lobby.quick.pair_pool("days-3")  # the first half, then the instance died
        assert len(pairs) == 1
        news = await lobby.quick.turn_news(ann.id)
        assert news["waiting"]["status"] == "pairing" and news["games"] == []
        assert await lobby.quick.leave_turn(ann.id) == news  # too late to leave
        finished = await lobby.quick.finish_pending_turns()
        assert [pair.room for pair in finished] == [pairs[0].room]
        game = await lobby.run(lobby.store.turn_games.get, pairs[0].room)
        assert game is not None and game.deadline == clock() + 3 * DAY
        assert [g["room"] for g in (await lobby.quick.turn_news(ann.id))["games"]] == [
            pairs[0].room
        ]
        assert await lobby.run(turn_pool.entry, lobby.store, bob.id) is None

        # cut short after the match was stored, before its clock: the next wave writes it
        cat, dan = await players(lobby, "Cat", "Dan")
        for who in (cat, dan):
            await lobby.quick.join_turn(who.id, "days-7", who.name)
        [pair] = await lobby.quick.pair_pool("days-7")
        start_clock = lobby.quick.start_clock

        async def dies(*_args: Any) -> None:
            raise StoreError("the instance died")

        lobby.quick.start_clock = dies  # type: ignore[method-assign]
        with pytest.raises(StoreError):
            await lobby.quick.store_matches("days-7", [pair])
        lobby.quick.start_clock = start_clock  # type: ignore[method-assign]
        assert await lobby.run(lobby.store.turn_games.get, pair.room) is None
        assert (await lobby.quick.turn_news(cat.id))["games"] == []  # not told yet
        clock.advance(2)
        assert [p.room for p in await lobby.quick.finish_pending_turns()] == [pair.room]
        room = await lobby.get(pair.room)
        game = await lobby.run(lobby.store.turn_games.get, pair.room)
        assert room is not None and game is not None
        assert game.to_move == room.game.to_move and game.deadline == clock() + 7 * DAY
        assert [g["room"] for g in (await lobby.quick.turn_news(cat.id))["games"]] == [pair.room]


def test_the_turn_pool_over_http(client: TestClient) -> None:
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    answer = client.post("/api/turn-pool", json={"pool": "standard"}, headers=ann)
    assert answer.status_code == 422
    assert answer.json()["error"]["message"] == (
        "There is no pool 'standard'. The pools are: days-1, days-3, days-7."
    )
    live = client.post("/api/pool", json={"pool": "days-1"}, headers=ann)
    assert live.status_code == 422
    assert "The pools are: standard, quick." in live.json()["error"]["message"]
    for who in (ann, bob):
        joined = client.post("/api/turn-pool", json={"pool": "days-7"}, headers=who).json()
        assert joined["waiting"]["days"] == 7 and joined["games"] == []
    left = client.delete("/api/turn-pool", headers=bob).json()
    assert left == {"waiting": None, "games": []}
    client.post("/api/turn-pool", json={"pool": "days-7"}, headers=bob)
    lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    made = client.portal.call(lobby.quick.wave)  # type: ignore[union-attr]
    assert len(made) == 1
    seats = [client.get("/api/turn-pool", headers=who).json() for who in (ann, bob)]
    assert all(news["waiting"] is None for news in seats)
    tickets = [news["games"][0] for news in seats]
    assert tickets[0]["room"] == tickets[1]["room"] == made[0].room
    assert {t["seat"] for t in tickets} == {0, 1}
    # the seat's token opens the room (web-protocol 3.4), and the lists show the game
    for ticket, who in zip(tickets, (ann, bob), strict=True):
        info = client.get(f"/api/rooms/{ticket['room']}", headers={"X-Seat-Token": ticket["token"]})
        assert info.status_code == 200 and info.json()["seat"] == ticket["seat"]
        listed = client.get("/api/turn-games", headers=who).json()["games"]
        assert [g["room"] for g in listed] == [ticket["room"]]
    # a resignation is rated in the games-over-days rating, with its history (the chart)
    gave_up = client.post(
        f"/api/rooms/{tickets[0]['room']}/give-up", headers={"X-Seat-Token": tickets[0]["token"]}
    )
    assert gave_up.status_code == 200, gave_up.text
    for who, score in ((ann, "lost"), (bob, "won")):
        pools = client.get("/api/ratings", headers=who).json()["pools"]
        assert [p["pool"] for p in pools] == ["turn-based"]
        assert pools[0]["games"] == 1 and len(pools[0]["history"]) == 1
        assert (pools[0]["rating"] < 1500) == (score == "lost")
    # the game over (its clock's row written by a task of the server): its seat no longer given
    wait_for(lambda: client.get("/api/turn-pool", headers=ann).json()["games"] == [], 60)
    # the rating of games over days has its leaderboard beside the others (9.4)
    board = client.get("/api/leaderboard/turn-based")
    assert board.status_code == 200 and board.json()["pool"] == "turn-based"


def test_a_game_over_days_is_dealt_to_a_commitment_it_reveals_and_verifies(
    client: TestClient,
) -> None:
    """Deals anyone can verify, in a game over days too (docs/verifying.md): the table of a
    game paired by a wave shows its commitment from the deal on; played to its end, the
    seed and salt revealed make it, and the stored record keeps it and verifies."""
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    for who in (ann, bob):
        joined = client.post("/api/turn-pool", json={"pool": "days-1"}, headers=who)
        assert joined.status_code == 200, joined.text
    lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    (made,) = client.portal.call(lobby.quick.wave)  # type: ignore[union-attr]
    tickets = [client.get("/api/turn-pool", headers=who).json()["games"][0] for who in (ann, bob)]
    assert all(ticket["room"] == made.room for ticket in tickets)
    with open_seat(client, tickets[0]) as one, open_seat(client, tickets[1]) as two:
        seats = (one, two)
        assert one.state["turn_game"]["days"] == 1 and one.state["strangers"]["pool"] == "days-1"
        committed = committed_at_the_deal(seats)
        play_to_the_end(seats)
        assert_the_deal_verifies(client, seats, committed, room_of(client, made.room).header.id)


async def test_both_players_are_told_their_game_has_started(
    tmp_path: Path, service: PushService
) -> None:
    """With notifications on and no page open, each player hears of the new game (once,
    its tag the game's), in its own language."""
    async with started_lobbies(str(tmp_path / "push.db"), 1) as (lobby,):
        await clocked(lobby)
        ann, bob = await players(lobby, "Ann", "Bob")
        browsers = [service.browser("ann"), service.browser("bob")]
        await subscribe(lobby, ann, browsers[0])
        await subscribe(lobby, bob, browsers[1], "fr")
        room, _tickets = await paired_game(lobby, ann, bob, "days-1")
        await lobby.notifier.idle()
        told = [[b.decrypt(r) for r in service.taken(b)] for b in browsers]
        assert [len(t) for t in told] == [1, 1]
        assert told[0][0]["kind"] == "started" and told[0][0]["tag"] == f"game-{room.code}"
        assert told[0][0]["body"] == "Your game over days with Bob has started."
        assert told[1][0]["kind"] == "started" and "Ann" in told[1][0]["body"]
        assert told[1][0]["body"] != "Your game over days with Ann has started."


async def test_two_instances_make_one_game_and_one_clock(postgres_schema_url: str) -> None:
    """Two lobbies on one PostgreSQL database (two server instances): their waves make one
    game of two players who joined on different instances, with one ``turn_games`` row; a
    wave cut short on one is finished by the other; the time-out is acted on once."""
    async with started_lobbies(postgres_schema_url, 2) as (one, two):
        clock = await clocked(one)
        await clocked(two, clock)
        ann, bob, cat, dan = await players(one, "Ann", "Bob", "Cat", "Dan")
        await one.quick.join_turn(ann.id, "days-1", "Ann")
        await two.quick.join_turn(bob.id, "days-1", "Bob")
        made = [
            pair
            for wave in await asyncio.gather(one.quick.wave(), two.quick.wave())
            for pair in wave
        ]
        made += await two.quick.wave() + await one.quick.wave()
        assert len(made) == 1 and set(made[0].players) == {ann.id, bob.id}

        def rows() -> int:
            with one.store.db.connection(write=False) as connection:
                return int(connection.scalar(select(func.count()).select_from(TURN_GAMES)))

        assert await one.run(rows) == 1
        seen = [await lobby.quick.turn_news(who.id) for lobby in (one, two) for who in (ann, bob)]
        assert seen[0] == seen[2] and seen[1] == seen[3]
        # a wave cut short on one instance, finished by the other
        await one.quick.join_turn(cat.id, "days-1", "Cat")
        await one.quick.join_turn(dan.id, "days-1", "Dan")
        [pair] = await one.quick.pair_pool("days-1")
        # both instances finish it at once (a lease handed over while its holder was slow):
        # one deal is stored, and both write the clock of that deal
        finished = await asyncio.gather(
            two.quick.finish_pending_turns(), one.quick.finish_pending_turns()
        )
        assert pair.room in {p.room for done in finished for p in done}
        assert await one.quick.finish_pending_turns() == []
        raced = await two.get(pair.room)
        clock_row = await one.run(one.store.turn_games.get, pair.room)
        assert raced is not None and clock_row is not None
        assert clock_row.to_move == raced.game.to_move and clock_row.turn == "1.0"
        assert await one.run(rows) == 2
        room = await one.get(made[0].room)
        assert room is not None
        listener = Listener()
        for _turn in range(2):
            await end_turn(room, listener)
        await one.turns.settled()
        sitter = room.game.to_move
        clock.advance(24.01)
        acted = await asyncio.gather(one.turns.tick(), two.turns.tick())
        acted_again = await asyncio.gather(one.turns.tick(), two.turns.tick())
        assert sum(acted) + sum(acted_again) == 2  # each game once: one lost, one aborted
        await until(lambda: room.table.status != "playing")
        assert room.table.claimed and room.table.resigned == sitter
        loser = room.table.seats[sitter].player
        assert loser is not None
        assert (await one.run(one.store.rating_of, loser, TURN_BASED_POOL)).games == 1
        other = await two.get(pair.room)
        assert other is not None
        await until(lambda: other.table.status != "playing")
        assert other.table.aborted


def test_a_late_follower_never_takes_the_clock_back(tmp_path: Path) -> None:
    """An instance that follows a room late writes an older turn after the newer one was
    written (the wave's instance follows the games it made): the row keeps the newer turn,
    and a game over stays over."""
    with Store.open(str(tmp_path / "late.db")) as store:
        games = store.turn_games
        players_, names = ("a", "b"), ("Ann", "Bob")
        games.start("ROOM01", "m1", 1, players=players_, names=names, to_move=0, turn="1.0", now=0)
        first = games.get("ROOM01")
        assert first is not None

        def seen(
            turn: str | None, to_move: int | None, now: float, status: str = "playing"
        ) -> bool:
            return games.observe(
                first,
                match_id="m1",
                players=players_,
                names=names,
                status=status,
                to_move=to_move,
                turn=turn,
                now=now,
            )

        assert seen("1.2", 0, 100.0)
        assert not seen("1.1", 1, 50.0)  # late: older than the row
        game = games.get("ROOM01")
        assert game is not None and (game.turn, game.to_move, game.deadline) == (
            "1.2",
            0,
            100 + DAY,
        )
        assert not seen("1.2", 0, 200.0)  # the same turn again: its clock runs on
        assert seen("1.10", 1, 300.0)  # turns are numbers, not text
        assert seen(None, None, 400.0, "over")
        assert not seen("1.10", 1, 500.0)
        over = games.get("ROOM01")
        assert over is not None and over.status == "over" and over.deadline is None
