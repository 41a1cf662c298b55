"""The server's words in the player's language (issue 15): each WebSocket speaks the language
it asked for (``?lang=``, else its ``Accept-Language``), so in a friend game each seat reads
its own; HTTP answers speak the request's language. Pseudo-translations ("[it] ...") show
which language every text was made in while the real catalogs are still empty."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pseudo_catalogs import use_pseudo_catalogs
from spite_malice.web.rooms import CLAIM_ENV

from .conftest import Seat, hello, new_player, new_room


@pytest.fixture(autouse=True)
def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    use_pseudo_catalogs(monkeypatch)


@contextmanager
def seat_in(
    client: TestClient, answer: dict[str, Any], query: str = "", header: str | None = None
) -> Iterator[Seat]:
    """A seat's connection that asks for a language (``query``: ``?lang=it``; ``header``:
    the upgrade request's Accept-Language)."""
    headers = {"Accept-Language": header} if header is not None else {}
    with client.websocket_connect(answer["ws_url"] + query, headers=headers) as socket:
        socket.send_json(hello(answer))
        seat = Seat(socket, answer["seat"])
        assert seat.receive()["type"] == "welcome"
        assert seat.receive()["type"] == "state"
        yield seat


def friend_room(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    host = new_room(client, mode="friend", rules={"payoff_size": 20})
    bob = new_player(client, "bob")
    guest = client.post(f"/api/rooms/{host['room']}/join", headers=bob).json()
    return host, guest


def test_a_friend_game_speaks_two_languages_at_one_table(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CLAIM_ENV, "3600")
    host, guest = friend_room(client)
    with (
        seat_in(client, host, "?lang=it") as italian,
        seat_in(client, guest, header="ru-RU,ru;q=0.9") as russian,
    ):
        mover = italian if italian.observation["to_move"] == 0 else russian
        waiting = russian if mover is italian else italian
        code = {id(italian): "it", id(russian): "ru"}
        refused = waiting.play("P-C1")
        assert refused["code"] == "not_your_turn"
        assert refused["message"] == (
            f"[{code[id(waiting)]}] illegal move 'P-C1': it is not your turn"
        )
        illegal = mover.play("P-S1")
        assert illegal["code"] == "illegal_move"
        assert illegal["message"].startswith(f"[{code[id(mover)]}] illegal move 'P-S1': ")
        assert illegal["message"].endswith(
            f"[{code[id(mover)]}] a pay-off card may only be built on a center stack (R3.5)"
        )
        for seat in (italian, russian):
            claim = seat.request({"type": "claim"})
            assert claim["code"] == "friend_online"
            lang = code[id(seat)]
            assert claim["message"].startswith(f"[{lang}] Your friend is connected")
            assert f"[{lang}] 60 minutes." in claim["message"]
        hint = italian.request({"type": "hint"})
        assert hint["message"] == "[it] Hints are for games against the computer."


def test_the_query_wins_over_the_header_and_english_is_the_default(client: TestClient) -> None:
    answer = new_room(client, level="easy")
    with seat_in(client, answer, "?lang=nl", header="fr") as dutch:
        assert dutch.request({"type": "rematch"})["message"].startswith("[nl] ")
    with seat_in(client, answer, "?lang=xx", header="fr-CA") as french:
        assert french.request({"type": "rematch"})["message"].startswith("[fr] ")
    with seat_in(client, answer) as english:
        message = english.request({"type": "rematch"})["message"]
        assert message == "A rematch is for games between friends: use new_match."


def test_a_hint_reason_comes_in_the_seats_language(client: TestClient) -> None:
    answer = new_room(client, level="easy")
    with seat_in(client, answer, "?lang=pt") as seat:
        seat.wait_my_turn_or_end()
        hint = seat.request({"type": "hint"})
        assert hint["type"] == "hint", hint
        assert hint["reason"].startswith("[pt] "), hint


def test_http_errors_speak_the_requests_language(client: TestClient) -> None:
    answer = client.post(
        "/api/rooms", json={"mode": "friend", "seed": 3}, headers={"Accept-Language": "it"}
    )
    assert answer.status_code == 422
    assert answer.json()["error"]["message"].startswith("[it] A game between people")
    gone = client.get("/api/rooms/NOPE", headers={"Accept-Language": "pt-BR"})
    assert gone.status_code == 404
    assert gone.json()["error"]["message"] == "[pt] There is no room with this code and token."
    daily = client.post("/api/daily", json={"level": "nope"}, headers={"Accept-Language": "fr"})
    assert daily.json()["error"]["message"].startswith("[fr] There is no computer level 'nope'.")
    config = client.get("/api/config", headers={"Accept-Language": "nl"}).json()
    assert all(option["label"].startswith("[nl] ") for option in config["rules_options"])
    assert [level["name"] for level in config["levels"]][:1] == ["[nl] Easy"]
    english = client.get("/api/config").json()
    assert english["rules_options"][0]["label"] in {"Pay-off pile size", "Decks"}
    too_large = client.post(
        "/api/replays", content=b"x" * (1 << 20), headers={"Accept-Language": "ru"}
    )
    assert too_large.status_code == 413
    assert too_large.json()["error"]["message"].startswith("[ru] The request body is over")


def test_an_analysis_is_written_in_the_language_it_was_asked_in() -> None:
    from spite_malice.analysis import Settings
    from spite_malice.bots import reference_move
    from spite_malice.engine import Game, Rules
    from spite_malice.engine.record import GameRecord
    from spite_malice.i18n import use_language
    from spite_malice.web.analyses import AnalysisService

    game = Game.new(4, Rules(payoff_size=5))
    while not game.is_over and game.turn < 6:
        game.play(reference_move(game))
    record = GameRecord(seed=4, moves=tuple(str(m) for m in game.moves), rules=game.rules)
    service = AnalysisService(Settings(samples=2, horizon=1, candidates=2), use_process=False)
    with use_language("it"):
        task = service.submit((1, 0), record, 0)
    assert task.finished.wait(180.0)
    status = service.status((1, 0))
    assert status is not None and status["state"] == "done", status
    decisions = [d for turn in status["report"]["turns"] for d in turn["decisions"]]
    assert decisions and all(d["table"].startswith("[it] ") for d in decisions)
    assert all(d["played_words"].startswith("[it] ") for d in decisions)
    with use_language("ru"):  # the queue's own texts follow the asker
        failed = service.submit((2, 0), GameRecord(seed=1, moves=("P-S1",)), 0)
    assert failed.finished.wait(180.0)
    with use_language("ru"):
        said = service.status((2, 0))
    assert said is not None and said["error"] == "[ru] This game could not be analysed."
    service.close()


def test_two_tabs_of_one_seat_read_the_undo_barrier_in_their_own_languages(
    client: TestClient,
) -> None:
    """The state a seat is sent is made once per language of its connections."""
    from undo_scenes import RULES, payoff_turned

    from .test_undo_barriers import play_scene

    scene = payoff_turned()
    answer = new_room(client, level="reference", rules=RULES.to_json(), seed=scene.seed)
    with (
        seat_in(client, answer, "?lang=it") as italian,
        seat_in(client, answer, "?lang=ru") as russian,
    ):
        play_scene(italian, scene)
        moves = len(scene.moves)
        russian.until(lambda m: "state" in m and len(m["state"]["observation"]["history"]) >= moves)
        barrier = "That move cannot be taken back: a new card was turned up."
        assert italian.state["undo_barrier"] == f"[it] {barrier}"
        assert russian.state["undo_barrier"] == f"[ru] {barrier}"
        assert russian.request({"type": "undo"})["message"] == f"[ru] {barrier}"
