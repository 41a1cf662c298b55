"""What is wrong with a request or a page message, in plain sentences in the reader's language.

pydantic checks the shape of every request body and page message; its own explanations are
English fragments ("Input should be a valid integer"). Here each kind of problem it reports
becomes one translated sentence that names the field; a rules object is checked option by
option before the engine reads it (:func:`rules_problem`, from ``table.words``, which the
replay of a record file uses too), so that nobody is told in English what a rules option
must be (``web-protocol.md`` 4.5).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pydantic_core import ErrorDetails

from ..engine.errors import quote
from ..i18n import N_, _, format_number, ngettext
from ..names import describe_name_problem
from ..table.words import rules_problem

NAME_ERROR = "player_name"
"""The pydantic error type of a name that ``names.name_problem`` refuses (``settings.PlayerId``
raises it); its context's ``problem`` says which problem."""
MAX_FIELDS = 3
"""Fields named in one message: the first few are enough to mend a request."""

MISSING = N_("The field {field} is missing.")
UNEXPECTED = N_("The field {field} is not expected here.")
NOT_TEXT = N_("The field {field} must be text.")
NOT_NUMBER = N_("The field {field} must be a whole number.")
NOT_NUMBER_OR_TEXT = N_("The field {field} must be a whole number or text.")
NOT_BOOLEAN = N_("The field {field} must be true or false.")
NOT_OBJECT = N_("The field {field} must be a JSON object.")
NOT_LIST = N_("The field {field} must be a list.")
# TRANSLATORS: {choices} lists the values allowed, as they are written in the request
NOT_CHOICE = N_("The field {field} must be one of: {choices}.")
EMPTY = N_("The field {field} must not be empty.")
AT_LEAST = N_("The field {field} must be at least {limit}.")
MORE_THAN = N_("The field {field} must be more than {limit}.")
AT_MOST = N_("The field {field} must be at most {limit}.")
LESS_THAN = N_("The field {field} must be less than {limit}.")
NOT_VALID = N_("The field {field} is not valid.")

_SIMPLE = {
    "missing": MISSING,
    "extra_forbidden": UNEXPECTED,
    "string_type": NOT_TEXT,
    "string_unicode": NOT_TEXT,
    "int_type": NOT_NUMBER,
    "int_parsing": NOT_NUMBER,
    "int_from_float": NOT_NUMBER,
    "bool_type": NOT_BOOLEAN,
    "bool_parsing": NOT_BOOLEAN,
    "dict_type": NOT_OBJECT,
    "model_type": NOT_OBJECT,
    "model_attributes_type": NOT_OBJECT,
    "list_type": NOT_LIST,
}
"""pydantic's error types that need nothing but the field's name."""
_LIMITS = {
    "greater_than_equal": (AT_LEAST, "ge"),
    "greater_than": (MORE_THAN, "gt"),
    "less_than_equal": (AT_MOST, "le"),
    "less_than": (LESS_THAN, "lt"),
}
"""pydantic's error types about a number's bounds: the sentence and the bound's key."""
_NUMBER_OR_TEXT = frozenset({"int_type", "string_type"})
"""The problems of a value that is neither alternative of ``int | str`` (a message id)."""


def describe(errors: Sequence[ErrorDetails], skip: int, whole: str) -> list[str]:
    """One sentence for each field with a problem (the first :data:`MAX_FIELDS`).

    ``skip`` is how many parts of each location come before the field's name (FastAPI's
    ``body``, the message type of a page message); ``whole`` is said of a problem with the
    whole body or message rather than one field."""
    fields: dict[str, list[ErrorDetails]] = {}
    for item in errors:
        loc = item.get("loc", ())
        name = str(loc[skip]) if len(loc) > skip else ""
        fields.setdefault(name, []).append(item)
    return [_sentence(name, items, whole) for name, items in list(fields.items())[:MAX_FIELDS]]


def _sentence(name: str, items: list[ErrorDetails], whole: str) -> str:
    if not name:
        return whole
    field = quote(name)
    kinds = {item["type"] for item in items}
    if len(items) > 1:  # each alternative of a union refused the value
        if kinds == _NUMBER_OR_TEXT:
            return _(NOT_NUMBER_OR_TEXT, field=field)
        return _(NOT_VALID, field=field)
    item = items[0]
    kind = item["type"]
    context: dict[str, Any] = dict(item.get("ctx") or {})
    if kind in _SIMPLE:
        return _(_SIMPLE[kind], field=field)
    if kind == NAME_ERROR:
        return describe_name_problem(str(context.get("problem", "")), field)
    if kind == "literal_error":
        choices = re.findall(r"'([^']*)'", str(context.get("expected", "")))
        return _(NOT_CHOICE, field=field, choices=", ".join(choices))
    if kind == "string_too_short":
        least = int(context.get("min_length", 1))
        if least <= 1:
            return _(EMPTY, field=field)
        return ngettext(
            "The field {field} must have at least {n} character.",
            "The field {field} must have at least {n} characters.",
            least,
            field=field,
        )
    if kind == "string_too_long":
        most = int(context.get("max_length", 0))
        return ngettext(
            "The field {field} must have at most {n} character.",
            "The field {field} must have at most {n} characters.",
            most,
            field=field,
        )
    if kind in _LIMITS:
        sentence, key = _LIMITS[kind]
        return _(sentence, field=field, limit=format_number(context.get(key, 0)))
    return _(NOT_VALID, field=field)


__all__ = ["MAX_FIELDS", "NAME_ERROR", "describe", "rules_problem"]
