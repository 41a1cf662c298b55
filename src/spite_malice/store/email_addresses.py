"""The addresses players gave for the daily summary by e-mail (table ``email_addresses`` in
``schema_notify.py``; ``docs/browser.md``, "The daily e-mail"): kept unconfirmed until the
player opens the link sent to it; only confirmed addresses get the summary."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sqlalchemy import delete, insert, select, update

from .database import Database
from .schema import utcnow
from .schema_notify import EMAIL_ADDRESSES


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Mailbox:
    player: str
    address: str
    language: str
    confirmed: bool


class EmailAddresses:
    """The daily summary's addresses of one :class:`~.database.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def set(self, player: str, address: str, token: str, language: str) -> None:
        """Keep ``address`` for ``player``, unconfirmed, replacing the one before."""
        values = {
            "address": address,
            "token_hash": token_hash(token),
            "language": language,
            "created_at": utcnow(),
            "confirmed_at": None,
        }
        with self.db.connection() as connection:
            connection.execute(delete(EMAIL_ADDRESSES).where(EMAIL_ADDRESSES.c.player == player))
            connection.execute(insert(EMAIL_ADDRESSES).values(player=player, **values))

    def confirm(self, token: str) -> Mailbox | None:
        """Confirm the address whose link carries ``token``; None when no address has it."""
        with self.db.connection() as connection:
            row = connection.execute(
                select(EMAIL_ADDRESSES).where(EMAIL_ADDRESSES.c.token_hash == token_hash(token))
            ).first()
            if row is None:
                return None
            if row.confirmed_at is None:
                connection.execute(
                    update(EMAIL_ADDRESSES)
                    .where(EMAIL_ADDRESSES.c.player == row.player)
                    .values(confirmed_at=utcnow())
                )
        return Mailbox(row.player, row.address, row.language, True)

    def of(self, player: str) -> Mailbox | None:
        with self.db.connection(write=False) as connection:
            row = connection.execute(
                select(EMAIL_ADDRESSES).where(EMAIL_ADDRESSES.c.player == player)
            ).first()
        if row is None:
            return None
        return Mailbox(row.player, row.address, row.language, row.confirmed_at is not None)

    def remove(self, player: str) -> bool:
        with self.db.connection() as connection:
            return bool(
                connection.execute(
                    delete(EMAIL_ADDRESSES).where(EMAIL_ADDRESSES.c.player == player)
                ).rowcount
            )

    def confirmed(self) -> list[Mailbox]:
        with self.db.connection(write=False) as connection:
            rows = connection.execute(
                select(EMAIL_ADDRESSES).where(EMAIL_ADDRESSES.c.confirmed_at.is_not(None))
            ).all()
        return [Mailbox(row.player, row.address, row.language, True) for row in rows]
