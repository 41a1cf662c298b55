"""The daily summary by e-mail, its sending (``docs/browser.md``, "The daily e-mail";
the page's requests are ``web/daily_mail.py``): optional, off unless the operator configured
an SMTP server (``notify/mail.py``), and only to an address the player confirmed by the link
sent to it.

Once a day, after :data:`SUMMARY_HOUR` (UTC), each confirmed player whose turn it is in any
turn-based game gets one message listing them; the day's row in the notifications' outbox
makes it one message across the cluster, whichever instance's loop gets there first."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

from ..i18n import _, ngettext, use_language
from ..notify import mail
from ..store import Store, StoreError

log = logging.getLogger(__name__)

SUMMARY_HOUR_ENV = "SPITE_MALICE_SUMMARY_HOUR"
SUMMARY_HOUR = 8
"""The hour (UTC) from which the day's summaries are sent."""
TICK_SECONDS = 900.0
"""How often each instance looks for summaries to send."""


def summary_hour() -> int:
    try:
        hour = int(os.environ.get(SUMMARY_HOUR_ENV) or SUMMARY_HOUR)
    except ValueError:
        return SUMMARY_HOUR
    return hour if 0 <= hour <= 23 else SUMMARY_HOUR


class TurnList(Protocol):
    async def games_of(self, player: str) -> list[dict[str, Any]]: ...


class Host(Protocol):
    store: Store
    instance: str

    @property
    def turns(self) -> TurnList: ...

    async def run(self, function: Callable[..., Any], *args: Any) -> Any: ...


class DailySummary:
    """The daily e-mail of one instance (its loop, and the confirmation messages)."""

    def __init__(self, host: Host, now: Callable[[], float] = time.time) -> None:
        self.host = host
        self.now = now
        self.settings = mail.MailSettings.from_environment()
        self._task: asyncio.Task[None] | None = None

    @property
    def enabled(self) -> bool:
        return self.settings is not None

    def start(self) -> None:
        if self.enabled and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._ticking())

    async def _ticking(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                await self.send_due()
            except StoreError as error:
                log.warning("the daily e-mails could not be read: %s", error)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _send(self, to: str, subject: str, body: str) -> None:
        assert self.settings is not None
        await asyncio.to_thread(mail.send, self.settings, to, subject, body)

    async def ask_confirmation(self, player: str, address: str, language: str) -> None:
        """Keep the address unconfirmed and send it the link that confirms it."""
        assert self.settings is not None
        token = secrets.token_urlsafe(24)
        await self.host.run(self.host.store.email_addresses.set, player, address, token, language)
        link = f"{self.settings.public_url}/api/email/confirm/{token}"
        with use_language(language):
            subject = _("Confirm your address for Spite & Malice")
            body = _(
                "Open this link to get a daily e-mail listing the games where it is your "
                "turn:\n\n{link}\n\nIf you did not ask for it, ignore this message.",
                link=link,
            )
        await self._send(address, subject, body)

    async def send_due(self) -> int:
        """Send today's summaries not sent yet (after the summary hour); how many."""
        if self.settings is None:
            return 0
        moment = datetime.fromtimestamp(self.now(), UTC)
        if moment.hour < summary_hour():
            return 0
        store = self.host.store
        sent = 0
        for mailbox in await self.host.run(store.email_addresses.confirmed):
            games = [g for g in await self.host.turns.games_of(mailbox.player) if g["your_turn"]]
            if not games:
                continue
            key = f"mail:{mailbox.player}:{moment.date().isoformat()}"
            claimed = await self.host.run(
                store.notifications.claim, key, mailbox.player, "summary", self.host.instance
            )
            if not claimed:
                continue  # sent today already (here or by another instance)
            with use_language(mailbox.language):
                subject, body = self.summary(games)
            try:
                await self._send(mailbox.address, subject, body)
            except mail.MailFailed as error:
                log.warning("a daily e-mail was not sent: %s", error)
                continue
            await self.host.run(store.notifications.mark_sent, key)
            sent += 1
        return sent

    def summary(self, games: list[dict[str, Any]]) -> tuple[str, str]:
        """The subject and text of a summary (current language)."""
        assert self.settings is not None
        count = len(games)
        subject = ngettext("It is your turn in {n} game", "It is your turn in {n} games", count)
        lines = [
            # TRANSLATORS: one game of the daily e-mail: the opponent, the time left, a link
            _(
                "Against {name}: {left} left. {link}",
                name=game["opponent"] or "?",
                left=game["left"] or "",
                link=self.settings.public_url + "/#/game/" + game["room"],
            )
            for game in games
        ]
        footer = _("You get this e-mail because you asked for it in Settings.")
        return subject, "\n".join([*lines, "", footer])
