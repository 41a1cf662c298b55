"""``POST /api/offline-games``: a match played offline is replayed by the server and counted
once in the player's offline statistics, apart from its games on the server; what does not
replay is refused with a reason the player can read (docs/offline.md)."""

from __future__ import annotations

import copy
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")
from fastapi.testclient import TestClient  # noqa: E402

from spite_malice.bots import ReferenceBot  # noqa: E402
from spite_malice.table import TableError  # noqa: E402
from spite_malice.web import create_app  # noqa: E402
from spite_malice.web.api import PLAYER_HEADER  # noqa: E402

from .conftest import new_session, play_out  # noqa: E402


def _player(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/players", json={"name": name}, headers={PLAYER_HEADER: ""})
    assert answer.status_code == 201, answer.text
    return {PLAYER_HEADER: answer.json()["secret"]}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "web.db"))) as test_client:
        test_client.headers.update(_player(test_client, "Ann"))
        yield test_client


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    session = new_session("medium", seed=31)
    play_out(session)
    return session.record()


def _offline_row(client: TestClient) -> dict[str, Any]:
    stats = client.get("/api/offline-games/stats").json()
    [row] = stats["levels"]
    return row


def test_a_sent_match_counts_in_the_offline_statistics_once(
    client: TestClient, record: dict[str, Any]
) -> None:
    first = client.post("/api/offline-games", json=record)
    assert first.status_code == 200, first.text
    assert first.json()["counted_games"] == 1 and first.json()["counted_match"] is True
    again = client.post("/api/offline-games", json=record)
    assert again.status_code == 200 and again.json()["counted_games"] == 0
    assert again.json()["known"] is True and again.json()["counted_match"] is False
    row = _offline_row(client)
    assert row["level"] == "medium" and row["games"] == 1 and row["matches"] == 1
    # the games played on the server are counted apart
    assert client.get("/api/stats").json()["total"]["games"] == 0


def test_a_tampered_match_is_refused_with_a_reason_and_not_counted(
    client: TestClient, record: dict[str, Any]
) -> None:
    forged = copy.deepcopy(record)
    forged["steps"][0]["seed"] = str(int(forged["steps"][0]["seed"]) + 1)
    answer = client.post("/api/offline-games", json=forged)
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["code"] == "not_replayed" and "seed" in error["message"]
    assert client.get("/api/offline-games/stats").json()["total"]["games"] == 0


def test_the_reason_speaks_the_players_language(client: TestClient, record: dict[str, Any]) -> None:
    forged = {**record, "level": "grandmaster"}
    answer = client.post("/api/offline-games", json=forged, headers={"Accept-Language": "fr"})
    assert answer.status_code == 422
    assert "n'a pas pu être lue" in answer.json()["error"]["message"]


def test_a_match_sent_in_parts_counts_when_it_is_whole(
    client: TestClient, record: dict[str, Any]
) -> None:
    cut = len(record["steps"]) // 2
    part = client.post("/api/offline-games", json={**record, "steps": record["steps"][:cut]})
    assert part.status_code == 200, part.text
    assert part.json()["counted_games"] == 0 and part.json()["over"] is False
    rest = client.post(
        "/api/offline-games", json={**record, "from": cut, "steps": record["steps"][cut:]}
    )
    assert rest.status_code == 200, rest.text
    assert rest.json()["counted_games"] == 1 and rest.json()["over"] is True
    assert _offline_row(client)["games"] == 1


def test_the_same_match_with_other_moves_is_refused(client: TestClient) -> None:
    session = new_session("medium", seed=41)
    while session.computer_to_move:
        session.computer_move()
    first = session.record()
    assert client.post("/api/offline-games", json=first).status_code == 200
    other = new_session("medium", seed=41)
    other.match_id = session.match_id
    while other.computer_to_move:
        other.computer_move()
    move = other.table.observation(0).legal_moves[-1]
    other.handle({"type": "move", "id": 1, "move": str(move)})
    forked = other.record()
    forked["steps"] = forked["steps"][:1] + forked["steps"][len(first["steps"]) :]
    answer = client.post("/api/offline-games", json=forked)
    assert answer.status_code in (409, 422), answer.text


