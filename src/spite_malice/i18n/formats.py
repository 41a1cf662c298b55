"""Numbers and dates as the player's language writes them (1,234.5; 1 234,5; 1.234,5)."""

from __future__ import annotations

import datetime as dt

from .current import current_language


def format_number(value: float, language: str | None = None) -> str:
    """``value`` with the language's digit grouping and decimal sign."""
    try:
        from babel.numbers import format_decimal
    except ImportError:
        return f"{value:,}"
    return str(format_decimal(value, locale=language or current_language()))


def format_percent(fraction: float, language: str | None = None, digits: int = 0) -> str:
    """``fraction`` (0.75) as a percentage in the language's way ("75 %" in French)."""
    try:
        from babel.numbers import format_percent as babel_percent
    except ImportError:
        return f"{fraction:.{digits}%}"
    pattern = "#,##0%" if digits == 0 else "#,##0." + "0" * digits + "%"
    return str(babel_percent(fraction, pattern, locale=language or current_language()))


def format_date(value: dt.date, language: str | None = None, style: str = "medium") -> str:
    """A date ("1 Dec 2026", "1 dic 2026", "1 дек. 2026 г.")."""
    try:
        from babel.dates import format_date as babel_date
    except ImportError:
        return value.isoformat()
    return str(babel_date(value, format=style, locale=language or current_language()))


def format_datetime(value: dt.datetime, language: str | None = None, style: str = "medium") -> str:
    """A date and time, in the value's own time zone."""
    try:
        from babel.dates import format_datetime as babel_datetime
    except ImportError:
        return value.isoformat(sep=" ", timespec="minutes")
    return str(babel_datetime(value, format=style, locale=language or current_language()))
