"""Players that last (web-protocol 9.1): a player protected by a sign-in name and a password
signs in on another browser, which gets a secret of its own; wrong passwords, bad names and
taken names get plain answers; sign-in attempts are rate-limited; a password never appears
in a log or an answer."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient

from spite_malice.web import accounts
from spite_malice.web.api import PLAYER_HEADER

PASSWORD = "correct horse battery"


def protect(client: TestClient, login: str = "Alice.Lee", **extra: str) -> dict[str, object]:
    answer = client.post(
        "/api/account/password", json={"login": login, "password": PASSWORD} | extra
    )
    assert answer.status_code == 200, answer.text
    body: dict[str, object] = answer.json()
    return body


def test_an_unprotected_player_stays_as_today(client: TestClient) -> None:
    assert client.get("/api/account").json() == {
        "login": None,
        "password": False,
        "passkeys": 0,
        "protected": False,
    }
    assert client.get("/api/players/me").status_code == 200


def test_a_password_signs_in_on_another_browser_which_gets_its_own_secret(
    client: TestClient,
) -> None:
    me = client.get("/api/players/me").json()
    assert protect(client) == {
        "login": "alice.lee",
        "password": True,
        "passkeys": 0,
        "protected": True,
    }
    answer = client.post(
        "/api/account/sign-in",
        json={"login": "  ALICE.lee ", "password": PASSWORD},
        headers={PLAYER_HEADER: ""},
    )
    assert answer.status_code == 200, answer.text
    signed = answer.json()
    assert signed["id"] == me["id"] and signed["name"] == me["name"]
    first = client.headers[PLAYER_HEADER]
    assert signed["secret"] != first and len(signed["secret"]) >= 32
    for secret in (signed["secret"], first):  # both browsers stay signed in
        known = client.get("/api/players/me", headers={PLAYER_HEADER: secret})
        assert known.json() == me
    # the second browser's settings and statistics are the player's
    assert client.put("/api/settings", json={"level": "hard"}).status_code == 200
    second = client.get("/api/settings", headers={PLAYER_HEADER: signed["secret"]}).json()
    assert second["level"] == "hard"


@pytest.mark.parametrize(
    ("login", "password"),
    [("alice.lee", "wrong password"), ("nobody", PASSWORD)],
)
def test_a_wrong_name_or_password_is_refused_in_plain_words(
    client: TestClient, login: str, password: str
) -> None:
    protect(client)
    answer = client.post("/api/account/sign-in", json={"login": login, "password": password})
    assert answer.status_code == 401
    assert answer.json()["error"] == {
        "code": "wrong_sign_in",
        "message": "The sign-in name or the password is not right.",
    }


def test_bad_names_and_passwords_are_explained(client: TestClient) -> None:
    for login in ("ab", "_alice", "a" * 41, "al ice", "al/ice"):
        answer = client.post("/api/account/password", json={"login": login, "password": PASSWORD})
        assert answer.status_code == 422, login
        assert "sign-in name of 3 to 40" in answer.json()["error"]["message"]
    for password in ("short", "x" * 201):
        answer = client.post("/api/account/password", json={"login": "alice", "password": password})
        assert answer.status_code == 422
        assert answer.json()["error"]["message"] == "Choose a password of 8 to 200 characters."
    assert client.get("/api/account").json()["protected"] is False


def test_a_taken_name_and_a_change_without_the_current_password_are_refused(
    client: TestClient,
) -> None:
    protect(client)
    other = client.post("/api/players", json={"name": "Bob"}).json()["secret"]
    taken = client.post(
        "/api/account/password",
        json={"login": "ALICE.LEE", "password": PASSWORD},
        headers={PLAYER_HEADER: other},
    )
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "login_taken"
    refused = client.post(
        "/api/account/password", json={"login": "alice2", "password": "new one 123"}
    )
    assert refused.status_code == 403
    assert refused.json()["error"]["message"] == "Your current password is not right."
    protect(client, login="alice2", current=PASSWORD)
    old = client.post("/api/account/sign-in", json={"login": "alice.lee", "password": PASSWORD})
    assert old.status_code == 401  # the old name is free again
    assert (
        client.post(
            "/api/account/sign-in", json={"login": "alice2", "password": PASSWORD}
        ).status_code
        == 200
    )


def test_protecting_needs_the_players_secret(client: TestClient) -> None:
    answer = client.post(
        "/api/account/password",
        json={"login": "alice", "password": PASSWORD},
        headers={PLAYER_HEADER: "not-a-secret"},
    )
    assert answer.status_code == 401 and answer.json()["error"]["code"] == "no_player"


def test_guessing_a_password_is_rate_limited_by_name(client: TestClient) -> None:
    protect(client)
    codes = [
        client.post(
            "/api/account/sign-in", json={"login": "alice.lee", "password": f"guess {n}"}
        ).status_code
        for n in range(accounts.WRONG_BURST + 1)
    ]
    assert codes == [401] * accounts.WRONG_BURST + [429]
    blocked = client.post("/api/account/sign-in", json={"login": "alice.lee", "password": PASSWORD})
    assert blocked.status_code == 429 and int(blocked.headers["Retry-After"]) >= 1
    assert blocked.json()["error"]["message"] == (
        "Too many sign-in attempts; wait a minute and try again."
    )


def test_account_requests_are_rate_limited_by_address(client: TestClient) -> None:
    codes = [
        client.post("/api/account/sign-in", json={"login": f"n{n}xx", "password": "x"}).status_code
        for n in range(accounts.ACCOUNT_BURST + 1)
    ]
    assert codes[-1] == 429 and set(codes[:-1]) == {401}


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", "mot de passe"),
        ("it", "password"),
        ("nl", "wachtwoord"),
        ("pt", "palavra-passe"),
        ("ru", "пароль"),
    ],
)
def test_errors_speak_the_players_language(client: TestClient, language: str, words: str) -> None:
    answer = client.post(
        "/api/account/sign-in",
        json={"login": "nobody", "password": PASSWORD},
        headers={"Accept-Language": language},
    )
    message = answer.json()["error"]["message"]
    assert answer.status_code == 401 and message != "The sign-in name or the password is not right."
    assert words in message.casefold()


def test_no_password_or_secret_in_a_log_or_an_answer(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    protect(client)
    signed = client.post("/api/account/sign-in", json={"login": "alice.lee", "password": PASSWORD})
    client.post("/api/account/sign-in", json={"login": "alice.lee", "password": PASSWORD + "!"})
    secret = signed.json()["secret"]
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert PASSWORD not in logged and secret not in logged
    assert PASSWORD not in client.get("/api/account").text
    stored = client.app.state.lobby.store.credentials.password_hash(  # type: ignore[attr-defined]
        client.get("/api/players/me").json()["id"]
    )
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
