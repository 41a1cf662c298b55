"""Issue 47, item 3: the daily summary by e-mail, through an SMTP server the test runs
(``aiosmtpd``): off by default; an address is confirmed by the link sent to it; once a day,
after the summary hour, a confirmed player whose turn it is gets one message listing those
games (one across two instances), in the player's language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cluster.lobbies import Listener, started_lobbies
from smtp_server import Kept, smtp_server, text_of
from spite_malice.notify import mail
from spite_malice.web import create_app, limits
from spite_malice.web.api import PLAYER_HEADER
from spite_malice.web.daily_summary import DailySummary

from .games import Clock, end_turn, turn_game


@pytest.fixture
def smtp(monkeypatch: pytest.MonkeyPatch) -> Iterator[Kept]:
    with smtp_server() as (kept, port):
        monkeypatch.setenv(mail.HOST_ENV, "127.0.0.1")
        monkeypatch.setenv(mail.PORT_ENV, str(port))
        monkeypatch.setenv(mail.SECURITY_ENV, "none")
        monkeypatch.setenv(mail.FROM_ENV, "games@example.org")
        monkeypatch.setenv(mail.PUBLIC_URL_ENV, "https://cards.example.org")
        yield kept


def player_client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(str(tmp_path / "mail.db")))


def test_e_mail_is_off_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(mail.HOST_ENV, raising=False)
    with player_client(tmp_path) as client:
        client.headers[PLAYER_HEADER] = client.post("/api/players", json={"name": "A"}).json()[
            "secret"
        ]
        assert client.get("/api/email").json() == {
            "enabled": False,
            "address": None,
            "confirmed": False,
        }
        refused = client.post("/api/email", json={"address": "a@example.org"})
        assert refused.status_code == 409
        assert refused.json()["error"]["message"] == "E-mail is not set up on this server."


def test_an_address_is_confirmed_by_its_link(tmp_path: Path, smtp: Kept) -> None:
    with player_client(tmp_path) as client:
        client.headers[PLAYER_HEADER] = client.post("/api/players", json={"name": "A"}).json()[
            "secret"
        ]
        bad = client.post("/api/email", json={"address": "not an address"})
        assert bad.status_code == 422 and "name@example.org" in bad.json()["error"]["message"]
        given = client.post(
            "/api/email", json={"address": "ann@example.org"}, headers={"Accept-Language": "fr"}
        )
        assert given.status_code == 202, given.text
        [message] = smtp.messages
        assert message["To"] == "ann@example.org" and message["From"] == "games@example.org"
        assert message["Subject"] == "Confirmez votre adresse pour Spite & Malice"
        link = re.search(r"https://cards\.example\.org(/api/email/confirm/\S+)", text_of(message))
        assert link is not None
        assert client.get("/api/email").json()["confirmed"] is False
        assert client.get("/api/email/confirm/not-the-token").status_code == 404
        opened = client.get(link.group(1))
        assert opened.status_code == 200 and "confirm" in opened.text
        assert client.get("/api/email").json() == {
            "enabled": True,
            "address": "ann@example.org",
            "confirmed": True,
        }
        assert client.post("/api/email/remove").status_code == 204
        assert client.get("/api/email").json()["address"] is None


async def test_one_summary_a_day_across_two_instances(tmp_path: Path, smtp: Kept) -> None:
    async with started_lobbies(str(tmp_path / "summary.db"), 2) as (one, two):
        clock = Clock(datetime(2026, 12, 7, 6, 0, tzinfo=UTC).timestamp())
        for lobby in (one, two):
            lobby.turns.now = lobby.mail.now = clock
        first, alice, bob = await turn_game(one, days=3)
        second, _a, _b = await turn_game(one, days=1, players=(alice, bob))
        for room in (first, second):  # Alice to move in both
            if room.game.to_move != 0:
                await end_turn(room, Listener())
        await one.turns.settled()
        store = one.store.email_addresses
        await one.run(store.set, alice.id, "alice@example.org", "token-a", "en")
        await one.run(store.confirm, "token-a")
        await one.run(store.set, bob.id, "bob@example.org", "token-b", "en")
        await one.run(store.confirm, "token-b")
        assert await one.mail.send_due() == 0  # 06:00: before the summary hour
        clock.advance(3)
        sent = [await one.mail.send_due(), await two.mail.send_due()]
        assert sorted(sent) == [0, 1]  # Bob has no game to play: nothing for him
        [message] = smtp.messages
        assert message["To"] == "alice@example.org"
        assert message["Subject"] == "It is your turn in 2 games"
        body = text_of(message)
        assert f"https://cards.example.org/#/game/{first.code}" in body
        assert f"https://cards.example.org/#/game/{second.code}" in body
        assert "Against Bob: " in body and "2 days and 2" in body  # least time left first
        assert body.index(second.code) < body.index(first.code)
        assert await one.mail.send_due() == 0  # once a day
        clock.advance(24)
        assert await two.mail.send_due() == 1  # the next day


def test_the_summary_reads_the_players_language(tmp_path: Path) -> None:
    daily = DailySummary.__new__(DailySummary)
    daily.settings = mail.MailSettings("h", 25, "f@example.org", "https://x.example")
    from spite_malice.i18n import use_language

    with use_language("nl"):
        subject, body = daily.summary(
            [{"opponent": "Bob", "left": "5 uur", "room": "ABCDEF", "your_turn": True}]
        )
    assert subject == "Je bent aan zet in 1 spel"
    assert body.startswith("Tegen Bob: nog 5 uur. https://x.example/#/game/ABCDEF")


def test_confirmation_e_mails_are_limited_per_player_and_per_address(
    tmp_path: Path, smtp: Kept
) -> None:
    """Three confirmation e-mails at once for a player, or for an address (whoever asks),
    then three an hour; the fourth is refused in plain words with a Retry-After, and sends
    nothing."""
    clock = Clock()
    with player_client(tmp_path) as client:
        client.app.state.confirmation_limits = limits.ConfirmationLimits(clock)  # type: ignore[attr-defined]
        ann = {PLAYER_HEADER: client.post("/api/players", json={"name": "A"}).json()["secret"]}
        bob = {PLAYER_HEADER: client.post("/api/players", json={"name": "B"}).json()["secret"]}
        for n in range(3):
            given = client.post("/api/email", json={"address": f"ann{n}@example.org"}, headers=ann)
            assert given.status_code == 202, given.text
        refused = client.post("/api/email", json={"address": "ann9@example.org"}, headers=ann)
        assert refused.status_code == 429
        assert refused.json()["error"]["message"] == (
            "Too many confirmation e-mails were asked for; wait an hour and try again."
        )
        assert 0 < int(refused.headers["Retry-After"]) <= 3600
        assert len(smtp.messages) == 3
        # other players, one address: three at once, whoever asks (in any case)
        cy = {PLAYER_HEADER: client.post("/api/players", json={"name": "C"}).json()["secret"]}
        for asker in (bob, bob, cy):
            given = client.post("/api/email", json={"address": "carl@example.org"}, headers=asker)
            assert given.status_code == 202, given.text
        target = client.post("/api/email", json={"address": "Carl@example.org"}, headers=bob)
        assert target.status_code == 429  # Bob has one left, the address none
        assert len(smtp.messages) == 6
        clock.advance(1 / 3)  # twenty minutes: one more for Ann
        given = client.post("/api/email", json={"address": "ann9@example.org"}, headers=ann)
        assert given.status_code == 202, given.text
        assert len(smtp.messages) == 7
