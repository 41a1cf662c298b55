"""Which language a player gets: a code, an ``Accept-Language`` header, the terminal's locale."""

from __future__ import annotations

import os
from collections.abc import Mapping

SUPPORTED = ("en", "it", "ru", "pt", "fr", "nl")


def normalise(code: str | None) -> str | None:
    """The supported language of ``code`` ("pt-BR", "it_IT.UTF-8", "RU" ...), or None."""
    if not code:
        return None
    primary = code.strip().replace("_", "-").split(".")[0].split("@")[0].split("-")[0].lower()
    return primary if primary in SUPPORTED else None


def negotiate(header: str | None, default: str = "en") -> str:
    """The supported language a browser prefers most, from its ``Accept-Language`` header
    (``"fr-CH, fr;q=0.9, en;q=0.8"``); ``default`` when it names none we have. A malformed
    header is read as far as it makes sense, never refused."""
    best: tuple[float, int, str] | None = None
    for position, part in enumerate((header or "").split(",")[:32]):
        fields = part.strip().split(";")
        language = normalise(fields[0])
        if language is None:
            continue
        quality = 1.0
        for field in fields[1:]:
            name, _, value = field.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if not 0.0 < quality <= 1.0:
            continue
        key = (-quality, position, language)
        if best is None or key < best:
            best = key
    return best[2] if best is not None else default


def from_environment(environ: Mapping[str, str] | None = None, default: str = "en") -> str:
    """The terminal's language, as gettext looks it up: ``LANGUAGE`` (a colon-separated list),
    then ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``; "C" and "POSIX" are English."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        if name != "LANGUAGE" and value.split(".")[0] in ("C", "POSIX"):
            return default
        for code in value.split(":"):
            language = normalise(code)
            if language is not None:
                return language
    return default
