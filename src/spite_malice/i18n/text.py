"""The marking functions: translate into the current language, then fill in named fields."""

from __future__ import annotations

from typing import Any

from .catalogs import catalog
from .current import current_language


def _fill(text: str, params: dict[str, Any]) -> str:
    return text.format(**params) if params else text


def gettext(message: str, **params: Any) -> str:
    """``message`` in the current language, its ``{fields}`` filled from ``params``."""
    return _fill(catalog(current_language()).gettext(message), params)


_ = gettext


def pgettext(context: str, message: str, **params: Any) -> str:
    """:func:`gettext` for a short text whose meaning needs a context ("rank", "button" ...)."""
    return _fill(catalog(current_language()).gettext(message, context), params)


def ngettext(singular: str, plural: str, n: int, **params: Any) -> str:
    """The form for ``n`` (``{n}`` is filled with it unless ``params`` says otherwise)."""
    params.setdefault("n", n)
    return _fill(catalog(current_language()).ngettext(singular, plural, n), params)


def npgettext(context: str, singular: str, plural: str, n: int, **params: Any) -> str:
    """:func:`ngettext` with a context."""
    params.setdefault("n", n)
    return _fill(catalog(current_language()).ngettext(singular, plural, n, context), params)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs without translating it: for texts made before the
    language is known (constants, tables); translate them where they are shown, ``_(TEXT)``."""
    return message


def NP_(context: str, message: str) -> str:
    """:func:`N_` with a context: marks ``message`` for ``pgettext(context, message)``."""
    return message
