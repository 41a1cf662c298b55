"""Extract, update and check the catalogs with Babel (docs/translating.md).

    python -m spite_malice.i18n.catalog_tools update [LANG ...]   # new texts into the catalogs
    python -m spite_malice.i18n.catalog_tools check               # what is missing or wrong
    python -m spite_malice.i18n.catalog_tools stats               # translated / total per language

``update`` extracts every marked text of the code and the page's scripts (``babel.cfg``, the
keywords below), then merges them into each language's ``.po``: new texts come in empty (no
fuzzy guesses), texts gone from the code are dropped. ``check`` is what the tests run: every
extracted text translated in every catalog, nothing fuzzy, the same ``{fields}`` as the
English, the plural forms of the language, and a catalog Babel compiles.
"""

from __future__ import annotations

import io
import string
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .catalogs import LANGUAGES, SOURCE_LANGUAGE, po_path

ROOT = Path(__file__).resolve().parents[3]
"""The repository (the catalogs are extracted from its sources, not from an installed copy)."""
CONFIG = ROOT / "babel.cfg"
KEYWORDS: dict[str, Any] = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "N_": None,
    "NP_": ((1, "c"), 2),
}
"""The marking functions of :mod:`spite_malice.i18n.text` and of the page's ``i18n.js``."""
COMMENT_TAGS = ("TRANSLATORS:",)
"""A comment starting so, just above a marked text, goes to the translators with it."""
HEADER = "Spite & Malice: what players read. Translations of the spite-malice developers."


def template() -> Any:
    """Every marked text of the sources, as a Babel catalog (a ``.pot`` in memory)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with CONFIG.open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(  # type: ignore[no-untyped-call]
            handle, filename=str(CONFIG)
        )
    pot = Catalog(project="spite-malice", header_comment=f"# {HEADER}", fuzzy=False)
    found = extract_from_dir(
        ROOT,
        method_map,
        options_map,
        keywords=KEYWORDS,
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
    )
    for filename, lineno, message, comments, context in found:
        pot.add(
            message,
            None,
            [(Path(filename).as_posix(), lineno)],
            auto_comments=comments,
            context=context,
        )
    return pot


def _read(language: str) -> Any:
    from babel.messages.pofile import read_po

    with po_path(language).open("rb") as handle:
        return read_po(handle, locale=language)


def _write(language: str, catalog: Any) -> None:
    from babel.messages.pofile import write_po

    path = po_path(language)
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, sort_output=False, ignore_obsolete=True)
    path.write_bytes(buffer.getvalue())


def update(languages: Iterable[str] = ()) -> dict[str, int]:
    """Merge the sources' texts into each catalog (all languages but English when none are
    named); creates a missing catalog. Returns each language's untranslated count."""
    from babel.messages.catalog import Catalog

    pot = template()
    result = {}
    for language in list(languages) or [x for x in LANGUAGES if x != SOURCE_LANGUAGE]:
        if language == SOURCE_LANGUAGE or language not in LANGUAGES:
            raise SystemExit(f"no catalog for {language!r}: one of {', '.join(LANGUAGES[1:])}")
        if po_path(language).exists():
            catalog = _read(language)
        else:
            catalog = Catalog(locale=language, project="spite-malice", fuzzy=False)
            catalog.header_comment = f"# {HEADER}"
        catalog.update(pot, no_fuzzy_matching=True, update_creation_date=False)
        catalog.fuzzy = False
        _write(language, catalog)
        result[language] = sum(1 for m in catalog if m.id and not _translated(m))
    return result


def _translated(message: Any) -> bool:
    if isinstance(message.string, (list, tuple)):
        return all(message.string)
    return bool(message.string)


_FIELDS = string.Formatter()


def fields(text: str) -> set[str]:
    """The ``{fields}`` of a text (``{n}``, ``{name}``)."""
    try:
        return {name for _, name, _, _ in _FIELDS.parse(text) if name is not None}
    except ValueError:
        return {"<unbalanced braces>"}


def problems(language: str, pot: Any | None = None) -> list[str]:
    """Everything wrong with ``language``'s catalog against the sources, as sentences."""
    from babel.messages.mofile import write_mo
    from babel.messages.plurals import get_plural

    path = po_path(language)
    if not path.exists():
        return [f"{language}: there is no catalog at {path}"]
    pot = template() if pot is None else pot
    catalog = _read(language)
    found: list[str] = []
    expected = get_plural(language)
    if catalog.num_plurals != expected.num_plurals:
        found.append(
            f"{language}: {catalog.num_plurals} plural forms in the header, "
            f"the language has {expected.num_plurals}"
        )
    for message in pot:
        if not message.id:
            continue
        where = ", ".join(f"{f}:{n}" for f, n in message.locations[:2])
        entry = catalog.get(message.id, message.context)
        label = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
        if entry is None:
            found.append(f"{language}: missing {label!r} ({where})")
            continue
        if entry.fuzzy:
            found.append(f"{language}: fuzzy {label!r} ({where})")
        if not _translated(entry):
            found.append(f"{language}: untranslated {label!r} ({where})")
            continue
        ids = list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]
        strings = list(entry.string) if isinstance(entry.string, (list, tuple)) else [entry.string]
        want = set().union(*(fields(i) for i in ids))
        if isinstance(message.id, (list, tuple)):
            if len(strings) != expected.num_plurals:
                found.append(f"{language}: {label!r} has {len(strings)} plural forms")
            want.discard("n")  # a form may spell the number out ("один"), not print it
        for text in strings:
            got = fields(text) - {"n"} if isinstance(message.id, (list, tuple)) else fields(text)
            if got != want:
                found.append(
                    f"{language}: {label!r} has fields {sorted(got)}, the English {sorted(want)}"
                )
                break
    for message in catalog:
        if message.id and message.fuzzy and pot.get(message.id, message.context) is None:
            found.append(f"{language}: fuzzy entry {message.id!r} not in the sources")
    try:
        write_mo(io.BytesIO(), catalog)
    except Exception as error:
        found.append(f"{language}: Babel cannot compile the catalog: {error}")
    for message, errors in catalog.check():
        for wrong in errors:
            found.append(f"{language}: {message.id!r}: {wrong}")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args.pop(0) if args else "check"
    if command == "update":
        for language, missing in update(args).items():
            print(f"{language}: {missing} texts to translate ({po_path(language)})")
        return 0
    if command in ("check", "stats"):
        pot = template()
        total = sum(1 for m in pot if m.id)
        bad = 0
        for language in args or [x for x in LANGUAGES if x != SOURCE_LANGUAGE]:
            found = problems(language, pot)
            bad += len(found)
            if command == "check":
                for line in found:
                    print(line)
            print(f"{language}: {len(found)} problems, {total} texts in the sources")
        return 1 if bad and command == "check" else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
