"""What players read, in their language: English, Italian, Russian, Portuguese, French, Dutch.

Texts are written in English in the code and marked for translation; the translations are
gettext catalogs (``locale/<lang>/LC_MESSAGES/messages.po``), extracted, updated and checked
with Babel (docs/translating.md). The browser page gets its strings from the same catalogs as
JSON (:func:`page_catalog`): there is no second translation system.

Marking texts (the keywords Babel extracts, see ``babel.cfg``)::

    from spite_malice.i18n import _, ngettext, pgettext, N_

    _("Your turn")
    _("{name} joined the game.", name=friend)          # named fields, str.format style
    ngettext("{n} card", "{n} cards", count)             # n is passed as {n} unless given
    pgettext("rank", "King")                             # a context for short, ambiguous words
    REASON = N_("The game is over.")                     # marked now, translated at use: _(REASON)
    ACE = NP_("rank", "Ace")                             # with a context: pgettext("rank", ACE)

Which language: :func:`use_language` for a block (a request, a message for one seat; it is a
context variable, so asyncio tasks keep their own), else the process default
(:func:`set_default_language`, the terminal's), else English. :func:`negotiate` reads an
``Accept-Language`` header and :func:`from_environment` the terminal's locale.

Babel is needed to read the catalogs and format numbers and dates; without it (the engine or
bots installed alone) every text stays English. Code and log messages for developers stay in
English and are not marked.
"""

from __future__ import annotations

from .catalogs import (
    LANGUAGE_NAMES,
    LANGUAGES,
    SOURCE_LANGUAGE,
    Catalog,
    catalog,
    page_catalog,
    plural_index,
)
from .choice import from_environment, negotiate, normalise
from .current import current_language, set_default_language, use_language
from .formats import format_date, format_datetime, format_number, format_percent
from .text import N_, NP_, _, gettext, ngettext, npgettext, pgettext

__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "NP_",
    "N_",
    "SOURCE_LANGUAGE",
    "Catalog",
    "_",
    "catalog",
    "current_language",
    "format_date",
    "format_datetime",
    "format_number",
    "format_percent",
    "from_environment",
    "gettext",
    "negotiate",
    "ngettext",
    "normalise",
    "npgettext",
    "page_catalog",
    "pgettext",
    "plural_index",
    "set_default_language",
    "use_language",
]
