"""Play between strangers on one server (web-protocol.md 3.8, 3.9, 4.1 ``strangers``): the
pool and its waves, a rated match played, abort, the move clock, claim, block and bans."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spite_malice.store import pairing as stored
from spite_malice.web import stranger_games
from spite_malice.web.api import PLAYER_HEADER
from spite_malice.web.lobby import Lobby
from spite_malice.web.move_clock import TURN_SECONDS

from .conftest import Seat, greedy, new_player, open_seat, room_of
from .test_deal_commitment import assert_the_deal_verifies, committed_at_the_deal, play_to_the_end


def lobby_of(client: TestClient) -> Lobby:
    lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    return lobby


def join(client: TestClient, who: dict[str, str], pool: str = "standard") -> dict[str, Any]:
    answer = client.post("/api/pool", json={"pool": pool}, headers=who)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def news(client: TestClient, who: dict[str, str]) -> dict[str, Any]:
    answer = client.get("/api/pool", headers=who)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def wave(client: TestClient) -> list[Any]:
    made: list[Any] = client.portal.call(lobby_of(client).quick.wave)  # type: ignore[union-attr]
    return made


@pytest.fixture
def server(client: TestClient) -> TestClient:
    return client


def paired(client: TestClient, *players: dict[str, str]) -> list[dict[str, Any]]:
    """Put the players in the standard pool, run a wave, and return each one's game."""
    for who in players:
        assert join(client, who)["status"] == "waiting"
    assert wave(client)
    games = [news(client, who) for who in players]
    assert all(game["status"] == "paired" for game in games), games
    return games


@contextmanager
def both_seats(client: TestClient, games: list[dict[str, Any]]) -> Iterator[list[Seat]]:
    with ExitStack() as stack:
        seats = [stack.enter_context(open_seat(client, game)) for game in games]
        yield seats


def to_move(seats: list[Seat]) -> Seat:
    mover = seats[0].state["observation"]["to_move"]
    return next(seat for seat in seats if seat.seat == mover)


def play_turn(seats: list[Seat]) -> None:
    """The player to move plays until its turn ends (the other seat hears every move)."""
    seat = to_move(seats)
    other = next(s for s in seats if s is not seat)
    while seat.my_turn():
        answer = seat.play(greedy(seat.observation))
        assert answer["type"] in ("update", "state"), answer
        other.until(lambda m: m["type"] in ("update", "state"))


def test_two_strangers_are_paired_once_and_play_a_rated_match(server: TestClient) -> None:
    ann, bob = new_player(server, "Ann"), new_player(server, "Bob")
    games = paired(server, ann, bob)
    assert games[0]["room"] == games[1]["room"]
    assert {games[0]["seat"], games[1]["seat"]} == {0, 1}
    assert games[0]["token"] != games[1]["token"]
    # asked again, the same game (an answer lost on its way is not a lost game); a second
    # wave pairs nobody again
    assert [news(server, who) for who in (ann, bob)] == games
    assert wave(server) == []
    code = games[0]["room"]
    stored_room = lobby_of(server).store.load_room(code)
    assert stored_room is not None and stored_room.header.meta.pool == "standard"
    # the lobby's list of unfinished games says which are rated (web-protocol 3.5)
    listed = server.get("/api/rooms", headers=ann).json()["rooms"]
    assert [(r["room"], r["mode"], r["pool"]) for r in listed] == [(code, "friend", "standard")]
    with both_seats(server, games) as seats:
        state = seats[0].state
        assert state["strangers"]["pool"] == "standard"
        clock = state["strangers"]["clock"]
        assert clock["seat"] == state["observation"]["to_move"]
        assert clock["per_turn"] == TURN_SECONDS["standard"]
        assert 0 < clock["left"] <= TURN_SECONDS["standard"]
        assert state["strangers"]["can_abort"] is True
        for _turn in range(2):
            play_turn(seats)
        assert seats[0].state["strangers"]["can_abort"] is False
        # resigning ends the match with a finished game: a rated loss
        mover = to_move(seats)
        assert mover.request({"type": "resign"})["state"]["resigned"] == mover.seat
        first_match = room_of(server, code).header.id
        # a rematch both accept is rated in the same pool, with its clock
        other = next(seat for seat in seats if seat is not mover)
        assert mover.request({"type": "rematch"})["cause"] == "rematch"
        other.until(lambda m: m.get("cause") == "rematch")
        fresh = other.request({"type": "rematch"})
        assert fresh["cause"] == "new_match"
        assert fresh["state"]["strangers"]["pool"] == "standard"
        assert fresh["state"]["strangers"]["clock"]["per_turn"] == TURN_SECONDS["standard"]
        assert room_of(server, code).table.meta.pool == "standard"
        mover.until(lambda m: m.get("cause") == "new_match")
    room = room_of(server, code)
    store = lobby_of(server).store
    assert room.header.id != first_match
    records = store.games(first_match)
    assert len(records) == 1 and records[0].result is not None
    assert records[0].result.winner == 1 - mover.seat
    # the finished game is rated in the pool (the ratings are store/ratings.py's)
    winner, loser = room.table.seats[1 - mover.seat].player, room.table.seats[mover.seat].player
    assert winner is not None and loser is not None
    assert store.rating_of(winner, "standard").games == 1
    assert (
        store.rating_of(winner, "standard").rating
        > 1500
        > store.rating_of(loser, "standard").rating
    )


