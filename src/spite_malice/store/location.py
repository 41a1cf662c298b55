"""Where the database lives: a URL from an argument or the environment, else a per-user file."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

DB_ENV = "SPITE_MALICE_DB"
"""Environment variable naming the database (a path or a URL); it wins over ``DATABASE_URL``."""
URL_ENV = "DATABASE_URL"
"""The conventional environment variable for a database URL."""
FILE_NAME = "spite-malice.db"


def default_path() -> Path:
    """The per-user SQLite file: ``$XDG_DATA_HOME/spite-malice/spite-malice.db``
    (``~/.local/share/...`` when ``XDG_DATA_HOME`` is unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "spite-malice" / FILE_NAME


def resolve_url(target: str | os.PathLike[str] | None = None) -> str:
    """The SQLAlchemy URL of the database to use.

    ``target`` (a path or a URL) wins; then ``$SPITE_MALICE_DB``, then ``$DATABASE_URL``,
    then :func:`default_path`. A plain path becomes an SQLite URL; ``postgresql://`` and
    ``postgres://`` become ``postgresql+psycopg://`` (the driver this project installs).
    """
    chosen = target if target is not None else os.environ.get(DB_ENV) or os.environ.get(URL_ENV)
    if chosen is None or str(chosen) == "":
        return sqlite_url(default_path())
    text = os.fspath(chosen)
    if "://" not in text:
        return sqlite_url(Path(text))
    for prefix in ("postgresql://", "postgres://"):
        if text.startswith(prefix):
            return "postgresql+psycopg://" + text[len(prefix) :]
    return text


def sqlite_url(path: Path) -> str:
    return "sqlite:///" + str(path.expanduser().resolve())


def describe(url: str) -> str:
    """A printable place for ``url``: the file of an SQLite database, else the URL with any
    password hidden."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return parsed.database or ":memory:"
    return parsed.render_as_string(hide_password=True)


def prepare(url: str) -> None:
    """Create the folder of an SQLite file when it does not exist yet."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)


def connect_args(url: str) -> dict[str, Any]:
    """psycopg's connection keywords for an SQLAlchemy PostgreSQL URL (``options=`` and the
    like kept): for the connections a server opens beside the store's pool (the fan-out's
    listening one, the group commits')."""
    parsed = make_url(url)
    args: dict[str, Any] = parsed.translate_connect_args(username="user", database="dbname")
    for key, value in parsed.query.items():
        args[key] = value if isinstance(value, str) else value[-1]
    return args
