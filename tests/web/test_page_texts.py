"""Every text of the browser page goes through the catalogs (issue 15): no script of
``web/static/js`` has a string literal that reads like words for players outside the marking
calls (``_``, ``ngettext``, ``pgettext``, ``N_``, ``NP_``) that Babel extracts, and each
marked text is one Babel really extracts (a plain literal, never a template or a sum)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spite_malice.i18n.catalog_tools import KEYWORDS

JS = Path(__file__).resolve().parents[2] / "src" / "spite_malice" / "web" / "static" / "js"
SCRIPTS = sorted(JS.rglob("*.js"))

WORDS = re.compile(r"[A-Za-z][a-z']*[,;:.!?…]? +[A-Za-z][a-z']*")
"""Two words in a row: what a text for people has, and code's names, classes and ids lack."""
CODE_CONTEXT = re.compile(
    r"(?:\b(?:class(?:Name)?|cls)\s*[:=]\s*(?:[\w.]+\s*\?\s*)?|\bboxShadow\s*[:=]\s*"
    r"|\b(?:querySelector(?:All)?|closest|matches|matchMedia|classList\.\w+|getElementById"
    r"|setAttribute|addEventListener|removeEventListener|Error)(?:\?\.)?\(\s*"
    r"|\bconsole\.\w+\(\s*)$"
)
"""Just before a literal that is code (a class list, a selector, a developer's error)."""
ALLOWED = {
    # the game's own name and the card notation's suits are the same in every language
    "Spite & Malice",
    # the player's own seat in the page's code: shown as _("You") (words.js displayName)
    "You",
    # developers' words: a card the code was given that is not one
    "not a card: ",
}
"""Literals that are no text to translate, each with the reason."""


def literals(source: str) -> list[tuple[int, str, str, str]]:
    """Every string literal of a script: (line, quote, text, the code just before it);
    comments skipped, regular expressions read past (a ``/`` after an operator starts one)."""
    found: list[tuple[int, str, str, str]] = []
    i, line, n = 0, 1, len(source)
    last = ""  # the last significant character, to tell a regex from a division
    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
            i += 1
        elif source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            line += source.count("\n", i, end)
            i = end + 2
        elif c == "/" and (last in REGEX_AFTER or _after_keyword(source, i)):
            i += 1
            in_class = False
            while i < n and (source[i] != "/" or in_class):
                if source[i] == "\\":
                    i += 1
                elif source[i] == "[":
                    in_class = True
                elif source[i] == "]":
                    in_class = False
                i += 1
            i += 1
            while i < n and source[i].isalpha():
                i += 1
            last = "/"
        elif c in "\"'`":
            start, text, j = line, [], i + 1
            while j < n and source[j] != c:
                if source[j] == "\\":
                    text.append(source[j : j + 2])
                    j += 2
                    continue
                if c == "`" and source.startswith("${", j):
                    depth, j = 1, j + 2
                    while j < n and depth:
                        depth += {"{": 1, "}": -1}.get(source[j], 0)
                        j += 1
                    text.append("\x00")  # a placeholder: the template's parts are split there
                    continue
                if source[j] == "\n":
                    line += 1
                text.append(source[j])
                j += 1
            before = source[max(0, i - 400) : i]
            found.append((start, c, "".join(text), before))
            i = j + 1
            last = c
        else:
            if not c.isspace():
                last = c
            i += 1
    return found


REGEX_AFTER = ("", *"(,=:[!&|?{};+-*%<>~^")
"""After these, a ``/`` starts a regular expression, not a division."""


def _after_keyword(source: str, index: int) -> bool:
    before = source[max(0, index - 10) : index]
    return bool(re.search(r"\b(?:return|typeof|case|of|in)\s*$", before))


MARKING = re.compile(r"\b(?:" + "|".join(map(re.escape, KEYWORDS)) + r")\(\s*(?:\"[^\"]*\",\s*)?$")
"""A marking call opening just before a literal (its first or, with a context, second argument)."""


