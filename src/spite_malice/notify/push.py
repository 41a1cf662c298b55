"""Web Push (RFC 8030, with VAPID, RFC 8292, and the payload encrypted, RFC 8291) through
``pywebpush`` and ``py-vapid``: the server's key and the sending of one notification."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from .endpoints import internal_endpoint

PUSH_TIMEOUT = 10.0
"""Seconds a push service has to take a notification."""
PUSH_TTL = 7 * 24 * 3600
"""How long a push service keeps a notification for a browser that is offline (a week)."""
GONE = frozenset({404, 410})
"""A push service's answers meaning the subscription is no more (forget it)."""


class PushGone(Exception):
    """The push service says this subscription is gone: the browser unsubscribed."""


class PushFailed(Exception):
    """The push service could not be reached or refused the notification."""


def new_private_key() -> str:
    """A new VAPID private key (P-256), as PEM text, for the store."""
    vapid = Vapid()
    vapid.generate_keys()
    return str(vapid.private_pem().decode("ascii"))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class PushKeys:
    """The server's VAPID key: signs every notification, and its public half is the
    ``applicationServerKey`` the page subscribes with."""

    private_pem: str
    subject: str
    """The contact in every notification's VAPID claims (``mailto:`` or ``https:``)."""

    def vapid(self) -> Vapid:
        return Vapid.from_pem(self.private_pem.encode("ascii"))

    @property
    def public_key(self) -> str:
        """The public key as the Push API takes it: the uncompressed point, base64url."""
        raw = self.vapid().public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(raw)


def encode(payload: dict[str, Any]) -> str:
    """The text of a notification's payload as sent (JSON; the push event's ``data`` in the
    service worker, ``static/sw.js``, once the browser decrypts it)."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def send(
    keys: PushKeys,
    endpoint: str,
    p256dh: str,
    auth: str,
    payload: dict[str, Any],
    *,
    timeout: float = PUSH_TIMEOUT,
) -> int:
    """Send ``payload`` (JSON, encrypted for the browser) to one subscription and return
    the push service's status. Blocking: call it off the event loop. :class:`PushGone` when
    the subscription is gone (or its host is now on this server's own network:
    ``endpoints.py``), :class:`PushFailed` on any other failure."""
    if internal_endpoint(endpoint):
        raise PushGone(endpoint)
    try:
        answer = webpush(
            {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
            data=encode(payload),
            vapid_private_key=keys.vapid(),
            vapid_claims={"sub": keys.subject},
            content_encoding="aes128gcm",
            timeout=timeout,
            ttl=PUSH_TTL,
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE:
            raise PushGone(endpoint) from error
        raise PushFailed(f"the push service refused the notification: {status}") from error
    except (OSError, ValueError) as error:  # unreachable, a bad key in the subscription
        raise PushFailed(f"the push service could not be reached: {error}") from error
    status = int(getattr(answer, "status_code", 201))
    return status
