"""The rules page's text, one Markdown file per language, as sections and items.

``engine/rules.md``, beside the engine that cites it, is the English, the one copy of the
rules (README); each translation is ``rules.<lang>.md`` beside it (``rules.it.md``,
``rules.ru.md`` ...), written by that language's translator with the same headings and the
same numbered rules in the same order (tests/tutorial/test_rules_page.py checks it). A
language whose file is missing gets the English. :func:`rules_page` answers in the current
language (the request's, see ``web/language.py``), so ``GET /api/rules`` needs no argument.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from ..i18n import LANGUAGES, SOURCE_LANGUAGE, current_language

RULES_PACKAGE = "spite_malice.engine"
"""The package whose folder holds the rules files (``engine/rules.md`` and its translations)."""

_SECTION = re.compile(r"^## (R\d+) (.+)$")
_ITEM = re.compile(r"^- (R\d+\.\d+) (.+)$")


def rules_file_name(language: str) -> str:
    """The file of ``language``'s rules: ``rules.md`` for English, else ``rules.<lang>.md``."""
    return "rules.md" if language == SOURCE_LANGUAGE else f"rules.{language}.md"


def _file(language: str) -> Traversable:
    return resources.files(RULES_PACKAGE).joinpath(rules_file_name(language))


def rules_language(language: str | None = None) -> str:
    """The language the rules are shown in for ``language`` (default: the current one): that
    language when its file exists, else English."""
    chosen = language or current_language()
    if chosen in LANGUAGES and chosen != SOURCE_LANGUAGE and _file(chosen).is_file():
        return chosen
    return SOURCE_LANGUAGE


@cache
def _markdown(language: str) -> str:
    return _file(language).read_text(encoding="utf-8")


def rules_markdown(language: str | None = None) -> str:
    """The rules as Markdown in ``language`` (default: the current one; English when that
    language has no rules file)."""
    return _markdown(rules_language(language))


def parse_rules(text: str) -> dict[str, Any]:
    """A rules file as ``{"title", "intro", "sections": [{"id", "title", "items": [{"id",
    "text"}]}], "markdown"}`` (``web-protocol.md`` 2.2): ``# `` is the title, ``## R<n> ...``
    a section, ``- R<n>.<m> ...`` a numbered rule (indented lines continue it)."""
    title = ""
    intro: list[str] = []
    sections: list[dict[str, Any]] = []
    item: dict[str, str] | None = None
    for line in text.splitlines():
        if line.startswith("# ") and not title:
            title = line[2:].strip()
            continue
        section = _SECTION.match(line)
        if section:
            sections.append({"id": section[1], "title": section[2].strip(), "items": []})
            item = None
            continue
        found = _ITEM.match(line)
        if found and sections:
            item = {"id": found[1], "text": found[2].strip()}
            sections[-1]["items"].append(item)
        elif line.startswith("  ") and item is not None:
            item["text"] += " " + line.strip()
        elif not sections and line.strip():
            intro.append(line.strip())
    for part in sections:
        for entry in part["items"]:
            entry["text"] = entry["text"].replace("**", "")
    return {"title": title, "intro": " ".join(intro), "sections": sections, "markdown": text}


@cache
def _page(language: str) -> dict[str, Any]:
    return {**parse_rules(_markdown(language)), "language": language}


def rules_page(language: str | None = None) -> dict[str, Any]:
    """The rules page in ``language`` (default: the current one), English when that language
    has no rules file; ``"language"`` says which language the text is in."""
    return _page(rules_language(language))
