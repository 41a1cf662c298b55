"""The terminal game's language: the player's setting, else the terminal's locale.

The choice is made once at the start (:func:`choose_language`) and applied with
:func:`~spite_malice.i18n.set_default_language` before the first screen; every text of the
terminal is translated where it is shown, so changing the language redraws in the new one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Protocol

from textual.dom import DOMNode

from ..i18n import (
    LANGUAGES,
    _,
    catalog,
    current_language,
    from_environment,
    normalise,
    set_default_language,
)
from ..store import StoreError


class LanguageStore(Protocol):
    """Where the player's language setting is kept (:class:`~.persistence.Persistence`)."""

    def language(self) -> str | None: ...


def choose_language(store: LanguageStore, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: the player's saved setting when it is one we speak, else the
    locale's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English."""
    try:
        saved = normalise(store.language())
    except StoreError:  # the store is down: the locale still says which language
        saved = None
    return saved or from_environment(environ)


def apply_language(language: str) -> str:
    """Make ``language`` the one every terminal text is translated into; returns it."""
    chosen = normalise(language) or "en"
    set_default_language(chosen)
    return chosen


def next_language(language: str) -> str:
    """The language after ``language`` in the list the settings cycle through."""
    index = LANGUAGES.index(language) if language in LANGUAGES else -1
    return LANGUAGES[(index + 1) % len(LANGUAGES)]


KEY_BAR = "key bar"
"""The context of a key bar word that needs a shorter form than the same word elsewhere
(``NP_("key bar", "Undo")``: Italian's "Annulla mossa" leaves no room on 80 columns)."""


def _key_bar_word(description: str) -> str:
    shorter = catalog(current_language()).singular.get((KEY_BAR, description))
    return shorter if shorter else _(description)


def translate_bindings(node: DOMNode) -> None:
    """Translate the key bar's descriptions of ``node``'s bindings (marked with ``N_``, or
    ``NP_("key bar", ...)``, in its ``BINDINGS``) into the current language. Textual copies a
    class's bindings into each instance, so each screen made after a language change shows
    the new words."""
    bindings = node._bindings  # Textual's per-instance copy of the class's bindings
    bindings.key_to_bindings = {
        key: [
            replace(binding, description=_key_bar_word(binding.description))
            if binding.description
            else binding
            for binding in group
        ]
        for key, group in bindings.key_to_bindings.items()
    }