def test_a_strangers_game_is_dealt_to_a_commitment_it_reveals_and_verifies(
    server: TestClient,
) -> None:
    """Deals anyone can verify, between strangers too (docs/verifying.md): the table of a
    game dealt by a wave shows its commitment from the deal on, the game is played to its
    end, and the seed and salt revealed then make it; the stored record keeps it and
    verifies."""
    ann, bob = new_player(server, "Ann"), new_player(server, "Bob")
    for who in (ann, bob):
        assert join(server, who, "quick")["status"] == "waiting"
    assert wave(server)
    games = [news(server, who) for who in (ann, bob)]
    with both_seats(server, games) as seats:
        assert seats[0].state["strangers"]["pool"] == "quick"
        committed = committed_at_the_deal(seats)
        play_to_the_end(seats)
        assert_the_deal_verifies(
            server, seats, committed, room_of(server, games[0]["room"]).header.id
        )


def test_pairs_are_made_by_rating(server: TestClient) -> None:
    players = [new_player(server, name) for name in ("Ann", "Bob", "Cat", "Dan")]
    ids = [server.get("/api/players/me", headers=who).json()["id"] for who in players]
    ratings = dict(zip(ids, (1000.0, 2030.0, 1020.0, 2000.0), strict=True))
    lobby_of(server).quick.ratings = lambda player, pool: ratings[player]
    games = paired(server, *players)
    rooms = [game["room"] for game in games]
    assert rooms[0] == rooms[2] and rooms[1] == rooms[3] and rooms[0] != rooms[1]


def test_a_player_leaves_the_pool_and_is_never_paired_with_itself(server: TestClient) -> None:
    ann, bob = new_player(server, "Ann"), new_player(server, "Bob")
    assert join(server, ann)["status"] == "waiting"
    assert join(server, ann)["status"] == "waiting"  # joining again: still one place
    assert wave(server) == []
    waited = news(server, ann)
    assert waited["status"] == "waiting" and waited["waves"] == 1
    assert server.delete("/api/pool", headers=ann).json() == {"status": "none"}
    assert join(server, bob)["status"] == "waiting"
    assert wave(server) == []
    assert news(server, bob)["status"] == "waiting"
    # the two pools are apart
    assert join(server, ann, "quick")["pool"] == "quick"
    assert wave(server) == []
    refused = server.post("/api/pool", json={"pool": "blitz"}, headers=ann)
    assert refused.status_code == 422 and "blitz" in refused.json()["error"]["message"]


