"""Reading JSON text from callers: every failure is a :class:`~.errors.NotationError`.

``json.loads`` fails in ways that are not ``JSONDecodeError``: text nested thousands deep
raises ``RecursionError``, a number of more than 4,300 digits a plain ``ValueError``, and it
accepts ``NaN`` and ``Infinity``, which are not JSON and which ``json.dumps`` would write back
out. Positions, records and the command line read JSON through :func:`load_json` instead.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import NotationError


class _NotANumber(ValueError):
    """Raised from inside the decoder for ``NaN``, ``Infinity`` and ``-Infinity``."""


def _refuse_constant(name: str) -> Any:
    raise _NotANumber(name)


def load_json(text: str | bytes, kind: str) -> Any:
    """The value of the JSON ``text``; a :class:`NotationError` about a ``kind`` (``"position"``,
    ``"record"`` ...) quoting the text and saying what is wrong when it is not plain JSON."""
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise NotationError(kind, text, f"not JSON: {error}") from None
    except _NotANumber as error:
        raise NotationError(kind, text, f"not JSON: {error} is not a JSON number") from None
    except UnicodeDecodeError:
        raise NotationError(kind, text, "not UTF-8 text") from None
    except RecursionError:
        raise NotationError(kind, text, "nested too deeply") from None
    except ValueError:  # int() refuses a number of more than 4,300 digits
        raise NotationError(kind, text, "a number in it has too many digits") from None


__all__ = ["load_json"]
