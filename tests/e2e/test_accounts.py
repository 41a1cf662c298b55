"""End to end: a player protects itself in Settings with a password, or with a passkey
(Chromium's virtual authenticator, CDP ``WebAuthn.addVirtualAuthenticator``), and a second
browser context (another device, or the browser cleared) signs in as it: it then plays as
that player (same id), and the first browser stays signed in. A wrong password is
explained in plain words."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import BrowserContext, CDPSession, Page, expect

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e

RECORD = "() => JSON.parse(localStorage.getItem('spite-malice.player-record'))"


def record(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(RECORD)
    return found


def settings(context: BrowserContext, base: str) -> Player:
    player = Player.open(context, base, "keeper")
    player.goto("settings")
    expect(player.page.locator("#account-state")).to_be_visible()
    player.page.wait_for_function(f"() => !!({RECORD[6:]})")
    return player


def test_a_password_protects_the_player_and_signs_in_on_a_second_context(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    first = settings(new_context(), server.url)
    page = first.page
    login = first.name
    page.fill("#account-login", login)
    page.fill("#account-password", "a long enough password")
    page.click("#protect-password")
    expect(page.locator("#account-status")).to_have_text(
        "Saved. Sign in with this name and password on another device."
    )
    expect(page.locator("#account-state")).to_contain_text(login.casefold())
    owner = record(page)

    second = settings(new_context(), server.url)
    other = second.page
    stranger = record(other)
    assert stranger["id"] != owner["id"]
    other.fill("#sign-in-login", login)
    other.fill("#sign-in-password", "not the password")
    other.click("#sign-in-password-button")
    expect(other.locator("#account-status")).to_have_text(
        "The sign-in name or the password is not right."
    )
    other.fill("#sign-in-password", "a long enough password")
    other.click("#sign-in-password-button")
    other.wait_for_function(f"id => ({RECORD[6:]}).id === id", arg=owner["id"])
    expect(other.locator("#account-state")).to_contain_text(login.casefold())
    signed = record(other)
    assert signed["secret"] != owner["secret"]
    # both browsers play as the player: the first one was not signed out
    for each in (page, other):
        me = each.evaluate(
            """async () => (await fetch('/api/players/me', {headers: {'X-Player-Secret':
               JSON.parse(localStorage.getItem('spite-malice.player-record')).secret}})).json()"""
        )
        assert me["id"] == owner["id"]
    logged = server.log.read_text(errors="replace")  # what the server printed
    for secret in ("a long enough password", "not the password", owner["secret"], signed["secret"]):
        assert secret not in logged
    assert not first.errors
    # the browser logs the wrong password's answer (401) as a failed load; nothing else
    assert [e for e in second.errors if "status of 401" not in e] == []


def authenticator(page: Page, context: BrowserContext) -> tuple[CDPSession, str]:
    """A virtual platform authenticator with user verification, for ``page``."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    made = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp, str(made["authenticatorId"])


def test_a_passkey_protects_the_player_and_signs_in_on_a_second_context(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    # WebAuthn needs a host name, not an address: the default relying party is localhost
    base = server.url.replace("127.0.0.1", "localhost")
    context = new_context()
    first = settings(context, base)
    page = first.page
    cdp, first_key = authenticator(page, context)
    page.click("#protect-passkey")
    expect(page.locator("#account-status")).to_have_text(
        "Saved. Sign in with this passkey on another device."
    )
    expect(page.locator("#account-state")).to_have_text(
        "Your player is protected with your passkeys (1)."
    )
    owner = record(page)
    kept = cdp.send("WebAuthn.getCredentials", {"authenticatorId": first_key})["credentials"]
    assert len(kept) == 1 and kept[0]["isResidentCredential"]

    other_context = new_context()
    second = settings(other_context, base)
    other = second.page
    other_cdp, second_key = authenticator(other, other_context)
    # the passkey travels to the other device, as a passkey manager syncs it
    other_cdp.send("WebAuthn.addCredential", {"authenticatorId": second_key, "credential": kept[0]})
    assert record(other)["id"] != owner["id"]
    other.click("#sign-in-passkey")
    other.wait_for_function(f"id => ({RECORD[6:]}).id === id", arg=owner["id"])
    expect(other.locator("#account-state")).to_have_text(
        "Your player is protected with your passkeys (1)."
    )
    assert record(other)["secret"] != owner["secret"]
    assert not first.errors and not second.errors