def test_blocked_players_are_not_paired_again(server: TestClient) -> None:
    ann, bob, cat = (new_player(server, name) for name in ("Ann", "Bob", "Cat"))
    games = paired(server, ann, bob)
    blocked = server.post(
        f"/api/rooms/{games[0]['room']}/block",
        headers=ann | {"X-Seat-Token": games[0]["token"]},
    )
    assert blocked.status_code == 200 and blocked.json() == {"blocked": "Bob"}
    listed = server.get("/api/blocks", headers=ann).json()["blocks"]
    assert [entry["name"] for entry in listed] == ["Bob"]
    for who in (ann, bob):
        join(server, who)
    assert wave(server) == [] and wave(server) == []
    join(server, cat)
    assert len(wave(server)) == 1
    assert sorted(news(server, who)["status"] for who in (ann, bob, cat)) == [
        "paired",
        "paired",
        "waiting",
    ]
    bob_id = server.get("/api/players/me", headers=bob).json()["id"]
    assert server.delete(f"/api/blocks/{bob_id}", headers=ann).json() == {"unblocked": True}


def test_abort_before_both_moved_leaves_no_result(server: TestClient) -> None:
    ann, bob = new_player(server, "Ann"), new_player(server, "Bob")
    games = paired(server, ann, bob)
    code = games[0]["room"]
    with both_seats(server, games) as seats:
        play_turn(seats)  # one player moved: still abortable
        other = to_move(seats)
        headers = {PLAYER_HEADER: ""} | {"X-Seat-Token": other_game(games, other)["token"]}
        answer = server.post(f"/api/rooms/{code}/abort", headers=headers)
        assert answer.status_code == 200, answer.text
        assert answer.json()["status"] == "abandoned"
        state = other.until(lambda m: m["type"] == "state")["state"]
        assert state["strangers"]["aborted"] is True
        assert state["strangers"]["clock"] is None
    room = room_of(server, code)
    store = lobby_of(server).store
    assert store.games(room.header.id) == []  # nothing to count or rate
    assert store.load_match(room.header.id).header.status == "abandoned"  # type: ignore[union-attr]
    aborter = room.table.seats[other.seat].player
    assert aborter is not None
    assert [o for o, _ in stored.outcomes_since(store, aborter, _long_ago())] == ["abort"]


def test_abort_is_refused_once_both_moved(server: TestClient) -> None:
    ann, bob = new_player(server, "Ann"), new_player(server, "Bob")
    games = paired(server, ann, bob)
    with both_seats(server, games) as seats:
        play_turn(seats)
        play_turn(seats)
        answer = server.post(
            f"/api/rooms/{games[0]['room']}/abort", headers={"X-Seat-Token": games[0]["token"]}
        )
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "too_late"
        assert "resign" in answer.json()["error"]["message"]


def other_game(games: list[dict[str, Any]], seat: Seat) -> dict[str, Any]:
    return next(game for game in games if game["seat"] == seat.seat)


def _long_ago() -> Any:
    from datetime import UTC, datetime

    return datetime(2000, 1, 1, tzinfo=UTC)


def test_the_clock_running_out_loses_the_match(server: TestClient) -> None:
    ann, bob = new_player(server, "Ann"), new_player(server, "Bob")
    games = paired(server, ann, bob)
    code = games[0]["room"]
    with both_seats(server, games) as seats:
        play_turn(seats)
        play_turn(seats)
        room = room_of(server, code)
        sitter = to_move(seats)
        moment = [room.strangers.clock.started]
        room.strangers.clock.now = lambda: moment[0]
        assert not server.portal.call(room.strangers.check_clock)  # type: ignore[union-attr]
        moment[0] += TURN_SECONDS["standard"] + 1
        sitter.until(lambda m: m["type"] == "state" and m["state"]["claimed"] is True)
    records = lobby_of(server).store.games(room.header.id)
    assert len(records) == 1 and records[0].result is not None
    assert records[0].result.winner == 1 - sitter.seat
    player = room.table.seats[sitter.seat].player
    assert player is not None
    outcomes = stored.outcomes_since(lobby_of(server).store, player, _long_ago())
    assert [o for o, _ in outcomes] == ["timeout"]


