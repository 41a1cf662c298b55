"""Player and seat names are checked by one function (``spite_malice.names``): no control,
format or surrogate characters, and at least one visible character. A refused name gets a
422 in plain words naming the field, on SQLite and on PostgreSQL (where a NUL used to give a
false 503 "database cannot be used now"), and the terminal's ``--name`` is refused the same way.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from spite_malice.cli import main
from spite_malice.cli.tui_commands import player_name
from spite_malice.names import CONTROL, NOTHING_VISIBLE, check_name, name_problem
from spite_malice.web import create_app
from spite_malice.web.api import PLAYER_HEADER

from .conftest import new_player, new_room

HIDDEN_NAMES = [
    "a\x00b",  # NUL: PostgreSQL cannot store it
    "Ann\x07",  # a bell
    "Bob\u202e",  # right-to-left override
    "\u202eysaE",  # "Easy" shown backwards
    "Ev\u200be",  # zero-width space
    "Zo\u2066e",  # left-to-right isolate
    "x\ufeff",  # zero-width no-break space
    "a\tb",  # a tab is a control character too
    "\u200dAnn",  # a joiner that joins nothing
    "Ann\u200c",
    "An\u200d\u200dn",
    "Ann \u200d Bob",
]
"""Names with a character that cannot be shown (Cc, Cf)."""
INVISIBLE_NAMES = [" ", "   ", "\u3000", "\u3164", "\u2800\u2800", "\u0301"]
"""Names without one visible character (white space, Hangul filler, blank Braille, a lone
combining accent)."""
GOOD_NAMES = [
    "Ann",
    "Zoë",
    "José María",
    "Łukasz",
    "Ольга",
    "سارة",
    "美咲",
    "O'Neil",
    "🂡 Ace",
    "Mañana",
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian, with its non-joiner
    "\U0001f469\u200d\U0001f469\u200d\U0001f467",  # a family emoji: joined emoji
]


@pytest.mark.parametrize("name", HIDDEN_NAMES)
def test_a_name_with_a_control_or_format_character_is_refused(name: str) -> None:
    assert name_problem(name) == CONTROL


@pytest.mark.parametrize("name", INVISIBLE_NAMES)
def test_a_name_without_a_visible_character_is_refused(name: str) -> None:
    assert name_problem(name) == NOTHING_VISIBLE


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_names_in_any_script_are_accepted(name: str) -> None:
    assert name_problem(name) is None
    assert check_name(name, "'name'") is None


def test_a_lone_surrogate_is_refused() -> None:
    assert name_problem("a\ud800") == CONTROL


# ----------------------------------------------------------------- the web server


def _check_refused(answer: object, field: str) -> None:
    from httpx import Response

    assert isinstance(answer, Response)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["code"] == "invalid"
    assert f"'{field}'" in error["message"]
    assert "cannot be shown" in error["message"] or "no visible character" in error["message"]


def _refuses_every_bad_name(client: TestClient) -> None:
    """Each place a name is given refuses the bad names, and nothing is stored or changed."""
    for name in ["a\x00b", "\u200b\u202e", "\u202eysaE", "   "]:
        made = client.post("/api/players", json={"name": name}, headers={PLAYER_HEADER: ""})
        _check_refused(made, "name")
        _check_refused(client.put("/api/settings", json={"player": name}), "player")
        _check_refused(
            client.post("/api/rooms", json={"mode": "computer", "player": name}), "player"
        )
    assert client.get("/api/settings").json()["player"] == "alice"
    invitation = new_room(client, mode="friend")
    bob = new_player(client, "bob")
    join = f"/api/rooms/{invitation['room']}/join"
    _check_refused(client.post(join, json={"player": "b\x00"}, headers=bob), "player")
    _check_refused(client.post(join, json={"player": "\u202e"}, headers=bob), "player")
    joined = client.post(join, json={"player": "Bob"}, headers=bob)  # the seat is still free
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    assert client.get("/api/rooms").json()["rooms"][0]["players"] == ["alice", "Bob"]


def test_bad_names_are_refused_on_sqlite(client: TestClient) -> None:
    _refuses_every_bad_name(client)


@pytest.fixture
def postgres_client(postgres_schema_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(postgres_schema_url)) as test_client:
        test_client.headers.update(new_player(test_client, "alice"))
        yield test_client


@pytest.mark.postgres
def test_bad_names_are_refused_on_postgresql_not_a_database_failure(
    postgres_client: TestClient,
) -> None:
    _refuses_every_bad_name(postgres_client)
    # the database still works: a good name is stored
    made = postgres_client.post("/api/players", json={"name": "Zoë"}, headers={PLAYER_HEADER: ""})
    assert made.status_code == 201 and made.json()["name"] == "Zoë"


def test_a_good_name_keeps_its_words_with_its_spaces_folded(client: TestClient) -> None:
    made = client.post(
        "/api/players", json={"name": "  José   María "}, headers={PLAYER_HEADER: ""}
    )
    assert made.status_code == 201, made.text
    assert made.json()["name"] == "José María"


def test_a_refused_name_is_said_in_the_requests_language(client: TestClient) -> None:
    answer = client.put(
        "/api/settings", json={"player": "\u202eysaE"}, headers={"Accept-Language": "it"}
    )
    assert answer.status_code == 422
    message = answer.json()["error"]["message"]
    assert "'player'" in message and "cannot be shown" not in message


# ----------------------------------------------------------------- the terminal


@pytest.mark.parametrize("name", ["a\x00b", "\u202eysaE", "  "])
def test_the_terminals_name_is_refused_before_anything_starts(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for command in ("play", "daily"):
        with pytest.raises(SystemExit) as exit_:
            main(
                [command, "--name", name, "--no-db"]
                if command == "play"
                else [command, "--name", name]
            )
        assert exit_.value.code == 2
        error = capsys.readouterr().err
        assert "argument --name: The name" in error
        with pytest.raises(argparse.ArgumentTypeError):
            player_name(name)


def test_the_terminals_name_keeps_a_good_name() -> None:
    assert player_name(" Zoë  Smith ") == "Zoë Smith"
