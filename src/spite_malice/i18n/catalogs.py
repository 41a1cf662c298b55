"""The catalogs: one gettext ``.po`` file per language in ``locale/``, read with Babel.

The ``.po`` files are read directly (no compiled ``.mo`` files to go stale); a missing,
empty or fuzzy translation falls back to the English text, so a player never sees a blank.
The tests (tests/i18n) keep every catalog complete, so that fallback is for a catalog being
written, not for a shipped one.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .choice import SUPPORTED

LANGUAGES: tuple[str, ...] = SUPPORTED
"""Every language the game speaks, English first."""
SOURCE_LANGUAGE = "en"
"""The language of the texts in the code; it has no catalog of its own."""
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "it": "Italiano",
    "ru": "Русский",
    "pt": "Português",
    "fr": "Français",
    "nl": "Nederlands",
}
"""Each language's name in itself, for the language setting."""

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "messages"
CONTEXT_SEPARATOR = "\x04"
"""Between a context and its message id in a key (gettext's own separator)."""
_CATEGORIES = ("zero", "one", "two", "few", "many", "other")

Key = tuple[str | None, str]
"""(context, message id); a plural message is keyed by its singular."""


def po_path(language: str) -> Path:
    """Where ``language``'s catalog lives."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@dataclass(frozen=True)
class Catalog:
    """One language's translations, ready for lookups."""

    language: str
    singular: dict[Key, str] = field(default_factory=dict)
    plural: dict[Key, tuple[str, ...]] = field(default_factory=dict)
    page_keys: frozenset[Key] = frozenset()
    """Messages found in the page's scripts: what :func:`page_catalog` sends."""

    def gettext(self, message: str, context: str | None = None) -> str:
        return self.singular.get((context, message), message)

    def ngettext(self, singular: str, plural: str, n: int, context: str | None = None) -> str:
        forms = self.plural.get((context, singular))
        if forms is None:
            return singular if n == 1 else plural
        index = plural_index(self.language, n)
        return forms[min(index, len(forms) - 1)]


@functools.cache
def _rule(language: str) -> Any:
    from babel import Locale

    return Locale.parse(language).plural_form


@functools.cache
def category_forms(language: str) -> dict[str, int]:
    """Which plural form of ``language``'s catalog each CLDR plural category takes ("one",
    "few", "many", "other" ...), in the order Babel writes gettext's ``Plural-Forms``."""
    if language == SOURCE_LANGUAGE:
        return {"one": 0, "other": 1}
    try:
        from babel.messages.plurals import get_plural

        tags = _rule(language).tags | {"other"}
        count = get_plural(language).num_plurals
    except ImportError:
        return {"one": 0, "other": 1}
    ordered = [tag for tag in _CATEGORIES if tag in tags]
    # Russian's "other" (fractions only) shares the last integer form, as gettext's header has it
    return {tag: min(index, count - 1) for index, tag in enumerate(ordered)}


def plural_index(language: str, n: int) -> int:
    """The plural form for ``n`` in ``language`` (Russian: 1 карта, 2 карты, 5 карт)."""
    if language == SOURCE_LANGUAGE:
        return 0 if n == 1 else 1
    try:
        category = _rule(language)(abs(n))
    except ImportError:
        compiled = _compiled(language)
        if compiled is not None:  # where Babel is absent (the page's offline engine)
            table = compiled["plural_index"]
            return int(table[abs(n) if abs(n) < 200 else 100 + abs(n) % 100])
        return 0 if n == 1 else 1
    forms = category_forms(language)
    return forms.get(category, forms["other"])


@functools.cache
def catalog(language: str) -> Catalog:
    """``language``'s catalog (cached for the process); English, or a language whose file is
    missing or Babel absent, is an empty catalog: every text stays as written."""
    path = po_path(language)
    if language == SOURCE_LANGUAGE:
        return Catalog(language)
    if not path.exists():
        return _from_compiled(language)  # the offline engine's archive: compiled catalogs
    try:
        from babel.messages.pofile import read_po
    except ImportError:
        return _from_compiled(language)
    with path.open("rb") as handle:
        po = read_po(handle, locale=language)
    singular: dict[Key, str] = {}
    plural: dict[Key, tuple[str, ...]] = {}
    page: set[Key] = set()
    for message in po:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, (list, tuple)):
            forms = tuple(str(form) for form in message.string or ())
            if not all(forms):
                continue
            key: Key = (message.context, message.id[0])
            plural[key] = forms
        else:
            if not message.string:
                continue
            key = (message.context, message.id)
            singular[key] = str(message.string)
        if any(location.endswith(".js") for location, _ in message.locations):
            page.add(key)
    return Catalog(language, singular, plural, frozenset(page))


def compiled_path(language: str) -> Path:
    """Where a catalog compiled to JSON goes (:func:`compile_catalog`): only in the archive the
    page's offline engine loads, where Babel is absent (``docs/offline.md``)."""
    return po_path(language).with_suffix(".json")


def compile_catalog(language: str) -> dict[str, Any]:
    """``language``'s catalog as JSON, read with Babel: every translation and the plural form
    of each count from 0 to 199 (the rules of our languages repeat every 100 from there)."""
    chosen = catalog(language)
    return {
        "language": language,
        "singular": [[k[0], k[1], text] for k, text in sorted(chosen.singular.items(), key=str)],
        "plural": [
            [k[0], k[1], list(forms)] for k, forms in sorted(chosen.plural.items(), key=str)
        ],
        "plural_index": [plural_index(language, n) for n in range(200)],
    }


@functools.cache
def _compiled(language: str) -> dict[str, Any] | None:
    path = compiled_path(language)
    if not path.is_file():
        return None
    import json

    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _from_compiled(language: str) -> Catalog:
    """The catalog compiled to JSON, where Babel is absent; an empty one without it."""
    data = _compiled(language)
    if data is None:
        return Catalog(language)
    singular = {(c, m): t for c, m, t in data["singular"]}
    plural = {(c, m): tuple(forms) for c, m, forms in data["plural"]}
    return Catalog(language, singular, plural)


def page_catalog(language: str) -> dict[str, Any]:
    """What the browser page needs to speak ``language``, as JSON: the plural forms of each
    CLDR category (the page picks one with ``Intl.PluralRules``) and every translation of a
    text in the page's scripts, keyed by its English text (``context + "\\x04" + text`` when
    it has a context); a plural message's value is the list of its forms."""
    chosen = catalog(language)
    messages: dict[str, str | list[str]] = {}
    for key in sorted(chosen.page_keys, key=lambda k: (k[0] or "", k[1])):
        name = key[1] if key[0] is None else f"{key[0]}{CONTEXT_SEPARATOR}{key[1]}"
        if key in chosen.plural:
            messages[name] = list(chosen.plural[key])
        else:
            messages[name] = chosen.singular[key]
    return {"language": language, "plural": category_forms(language), "messages": messages}
