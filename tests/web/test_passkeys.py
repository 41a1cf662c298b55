"""Passkeys' server side (web-protocol 9.2): the options name the relying party from the
configuration and ask for a discoverable credential; a ceremony is used once and only for
its purpose; an answer that does not check, or a passkey nobody has, is refused in plain
words. (The whole ceremony with a browser's authenticator: tests/e2e/test_accounts.py.)"""

from __future__ import annotations

from fastapi.testclient import TestClient
from starlette.requests import Request

from spite_malice.web.api import PLAYER_HEADER
from spite_malice.web.passkeys import RelyingParty


def _request(origin: str) -> Request:
    return Request({"type": "http", "headers": [(b"origin", origin.encode())]})


def test_the_relying_party_comes_from_the_environment_with_a_default_for_localhost() -> None:
    local = RelyingParty.from_environment({})
    assert local == RelyingParty("localhost", ())
    assert local.expected_origin(_request("http://localhost:8123")) == ["http://localhost:8123"]
    assert local.expected_origin(_request("http://evil.example")) == ["http://localhost"]
    site = RelyingParty.from_environment({"SPITE_MALICE_WEBAUTHN_RP_ID": "cards.example.org"})
    assert site == RelyingParty("cards.example.org", ("https://cards.example.org",))
    listed = RelyingParty.from_environment(
        {
            "SPITE_MALICE_WEBAUTHN_RP_ID": "example.org",
            "SPITE_MALICE_WEBAUTHN_ORIGINS": "https://example.org/, https://play.example.org",
        }
    )
    assert listed.origins == ("https://example.org", "https://play.example.org")
    assert listed.expected_origin(_request("http://localhost:1")) == list(listed.origins)


def test_registration_options_ask_for_a_discoverable_passkey_of_this_site(
    client: TestClient,
) -> None:
    answer = client.post("/api/account/passkey/options")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    options = body["options"]
    me = client.get("/api/players/me").json()
    assert options["rp"]["id"] == "localhost"
    assert options["user"]["name"] == me["name"]
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert len(body["ceremony"]) >= 24 and len(options["challenge"]) >= 43
    assert (
        client.post("/api/account/passkey/options", headers={PLAYER_HEADER: "x"}).status_code == 401
    )


def test_a_ceremony_is_used_once_and_for_its_purpose_only(client: TestClient) -> None:
    made = client.post("/api/account/passkey/options").json()
    # a registration's ceremony does not sign anyone in
    wrong = client.post(
        "/api/account/passkey/sign-in", json={"ceremony": made["ceremony"], "credential": {}}
    )
    assert wrong.status_code == 410
    assert wrong.json()["error"]["message"] == (
        "The passkey request took too long or was already used. Try again."
    )
    # an answer that does not check is refused, and uses the ceremony up
    bad = client.post(
        "/api/account/passkey", json={"ceremony": made["ceremony"], "credential": {"id": "x"}}
    )
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "passkey_failed"
    again = client.post(
        "/api/account/passkey", json={"ceremony": made["ceremony"], "credential": {"id": "x"}}
    )
    assert again.status_code == 410
    assert client.get("/api/account").json()["passkeys"] == 0


def test_a_passkey_nobody_has_signs_nobody_in(client: TestClient) -> None:
    made = client.post("/api/account/passkey/sign-in/options", headers={PLAYER_HEADER: ""})
    assert made.status_code == 200
    body = made.json()
    assert body["options"]["rpId"] == "localhost"
    assert "allowCredentials" not in body["options"] or body["options"]["allowCredentials"] == []
    answer = client.post(
        "/api/account/passkey/sign-in",
        json={"ceremony": body["ceremony"], "credential": {"id": "bm9ib2R5", "response": {}}},
    )
    assert answer.status_code == 401
    assert answer.json()["error"]["message"].startswith(
        "This passkey does not belong to any player here."
    )


def test_a_ceremony_expires_after_five_minutes(client: TestClient) -> None:
    from datetime import timedelta

    from spite_malice.store.credentials import CHALLENGE_SECONDS
    from spite_malice.store.schema import utcnow

    credentials = client.app.state.lobby.store.credentials  # type: ignore[attr-defined]
    late = credentials.open_ceremony("challenge", "sign_in", None)
    later = utcnow() + timedelta(seconds=CHALLENGE_SECONDS + 1)
    assert credentials.close_ceremony(late, "sign_in", now=later) is None
    on_time = credentials.open_ceremony("challenge", "sign_in", None)
    assert credentials.close_ceremony(on_time, "sign_in") == ("challenge", None)
    assert credentials.close_ceremony(on_time, "sign_in") is None
