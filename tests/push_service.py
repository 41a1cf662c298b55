"""A push service of the tests' own (RFC 8030's push resource, on loopback): it takes what
the server posts, checks the VAPID signature (RFC 8292) against the server's public key and
decrypts the payload (RFC 8291, ``aes128gcm``) with the browser's keys it made."""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from spite_malice.notify.endpoints import INSECURE_ENV


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    """One notification the push service took."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Browser:
    """A browser's push subscription: its endpoint on the service and its keys."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives the page."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
        }

    def decrypt(self, received: Received) -> dict[str, Any]:
        """The notification's JSON, decrypted as the browser does."""
        assert received.headers.get("content-encoding") == "aes128gcm", received.headers
        plain = http_ece.decrypt(
            received.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        payload: dict[str, Any] = json.loads(plain)
        return payload


def check_vapid(received: Received, public_key: str, audience: str) -> dict[str, Any]:
    """Check the VAPID header (``vapid t=<JWT>, k=<key>``): signed by ``public_key`` (ES256)
    for ``audience``; the JWT's claims."""
    header = received.headers["authorization"]
    scheme, _, rest = header.partition(" ")
    assert scheme.lower() == "vapid", header
    fields = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert fields["k"] == public_key
    token = fields["t"]
    signed, _, signature = token.rpartition(".")
    raw = unb64url(signature)
    point = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(fields["k"]))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    point.verify(der, signed.encode("ascii"), ec.ECDSA(hashes.SHA256()))  # raises if forged
    claims: dict[str, Any] = json.loads(unb64url(signed.split(".")[1]))
    assert claims["aud"] == audience, claims
    return claims


class PushService:
    """The running service: what it took, per path."""

    def __init__(self, server: ThreadingHTTPServer) -> None:
        self.server = server
        self.received: list[Received] = []
        self.lock = threading.Lock()
        self.status = 201
        """What the service answers (410: the subscription is gone)."""

    @property
    def origin(self) -> str:
        port = self.server.server_address[1]
        return f"http://127.0.0.1:{port}"

    def browser(self, name: str) -> Browser:
        return Browser(f"{self.origin}/push/{name}")

    def taken(self, browser: Browser) -> list[Received]:
        path = browser.endpoint.removeprefix(self.origin)
        with self.lock:
            return [item for item in self.received if item.path == path]


@contextmanager
def push_service() -> Iterator[PushService]:
    """A push service on a free loopback port, for the ``with`` block; the server may post
    to it (plain http on loopback) while it runs (``notify/endpoints.py``'s test flag)."""
    service: PushService

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length)
            headers = {key.lower(): value for key, value in self.headers.items()}
            with service.lock:
                service.received.append(Received(self.path, headers, body))
            self.send_response(service.status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service = PushService(server)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    flag = os.environ.get(INSECURE_ENV)
    os.environ[INSECURE_ENV] = "1"
    try:
        yield service
    finally:
        if flag is None:
            del os.environ[INSECURE_ENV]
        else:
            os.environ[INSECURE_ENV] = flag
        server.shutdown()
        server.server_close()
        thread.join()
