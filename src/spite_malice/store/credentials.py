"""The credentials' repository: players that last (``docs/browser.md`` "Keep your
player"). A player may protect itself with a sign-in name and a password (kept as its
Argon2 hash, made by the caller) and with passkeys (WebAuthn credentials: their public key
and counter); signing in on another browser gives that browser a secret of its own
(``device_secrets``, kept as a SHA-256 like the player's first secret), so the browsers
already signed in keep theirs. A passkey ceremony's challenge is kept in the database, so
that its two requests may reach different server instances; it is used once."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from .database import Database, StoreError, aware
from .players import hash_secret
from .records import Player
from .schema import PlayerRow, utcnow
from .schema_accounts import ACCOUNTS, DEVICE_SECRETS, PASSKEYS, WEBAUTHN_CHALLENGES

_PLAYERS = PlayerRow.__table__
CHALLENGE_SECONDS = 300
"""How long a passkey ceremony may take (WebAuthn's own timeout is a minute)."""


class LoginTaken(StoreError):
    """Another player signs in with this name already."""


@dataclass(frozen=True, slots=True)
class Account:
    """How a player is protected: its sign-in name, whether it has a password, its
    passkeys' count."""

    login: str | None
    password: bool
    passkeys: int

    @property
    def protected(self) -> bool:
        return self.password or self.passkeys > 0


@dataclass(frozen=True, slots=True)
class Passkey:
    credential_id: str
    player: str
    public_key: bytes
    sign_count: int


def fold(login: str) -> str:
    """A sign-in name as it is compared: trimmed, case folded."""
    return login.strip().casefold()


class Credentials:
    """The credentials of one :class:`~.database.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def account(self, player: str) -> Account:
        with self.db.connection(write=False) as connection:
            row = connection.execute(select(ACCOUNTS).where(ACCOUNTS.c.player == player)).first()
            count = connection.execute(
                select(func.count()).select_from(PASSKEYS).where(PASSKEYS.c.player == player)
            ).scalar_one()
        if row is None:
            return Account(None, False, count)
        return Account(row.login, row.password_hash is not None, count)

    def password_hash(self, player: str) -> str | None:
        with self.db.connection(write=False) as connection:
            return connection.execute(
                select(ACCOUNTS.c.password_hash).where(ACCOUNTS.c.player == player)
            ).scalar()

    def set_password(self, player: str, login: str, password_hash: str) -> None:
        """Protect ``player`` with the sign-in name ``login`` and a password's hash (a new
        one replaces the old); :class:`LoginTaken` when another player has that name."""
        now = utcnow()
        values: dict[str, Any] = {"login": fold(login), "password_hash": password_hash}
        try:
            with self.db.connection() as connection:
                done = connection.execute(
                    update(ACCOUNTS)
                    .where(ACCOUNTS.c.player == player)
                    .values(**values, updated_at=now)
                ).rowcount
                if not done:
                    connection.execute(
                        insert(ACCOUNTS).values(
                            player=player, **values, created_at=now, updated_at=now
                        )
                    )
        except IntegrityError:
            raise LoginTaken(login) from None

    def login(self, login: str) -> tuple[str, str] | None:
        """(player, password hash) of the player signing in as ``login``, or None."""
        with self.db.connection(write=False) as connection:
            row = connection.execute(
                select(ACCOUNTS.c.player, ACCOUNTS.c.password_hash).where(
                    ACCOUNTS.c.login == fold(login)
                )
            ).first()
        if row is None or row.password_hash is None:
            return None
        return row.player, row.password_hash

    def rehash(self, player: str, password_hash: str) -> None:
        """Keep a stronger hash of the same password (Argon2's parameters were raised)."""
        with self.db.connection() as connection:
            connection.execute(
                update(ACCOUNTS)
                .where(ACCOUNTS.c.player == player)
                .values(password_hash=password_hash)
            )

    def add_passkey(
        self,
        player: str,
        credential_id: str,
        public_key: bytes,
        sign_count: int,
        transports: list[str] | None,
    ) -> bool:
        """Keep a new passkey of ``player``; False when that credential is kept already."""
        try:
            with self.db.connection() as connection:
                connection.execute(
                    insert(PASSKEYS).values(
                        credential_id=credential_id,
                        player=player,
                        public_key=public_key,
                        sign_count=sign_count,
                        transports=transports,
                        created_at=utcnow(),
                    )
                )
        except IntegrityError:
            return False
        return True

    def passkey_ids(self, player: str) -> list[str]:
        with self.db.connection(write=False) as connection:
            return list(
                connection.execute(
                    select(PASSKEYS.c.credential_id).where(PASSKEYS.c.player == player)
                ).scalars()
            )

    def passkey(self, credential_id: str) -> Passkey | None:
        with self.db.connection(write=False) as connection:
            row = connection.execute(
                select(PASSKEYS).where(PASSKEYS.c.credential_id == credential_id)
            ).first()
        if row is None:
            return None
        return Passkey(row.credential_id, row.player, bytes(row.public_key), row.sign_count)

    def used_passkey(self, credential_id: str, sign_count: int) -> None:
        with self.db.connection() as connection:
            connection.execute(
                update(PASSKEYS)
                .where(PASSKEYS.c.credential_id == credential_id)
                .values(sign_count=sign_count, used_at=utcnow())
            )

    # ----------------------------------------------------------------- browsers signed in

    def sign_in(self, player: str) -> tuple[Player, str] | None:
        """A new secret for a browser signing in as ``player`` (kept only as a hash), or
        None when there is no such player."""
        secret = secrets.token_urlsafe(32)
        with self.db.connection() as connection:
            row = connection.execute(select(_PLAYERS).where(_PLAYERS.c.id == player)).first()
            if row is None:
                return None
            connection.execute(
                insert(DEVICE_SECRETS).values(
                    secret_hash=hash_secret(secret), player=player, created_at=utcnow()
                )
            )
        return Player(row.id, row.name, row.source), secret

    def player_for_device(self, secret: str) -> Player | None:
        """The player a signed-in browser's secret belongs to, or None."""
        query = (
            select(_PLAYERS)
            .join(DEVICE_SECRETS, DEVICE_SECRETS.c.player == _PLAYERS.c.id)
            .where(DEVICE_SECRETS.c.secret_hash == hash_secret(secret))
        )
        with self.db.connection(write=False) as connection:
            row = connection.execute(query).first()
        return None if row is None else Player(row.id, row.name, row.source)

    # ----------------------------------------------------------------- passkey ceremonies

    def open_ceremony(self, challenge: str, purpose: str, player: str | None) -> str:
        """Keep a passkey ceremony's challenge; its id, for the ceremony's second request."""
        ceremony = secrets.token_urlsafe(24)
        now = utcnow()
        with self.db.connection() as connection:
            connection.execute(
                delete(WEBAUTHN_CHALLENGES).where(WEBAUTHN_CHALLENGES.c.expires_at < now)
            )
            connection.execute(
                insert(WEBAUTHN_CHALLENGES).values(
                    id=ceremony,
                    challenge=challenge,
                    purpose=purpose,
                    player=player,
                    expires_at=now + timedelta(seconds=CHALLENGE_SECONDS),
                )
            )
        return ceremony

    def close_ceremony(
        self, ceremony: str, purpose: str, now: datetime | None = None
    ) -> tuple[str, str | None] | None:
        """The (challenge, player) of an open, unexpired ceremony, which this closes (a
        challenge is used once); None when there is none."""
        now = now or utcnow()
        with self.db.connection() as connection:
            row = connection.execute(
                select(WEBAUTHN_CHALLENGES).where(
                    WEBAUTHN_CHALLENGES.c.id == ceremony,
                    WEBAUTHN_CHALLENGES.c.purpose == purpose,
                )
            ).first()
            if row is None:
                return None
            gone = connection.execute(
                delete(WEBAUTHN_CHALLENGES).where(WEBAUTHN_CHALLENGES.c.id == ceremony)
            ).rowcount
        if not gone or aware(row.expires_at) < now:
            return None
        return row.challenge, row.player