def test_the_clock_running_out_before_both_moved_aborts(server: TestClient) -> None:
    ann, bob = new_player(server, "Ann"), new_player(server, "Bob")
    games = paired(server, ann, bob)
    with both_seats(server, games) as seats:
        room = room_of(server, games[0]["room"])
        moment = [room.strangers.clock.started + TURN_SECONDS["standard"] + 1]
        room.strangers.clock.now = lambda: moment[0]
        seats[0].until(lambda m: m["type"] == "state" and m["state"]["strangers"]["aborted"])
    assert lobby_of(server).store.games(room.header.id) == []


def test_a_stranger_gone_for_a_minute_is_claimed(
    server: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = new_player(server, "Ann"), new_player(server, "Bob")
    games = paired(server, ann, bob)
    first, second = games
    with open_seat(server, first) as one:
        assert one.state["claim_after"] == stranger_games.STRANGER_CLAIM_SECONDS
        refused = one.request({"type": "claim"})
        assert refused["code"] in ("too_soon", "friend_online"), refused
        with open_seat(server, second):
            assert one.request({"type": "claim"})["code"] == "friend_online"
        monkeypatch.setattr(stranger_games, "STRANGER_CLAIM_SECONDS", 0.0)
        claimed = one.request({"type": "claim"})
        assert claimed["type"] == "state" and claimed["state"]["claimed"] is True, claimed
    room = room_of(server, first["room"])
    absent = room.table.seats[second["seat"]].player
    assert absent is not None
    outcomes = stored.outcomes_since(lobby_of(server).store, absent, _long_ago())
    assert [o for o, _ in outcomes] == ["left"]


def test_three_abandoned_matches_earn_a_ban(server: TestClient) -> None:
    ann = new_player(server, "Ann")
    for round_ in range(3):
        bob = new_player(server, f"Bob{round_}")
        ann_game = paired(server, ann, bob)[0]  # Ann aborts every one
        answer = server.post(
            f"/api/rooms/{ann_game['room']}/abort", headers={"X-Seat-Token": ann_game["token"]}
        )
        assert answer.status_code == 200, answer.text
    refused = server.post("/api/pool", json={"pool": "standard"}, headers=ann)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "banned"
    assert "10 minutes" in refused.json()["error"]["message"]
    # the others are not banned
    assert join(server, new_player(server, "Dan"))["status"] == "waiting"


def test_many_players_are_each_paired_exactly_once(server: TestClient) -> None:
    """Fifteen players, one of them blocking another and one joining twice: every wave pairs
    each player at most once, and the waves go on until only the odd one out waits. Then the
    fourteen open their games' WebSockets at once: each is welcomed to its own seat of its
    pair's room and sees its own table, the two of a pair on the two seats of one game."""
    players = [new_player(server, f"P{n}") for n in range(15)]
    ids = [server.get("/api/players/me", headers=who).json()["id"] for who in players]
    ratings = {player: 1500.0 + 40 * n for n, player in enumerate(ids)}
    lobby_of(server).quick.ratings = lambda player, pool: ratings[player]
    answer = server.post(
        "/api/pool", json={"pool": "standard"}, headers=players[0]
    )  # joined twice below: one place
    assert answer.status_code == 200
    stored.block(lobby_of(server).store, ids[1], ids[2], "P2")
    for who in players:
        join(server, who)
    games: dict[str, dict[str, Any]] = {}
    made: list[stored.Pairing] = []
    for _wave in range(15):
        made += wave(server)
        for player, who in zip(ids, players, strict=True):
            if player not in games:
                answer = news(server, who)
                if answer["status"] == "paired":
                    games[player] = answer
        if len(games) == 14:
            break
    assert len(games) == 14
    rooms: dict[str, set[str]] = {}
    for player, game in games.items():
        rooms.setdefault(game["room"], set()).add(player)
    assert len(rooms) == 7 and all(len(seated) == 2 for seated in rooms.values())
    assert {ids[1], ids[2]} not in rooms.values()
    left = [who for player, who in zip(ids, players, strict=True) if player not in games]
    assert len(left) == 1 and news(server, left[0])["status"] == "waiting"
    # seven pairs made by the waves, each player in one, its seat the one it was told
    assert len(made) == 7
    assert sorted(player for pair in made for player in pair.players) == sorted(games)
    for pair in made:
        for seat, player in enumerate(pair.players):
            assert (games[player]["room"], games[player]["seat"]) == (pair.room, seat)
    names = {player: f"P{n}" for n, player in enumerate(ids)}
    with ExitStack() as stack:
        seats = {
            player: stack.enter_context(open_seat(server, game)) for player, game in games.items()
        }
        for player, seat in seats.items():
            game = games[player]
            welcome = seat.messages[0]
            assert welcome["type"] == "welcome" and welcome["mode"] == "friend"
            assert (welcome["room"], welcome["seat"]) == (game["room"], game["seat"])
            assert welcome["players"][game["seat"]] == names[player]
            table = seat.state
            assert table["observation"]["seat"] == game["seat"]
            assert len(table["observation"]["hand"]) == 5
            assert table["strangers"]["pool"] == "standard"
            assert room_of(server, game["room"]).table.seats[game["seat"]].player == player
        for pair in made:
            one, two = (seats[player] for player in pair.players)
            assert (one.seat, two.seat) == (0, 1)
            # one game: the same deal seen from its two seats
            assert one.state["match"]["commitment"] == two.state["match"]["commitment"]
            assert one.messages[0]["players"] == two.messages[0]["players"]
            assert one.observation["to_move"] == two.observation["to_move"]


def test_a_game_is_told_again_only_for_a_while(
    server: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = new_player(server, "Ann"), new_player(server, "Bob")
    games = paired(server, ann, bob)
    assert news(server, ann) == games[0]
    monkeypatch.setattr(stored, "TOLD_SECONDS", -1.0)  # the while is over
    assert news(server, ann) == {"status": "none"}
    # back in the pool afterwards: waiting afresh, not sent to the old game
    assert join(server, bob)["status"] == "waiting"


def test_bans_grow_with_each_one_and_end(server: TestClient) -> None:
    """The documented pattern (web/fair_play.py), on a clock of the test's: three bad
    endings ban for 10 minutes; three more within the week, 30 minutes; then the ban ends."""
    from datetime import timedelta

    lobby = lobby_of(server)
    moment = [_long_ago() + timedelta(days=9000)]
    lobby.fair_play.now = lambda: moment[0]
    ann = new_player(server, "Ann")
    player = server.get("/api/players/me", headers=ann).json()["id"]

    def bad(match: str) -> timedelta | None:
        moment[0] += timedelta(minutes=1)
        note = lobby.fair_play.note(player, match, "timeout")
        earned: timedelta | None = server.portal.call(lambda: note)  # type: ignore[union-attr]
        return earned

    assert bad("m1") is None and bad("m2") is None
    assert bad("m3") == timedelta(minutes=10)
    assert bad("m3") is None  # the same match counts once (a minute later: 9 left)
    refused = server.post("/api/pool", json={"pool": "quick"}, headers=ann)
    assert refused.status_code == 403 and "9 minutes" in refused.json()["error"]["message"]
    moment[0] += timedelta(minutes=11)
    assert join(server, ann, "quick")["status"] == "waiting"  # the ban is over
    server.delete("/api/pool", headers=ann)
    assert bad("m4") is None and bad("m5") is None
    assert bad("m6") == timedelta(minutes=30)
    refused = server.post("/api/pool", json={"pool": "quick"}, headers=ann)
    assert refused.status_code == 403 and "30 minutes" in refused.json()["error"]["message"]