def _fresh_id(record: dict[str, Any], n: int) -> dict[str, Any]:
    return {**record, "id": f"{n:032x}"}


def test_the_same_match_under_fresh_ids_counts_once(
    client: TestClient, record: dict[str, Any]
) -> None:
    """The id is the page's: the same match sent under three other ids counts nothing more,
    and each answer says it was counted already (a success, which the page marks as sent)."""
    assert client.post("/api/offline-games", json=record).json()["counted_games"] == 1
    for n in (1, 2, 3):
        again = client.post("/api/offline-games", json=_fresh_id(record, n))
        assert again.status_code == 200, again.text
        body = again.json()
        assert body["counted_games"] == 0 and body["counted_match"] is False
        assert body["already_counted"] == 1 and body["known"] is True
    row = _offline_row(client)
    assert row["games"] == 1 and row["matches"] == 1


def _replayed_by_a_session(record: dict[str, Any], *, undo_first: bool) -> dict[str, Any]:
    """``record``'s match played again in a new session (a new id), the person making the
    same moves; with ``undo_first`` the person's first move that may be taken back is, and
    is played again."""
    session = new_session("medium", seed=int(record["seed"]))
    assert session.match_id != record["id"]
    undone = not undo_first
    for number, step in enumerate(record["steps"]):
        if step["kind"] == "deal" and step["game"] > 1:
            session.handle({"type": "new_game", "id": number})
        elif step["kind"] == "move" and step["seat"] == 1:
            session.computer_move()
        elif step["kind"] == "move":
            session.handle({"type": "move", "id": number, "move": step["move"]})
            if not undone:  # the first move that may be taken back (not a pay-off card)
                before = len(session.record()["steps"])
                session.handle({"type": "undo", "id": number})
                if len(session.record()["steps"]) > before:
                    session.handle({"type": "move", "id": number, "move": step["move"]})
                    undone = True
    again = session.record()
    assert again["over"] is True
    return again


def test_the_same_match_with_a_move_taken_back_and_played_again_counts_once(
    client: TestClient, record: dict[str, Any]
) -> None:
    """A game is what its moves that stand make it: one sent again with an undo in it is the
    same game, counted already."""
    assert client.post("/api/offline-games", json=record).json()["counted_games"] == 1
    padded = _replayed_by_a_session(record, undo_first=True)
    assert len(padded["steps"]) == len(record["steps"]) + 2
    answer = client.post("/api/offline-games", json=padded)
    assert answer.status_code == 200, answer.text
    assert answer.json()["counted_games"] == 0 and answer.json()["already_counted"] == 1
    assert _offline_row(client)["games"] == 1


def test_a_copy_of_another_players_match_is_refused_with_a_reason(
    client: TestClient, record: dict[str, Any]
) -> None:
    assert client.post("/api/offline-games", json=record).status_code == 200
    other = _player(client, "Bob")
    for sent in (record, _fresh_id(record, 7)):  # under Ann's id or another
        answer = client.post("/api/offline-games", json=sent, headers=other)
        assert answer.status_code == 409, answer.text
        error = answer.json()["error"]
        assert error["code"] == "counted_elsewhere" and "another player" in error["message"]
    french = client.post(
        "/api/offline-games", json=record, headers={**other, "Accept-Language": "fr"}
    )
    assert "un autre joueur" in french.json()["error"]["message"]
    assert client.get("/api/offline-games/stats", headers=other).json()["total"]["games"] == 0
    assert _offline_row(client)["games"] == 1  # Ann's stay hers


def test_each_player_counts_the_matches_they_played(client: TestClient) -> None:
    """Two players' own matches (each from its own seed) count for each of them."""
    other = _player(client, "Bob")
    for headers, seed in (({}, 51), (other, 52)):
        session = new_session("medium", seed=seed)
        play_out(session)
        answer = client.post("/api/offline-games", json=session.record(), headers=headers)
        assert answer.status_code == 200 and answer.json()["counted_games"] == 1
    for headers in ({}, other):
        stats = client.get("/api/offline-games/stats", headers=headers).json()
        assert stats["total"]["games"] == 1


