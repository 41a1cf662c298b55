"""A scan of the terminal game's code: every sentence a player reads is marked for translation
(docs/translating.md), so the catalogs get it and no English is left on a translated screen."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import spite_malice.tui
from sources import parse_file

TUI = Path(spite_malice.tui.__file__).parent
MARKS = {"_", "N_", "NP_", "gettext", "ngettext", "pgettext", "npgettext"}
"""The marking calls Babel extracts (the Makefile's BABEL_KEYWORDS)."""
SENTENCE = re.compile(r"[A-Za-z]{2,}[,;:]? +[A-Za-z]{2,}|^[A-Z][a-z]+[.!?]$")
"""Two words with a space between them, or one capitalised word ending a sentence."""
STYLE_WORDS = {"bold", "reverse", "italic", "dim", "underline", "on", "not"}
"""Rich style strings ("bold reverse") are no sentences."""
ALLOWED = {
    "Spite & Malice",  # the game's name, the same in every language (the app's title)
    " Spite & Malice ",  # the status bar's title chip
    "key bar",  # a catalog context (language.KEY_BAR), not a text
}


def _looks_like_words(text: str) -> bool:
    if not SENTENCE.search(text):
        return False
    return not set(re.findall(r"[a-z]+", text.lower())) <= STYLE_WORDS


def _unmarked(path: Path) -> list[str]:
    """The sentence-like string literals of ``path`` outside marking calls and docstrings."""
    tree = parse_file(path)
    skip: set[int] = set()
    for node in ast.walk(tree):
        marking = (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKS
        )
        if marking:
            skip.update(id(inner) for inner in ast.walk(node))
        elif isinstance(node, ast.Raise):
            skip.update(id(inner) for inner in ast.walk(node))  # errors for developers
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))  # a docstring, of a module, a class, a function or a name
        elif isinstance(node, ast.JoinedStr):
            skip.update(id(part) for part in node.values)  # judged with their f-string
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if text in ALLOWED or ("{" in text and "}" in text and ";" in text):
                continue  # the game's name; CSS blocks
            if _looks_like_words(text):
                found.append(f"{path.name}:{node.lineno}: {text!r}")
        elif isinstance(node, ast.JoinedStr):
            literal = "".join(
                part.value
                for part in node.values
                if isinstance(part, ast.Constant) and isinstance(part.value, str)
            )
            if _looks_like_words(literal):
                found.append(f"{path.name}:{node.lineno}: f-string {literal!r}")
    return found


def test_the_terminal_has_no_unmarked_sentences() -> None:
    found = [line for path in sorted(TUI.rglob("*.py")) for line in _unmarked(path)]
    assert found == []


def test_the_scan_finds_an_unmarked_sentence(tmp_path: Path) -> None:
    """The scan itself: plain and f-string sentences are found, marked ones are not."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from spite_malice.i18n import _\n"
        "def f(n: int) -> list[str]:\n"
        '    """A docstring is for developers."""\n'
        '    return ["Your turn now", f"{n} cards left", _("Marked text"), "bold reverse",\n'
        '            "hand-0", "Good."]\n'
        '    raise ValueError("a developer reads this")\n',
        encoding="utf-8",
    )
    assert sorted(line.split(": ", 1)[1] for line in _unmarked(sample)) == [
        "'Good.'",
        "'Your turn now'",
        "f-string ' cards left'",
    ]
