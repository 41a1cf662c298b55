"""The players' repository: creating a player, finding one by its secret, renaming."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from sqlalchemy import (
    select,
    update,
)

from .database import (
    Database,
)
from .records import (
    Player,
)
from .schema import (
    PlayerRow,
)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Players:
    """The players of one :class:`~.database.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def create_player(self, name: str, source: str = "web") -> tuple[Player, str]:
        """A new player named ``name``; returns it and its secret (kept only as a hash)."""
        secret = secrets.token_urlsafe(32)
        player = Player(secrets.token_hex(16), name, source)
        with self.db.session(write=True) as session:
            session.add(
                PlayerRow(id=player.id, name=name, secret_hash=hash_secret(secret), source=source)
            )
        return player, secret

    def player_for(self, secret: str) -> Player | None:
        """The player whose secret this is, or None."""
        wanted = hash_secret(secret)
        with self.db.session() as session:
            row = session.scalar(select(PlayerRow).where(PlayerRow.secret_hash == wanted))
            if row is None or not hmac.compare_digest(row.secret_hash, wanted):
                return None
            return Player(row.id, row.name, row.source)

    def player(self, player_id: str) -> Player | None:
        with self.db.session() as session:
            row = session.get(PlayerRow, player_id)
            return None if row is None else Player(row.id, row.name, row.source)

    def rename_player(self, player_id: str, name: str) -> None:
        with self.db.session(write=True) as session:
            session.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(name=name))

    def local_player(self, source: str = "terminal") -> Player:
        """The one player of this store's local program (the terminal), made on first use."""
        with self.db.session() as session:
            row = session.scalar(
                select(PlayerRow).where(PlayerRow.source == source).order_by(PlayerRow.created_at)
            )
            if row is not None:
                return Player(row.id, row.name, row.source)
        player, _ = self.create_player("You", source)
        return player
