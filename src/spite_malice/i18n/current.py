"""The language texts are translated into now: a block's, else the process default."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .choice import normalise

_block: ContextVar[str | None] = ContextVar("spite_malice_language", default=None)
_default = "en"


def current_language() -> str:
    """The language of :func:`use_language`'s block, else the default (English at first)."""
    return _block.get() or _default


def set_default_language(language: str) -> None:
    """The language of texts made outside any :func:`use_language` block (the terminal game
    sets it once from the locale or the player's setting). Unknown codes mean English."""
    global _default
    _default = normalise(language) or "en"


@contextmanager
def use_language(language: str | None) -> Iterator[str]:
    """Translate into ``language`` inside the block (None or unknown: the default). A context
    variable: each asyncio task and each block keeps its own, so a message for one seat can be
    made in that seat's language while the other seat's is made in another."""
    chosen = normalise(language) if language else None
    token = _block.set(chosen or current_language())
    try:
        yield _block.get() or _default
    finally:
        _block.reset(token)