def test_sending_needs_a_player(client: TestClient, record: dict[str, Any]) -> None:
    answer = client.post("/api/offline-games", json=record, headers={PLAYER_HEADER: "nobody"})
    assert answer.status_code == 401


def test_not_json_is_refused(client: TestClient) -> None:
    answer = client.post(
        "/api/offline-games", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "not_replayed"


def test_sendings_are_limited_per_address(
    tmp_path: Path, record: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each sending replays a match: past the limit (here 2 at once, then 1 a minute) the
    server says to wait, with Retry-After, and replays nothing."""
    monkeypatch.setenv("SPITE_MALICE_MAKE_LIMIT", "2/1")
    with TestClient(create_app(str(tmp_path / "limited.db"))) as limited:
        limited.headers.update(_player(limited, "Cy"))
        answers = [limited.post("/api/offline-games", json=record) for _ in range(3)]
    assert [a.status_code for a in answers[:2]] == [200, 200]
    assert answers[2].status_code == 429 and answers[2].headers["Retry-After"]
    assert "offline" in answers[2].json()["error"]["message"]


def test_an_offline_room_sends_what_a_computer_room_of_the_server_sends(
    client: TestClient,
) -> None:
    """The same messages, with the same fields, as the server's (web-protocol 4.1, 4.3), so
    that the page draws both the same."""
    body = {"mode": "computer", "level": "medium", "rules": {"payoff_size": 5}}
    ticket = client.post("/api/rooms", json=body).json()
    with client.websocket_connect(ticket["ws_url"]) as socket:
        socket.send_json({"type": "hello", "token": ticket["token"]})
        server = [socket.receive_json() for _ in range(3)]
    offline = new_session().hello("en")
    assert [m["type"] for m in offline] == [m["type"] for m in server]
    for mine, theirs in zip(offline, server, strict=True):
        assert mine.keys() == theirs.keys()
    state, theirs = offline[1]["state"], server[1]["state"]
    assert state.keys() == theirs.keys()
    assert state["observation"].keys() == theirs["observation"].keys()
    assert state["match"].keys() == theirs["match"].keys()


def _given_up(between_games: bool) -> tuple[dict[str, Any], int]:
    """A match of two games given up from the lobby: in its first game, or between its
    first and second games; its record and the losses it counts."""
    session = new_session("medium", seed=41, rules={"payoff_size": 5, "match_target": 2})
    person = ReferenceBot(2)
    moves = 0
    while not session.table.is_game_over and (between_games or moves < 3):
        if session.computer_to_move:
            session.computer_move()
        else:
            move = person.choose(session.table.observation(0))
            session.handle({"type": "move", "id": moves, "move": str(move)})
            moves += 1
    first_lost = between_games and session.table.match.score[1] > 0
    state = session.give_up()
    assert state["cause"] == "resign" and state["state"]["resigned"] == 0
    record = session.record()
    assert record["over"] is True and record["steps"][-1]["kind"] == "resign"
    with pytest.raises(TableError):
        session.give_up()  # once only: the match is over
    return record, 1 + first_lost


@pytest.mark.parametrize("between_games", [False, True])
def test_a_match_given_up_offline_counts_a_lost_game_as_online(
    client: TestClient, between_games: bool
) -> None:
    record, losses = _given_up(between_games)
    answer = client.post("/api/offline-games", json=record)
    assert answer.status_code == 200, answer.text
    played = 2 if between_games else 1
    assert answer.json()["counted_games"] == played and answer.json()["counted_match"] is True
    row = _offline_row(client)
    # the game in progress (between games: the next one, dealt and given up) is lost
    assert row["games"] == played and row["losses"] == losses
    assert row["matches"] == 1 and row["matches_lost"] == 1 and row["matches_won"] == 0
