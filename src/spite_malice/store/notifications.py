"""Notifications in the store (tables in ``schema_notify.py``; what they are for in
``docs/deploying.md``, "Notifications"): the server's keys, the browsers' push
subscriptions, and the outbox whose rows make each notification go out once.

An event's notification is claimed by inserting its row (:meth:`Notifications.claim`): the
key names the event, so when several instances see the same event (each follows the same
room), one insert wins and only that instance sends it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from .database import Database
from .schema import utcnow
from .schema_notify import NOTIFICATION_OUTBOX, PUSH_SUBSCRIPTIONS, SERVER_KEYS

VAPID_KEY = "vapid"
"""The name of the Web Push (VAPID) private key in ``server_keys``."""


@dataclass(frozen=True)
class PushSubscription:
    """One browser's push subscription (the Push API's ``PushSubscription``)."""

    player: str
    endpoint: str
    p256dh: str
    auth: str
    language: str


class Notifications:
    """The notifications' rows of one :class:`~.database.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def server_key(self, name: str, make: Callable[[], str]) -> str:
        """The server key ``name``, made by ``make()`` and kept when there is none yet; when
        two instances start at once, both get the one stored first."""
        with self.db.connection(write=False) as connection:
            value = connection.execute(
                select(SERVER_KEYS.c.value).where(SERVER_KEYS.c.name == name)
            ).scalar()
        if value is not None:
            return str(value)
        made = make()
        try:
            with self.db.connection() as connection:
                connection.execute(
                    insert(SERVER_KEYS).values(name=name, value=made, created_at=utcnow())
                )
            return made
        except IntegrityError:  # another instance stored its key first: use that one
            with self.db.connection(write=False) as connection:
                return str(
                    connection.execute(
                        select(SERVER_KEYS.c.value).where(SERVER_KEYS.c.name == name)
                    ).scalar_one()
                )

    def subscribe(self, subscription: PushSubscription) -> None:
        """Keep a browser's subscription (the same endpoint again replaces its row: a
        browser that signed in as another player now notifies that one)."""
        values = {
            "player": subscription.player,
            "p256dh": subscription.p256dh,
            "auth": subscription.auth,
            "language": subscription.language,
        }
        for _attempt in range(2):
            try:
                with self.db.connection() as connection:
                    done = connection.execute(
                        update(PUSH_SUBSCRIPTIONS)
                        .where(PUSH_SUBSCRIPTIONS.c.endpoint == subscription.endpoint)
                        .values(**values)
                    ).rowcount
                    if not done:
                        connection.execute(
                            insert(PUSH_SUBSCRIPTIONS).values(
                                endpoint=subscription.endpoint, **values, created_at=utcnow()
                            )
                        )
                return
            except IntegrityError:  # the same browser, subscribed at once elsewhere
                continue

    def unsubscribe(self, player: str, endpoint: str | None = None) -> int:
        """Forget ``player``'s subscription at ``endpoint`` (every one of the player's when
        None); how many were forgotten."""
        statement = delete(PUSH_SUBSCRIPTIONS).where(PUSH_SUBSCRIPTIONS.c.player == player)
        if endpoint is not None:
            statement = statement.where(PUSH_SUBSCRIPTIONS.c.endpoint == endpoint)
        with self.db.connection() as connection:
            return int(connection.execute(statement).rowcount)

    def forget_endpoint(self, endpoint: str) -> None:
        """Forget a subscription its push service says is gone (404, 410)."""
        with self.db.connection() as connection:
            connection.execute(
                delete(PUSH_SUBSCRIPTIONS).where(PUSH_SUBSCRIPTIONS.c.endpoint == endpoint)
            )

    def subscriptions(self, player: str) -> list[PushSubscription]:
        with self.db.connection(write=False) as connection:
            rows = connection.execute(
                select(PUSH_SUBSCRIPTIONS)
                .where(PUSH_SUBSCRIPTIONS.c.player == player)
                .order_by(PUSH_SUBSCRIPTIONS.c.created_at)
            ).all()
        return [
            PushSubscription(row.player, row.endpoint, row.p256dh, row.auth, row.language)
            for row in rows
        ]

    def claim(self, key: str, player: str, kind: str, instance: str) -> bool:
        """Claim the notification of the event ``key`` for ``player``: True for the one
        caller that inserted its row (it sends it), False for every other."""
        try:
            with self.db.connection() as connection:
                connection.execute(
                    insert(NOTIFICATION_OUTBOX).values(
                        key=key[:160],
                        player=player,
                        kind=kind,
                        instance=instance,
                        created_at=utcnow(),
                    )
                )
        except IntegrityError:
            return False
        return True

    def mark_sent(self, key: str, at: datetime | None = None) -> None:
        with self.db.connection() as connection:
            connection.execute(
                update(NOTIFICATION_OUTBOX)
                .where(NOTIFICATION_OUTBOX.c.key == key[:160])
                .values(sent_at=at or utcnow())
            )

    def sent(self, player: str) -> list[tuple[str, str, str]]:
        """(key, kind, instance) of the notifications claimed for ``player``, oldest first."""
        with self.db.connection(write=False) as connection:
            rows = connection.execute(
                select(
                    NOTIFICATION_OUTBOX.c.key,
                    NOTIFICATION_OUTBOX.c.kind,
                    NOTIFICATION_OUTBOX.c.instance,
                )
                .where(NOTIFICATION_OUTBOX.c.player == player)
                .order_by(NOTIFICATION_OUTBOX.c.created_at, NOTIFICATION_OUTBOX.c.key)
            ).all()
        return [(row.key, row.kind, row.instance) for row in rows]