def unmarked(path: Path) -> list[str]:
    """The literals of ``path`` that read like words for players but are not marked."""
    problems = []
    source = path.read_text(encoding="utf-8")
    for line, quote, text, before in literals(source):
        parts = [part.strip() for part in text.split("\x00")]
        if quote == "`" and MARKING.search(before):  # Babel extracts no template literal
            problems.append(f"{path.name}:{line}: a template literal in a marking call: {text!r}")
            continue
        if not any(WORDS.search(part) for part in parts):
            continue
        if text in ALLOWED or any(part in ALLOWED for part in parts if part):
            continue
        if CODE_CONTEXT.search(before):
            continue
        if quote != "`" and MARKING.search(before):
            continue
        if _inside_plural(before):
            continue
        problems.append(f"{path.name}:{line}: {text!r}")
    return problems


def _inside_plural(before: str) -> bool:
    """The plural form of ``ngettext("one", "many", n)``: the singular just before it."""
    return bool(re.search(r"\b(?:n|np)gettext\(\s*(?:\"[^\"]*\",\s*)?\"[^\"]*\",\s*$", before))


def test_the_scanner_finds_unmarked_texts_and_accepts_marked_ones(tmp_path: Path) -> None:
    script = tmp_path / "sample.js"
    script.write_text(
        "// A comment with Words In It is no text.\n"
        'const a = _("Your turn");\n'
        'const b = pgettext("button", "Deal the cards");\n'
        'const c = ngettext("{n} card left", "{n} cards left", n);\n'
        'const d = h("div", { class: "btn btn-primary" }, "Start a match");\n'
        "const e = `Game ${room} is over`;\n"
        "const f = _(`Bad ${x} template`);\n"
        "const g = /^(Ace|eight)$/i.test(word) ? \"an Ace\" : 'a five';\n"
        'const k = document.querySelector(".seat-me .seat-name");\n',
        encoding="utf-8",
    )
    problems = unmarked(script)
    assert problems == [
        "sample.js:5: 'Start a match'",
        "sample.js:6: 'Game \\x00 is over'",
        "sample.js:7: a template literal in a marking call: 'Bad \\x00 template'",
        "sample.js:8: 'an Ace'",
        "sample.js:8: 'a five'",
    ]


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: str(p.relative_to(JS)))
def test_no_script_has_unmarked_player_text(path: Path) -> None:
    assert unmarked(path) == []


def test_the_page_scripts_are_all_scanned() -> None:
    names = {str(path.relative_to(JS)) for path in SCRIPTS}
    assert {"i18n.js", "words.js", "game.js", "pages/settings.js", "pages/lobby.js"} <= names


def test_the_page_texts_are_extracted_into_the_catalogs() -> None:
    """Babel's JavaScript extractor reads the page's marked texts (with their contexts and
    plural forms): what the catalogs, and so GET /api/language/<lang>, will carry."""
    from spite_malice.i18n.catalog_tools import template

    pot = template()
    page = {
        (message.context, message.id if isinstance(message.id, str) else message.id[0])
        for message in pot
        if any(location.endswith(".js") for location, _ in message.locations)
    }
    for key in (
        (None, "Your turn"),
        (None, "Start a match"),
        (None, "You build the {card} from your hand on center stack {n}."),
        (None, "{name} builds the {card} from the hand on center stack {n}, as {value}."),
        (None, "{name} draws {n} card: {cards}."),
        ("speed", "Fast"),
        (None, "Language"),
    ):
        assert key in page, key
    # the rank and card words are the server's, sent with the catalog (i18n/cards.py's
    # page_card_words): no script of the page marks one
    for key in (
        ("card", "{rank} of {suit}"),
        ("rank", "King"),
        ("suit", "hearts"),
        ("value", "an eight"),
    ):
        assert key not in page, key


def test_the_pages_copy_of_the_language_names_is_the_servers() -> None:
    """i18n.js keeps the names for a page that cannot reach the server: the same as
    LANGUAGE_NAMES (which GET /api/language sends), in the same order."""
    from spite_malice.i18n import LANGUAGE_NAMES

    source = (JS / "i18n.js").read_text(encoding="utf-8")
    block = source.split("export const LANGUAGE_NAMES = {", 1)[1].split("};", 1)[0]
    copy = dict(re.findall(r"(\w+): \"([^\"]+)\"", block))
    assert list(copy.items()) == list(LANGUAGE_NAMES.items())
