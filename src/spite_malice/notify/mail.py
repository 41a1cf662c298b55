"""E-mail through the SMTP server the operator configured (``docs/deploying.md``, "The
daily e-mail"), with the standard library's ``smtplib``: off unless
``SPITE_MALICE_SMTP_HOST`` is set."""

from __future__ import annotations

import os
import smtplib
from dataclasses import dataclass
from email.message import EmailMessage

HOST_ENV = "SPITE_MALICE_SMTP_HOST"
PORT_ENV = "SPITE_MALICE_SMTP_PORT"
USER_ENV = "SPITE_MALICE_SMTP_USER"
PASSWORD_ENV = "SPITE_MALICE_SMTP_PASSWORD"
FROM_ENV = "SPITE_MALICE_SMTP_FROM"
SECURITY_ENV = "SPITE_MALICE_SMTP_SECURITY"
"""``starttls`` (the default), ``tls`` (SMTPS) or ``none`` (a relay on the same host)."""
PUBLIC_URL_ENV = "SPITE_MALICE_PUBLIC_URL"
"""The site's address as players reach it (the confirmation link's start)."""
SMTP_TIMEOUT = 20.0


class MailFailed(Exception):
    """The SMTP server could not be reached or refused the message."""


@dataclass(frozen=True)
class MailSettings:
    host: str
    port: int
    sender: str
    public_url: str
    user: str | None = None
    password: str | None = None
    security: str = "starttls"

    @classmethod
    def from_environment(cls) -> MailSettings | None:
        """The operator's settings; None when e-mail is off (no SMTP host)."""
        host = os.environ.get(HOST_ENV)
        if not host:
            return None
        security = os.environ.get(SECURITY_ENV, "starttls")
        default_port = {"tls": 465, "none": 25}.get(security, 587)
        try:
            port = int(os.environ.get(PORT_ENV) or default_port)
        except ValueError:
            port = default_port
        return cls(
            host=host,
            port=port,
            sender=os.environ.get(FROM_ENV) or f"spite-malice@{host}",
            public_url=(os.environ.get(PUBLIC_URL_ENV) or "http://localhost:8000").rstrip("/"),
            user=os.environ.get(USER_ENV) or None,
            password=os.environ.get(PASSWORD_ENV) or None,
            security=security,
        )


def send(settings: MailSettings, to: str, subject: str, body: str) -> None:
    """Send one plain-text message (blocking: call it off the event loop)."""
    message = EmailMessage()
    message["From"] = settings.sender
    message["To"] = to
    message["Subject"] = subject
    message.set_content(body)
    try:
        if settings.security == "tls":
            client: smtplib.SMTP = smtplib.SMTP_SSL(
                settings.host, settings.port, timeout=SMTP_TIMEOUT
            )
        else:
            client = smtplib.SMTP(settings.host, settings.port, timeout=SMTP_TIMEOUT)
        with client:
            if settings.security == "starttls":
                client.starttls()
            if settings.user and settings.password:
                client.login(settings.user, settings.password)
            client.send_message(message)
    except (OSError, smtplib.SMTPException) as error:
        raise MailFailed(f"the SMTP server {settings.host} failed: {error}") from error
