"""The rules page in each language: one Markdown file per language beside the English
``engine/rules.md``, chosen by the request's language, English when a language has none; and
every translation keeps the English's headings and numbered rules, in the same order, so
that no rule can be lost in translation."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")

from spite_malice import engine  # noqa: E402
from spite_malice.i18n import LANGUAGES, use_language  # noqa: E402
from spite_malice.web import rules_page as module  # noqa: E402
from spite_malice.web.rules_page import (  # noqa: E402
    parse_rules,
    rules_file_name,
    rules_language,
    rules_markdown,
    rules_page,
)

RULES_DIR = Path(engine.__file__).parent  # module.RULES_PACKAGE
ENGLISH = (RULES_DIR / "rules.md").read_text(encoding="utf-8")
_HEADING = re.compile(r"^#+ ")
_RULE_LINE = re.compile(r"^\s*[-*] +\**R\d")


def structure(text: str) -> list[tuple[str, list[str]]]:
    """Each numbered section's id and its numbered rules' ids, in order."""
    page = parse_rules(text)
    return [(s["id"], [item["id"] for item in s["items"]]) for s in page["sections"]]


def structure_problems(text: str, english: str = ENGLISH) -> list[str]:
    """How a translated rules file differs from the English in its structure (empty when it
    has the same title, numbered sections and numbered rules in the same order)."""
    found: list[str] = []
    page = parse_rules(text)
    if not page["title"]:
        found.append("no title (a first line starting '# ')")
    if structure(text) != structure(english):
        found.append(f"sections and rules {structure(text)}, the English {structure(english)}")
    for section in page["sections"]:
        if not section["title"]:
            found.append(f"section {section['id']} has no title")
        for item in section["items"]:
            if not item["text"].strip():
                found.append(f"rule {item['id']} has no text")
    # a heading or a rule the parser does not read (a typo in '## R3' or '- R3.1') is lost
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("## ") and not module._SECTION.match(line):
            found.append(f"line {number}: a heading that is not '## R<n> <title>': {line!r}")
        if _RULE_LINE.match(line) and not module._ITEM.match(line):
            found.append(f"line {number}: a rule that is not '- R<n>.<m> <text>': {line!r}")
    if len([x for x in text.splitlines() if _HEADING.match(x)]) != len(
        [x for x in english.splitlines() if _HEADING.match(x)]
    ):
        found.append("not as many headings as the English")
    return found


TRANSLATED = [x for x in LANGUAGES if x != "en"]


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_translated_rules_file_keeps_every_rule_of_the_english(language: str) -> None:
    path = RULES_DIR / rules_file_name(language)
    if not path.exists():
        pytest.skip(f"no {path.name} yet: {language} players read the English rules")
    assert structure_problems(path.read_text(encoding="utf-8")) == []


def test_the_structure_check_finds_a_lost_reordered_or_mistyped_rule() -> None:
    assert structure_problems(ENGLISH) == []
    lines = ENGLISH.splitlines()
    dropped = "\n".join(line for line in lines if not line.startswith("- R4.2 "))
    assert any("sections and rules" in p for p in structure_problems(dropped))
    swapped = ENGLISH.replace("- R2.1 ", "- R2.X ").replace("- R2.2 ", "- R2.1 ")
    swapped = swapped.replace("- R2.X ", "- R2.2 ")
    assert structure_problems(swapped)
    typo = ENGLISH.replace("- R3.2 ", "- R3,2 ")
    assert any("a rule that is not" in p for p in structure_problems(typo))
    heading = ENGLISH.replace("## R5 The match", "## R 5 The match")
    assert structure_problems(heading)
    untitled = ENGLISH.replace("# Spite & Malice: the rules\n", "")
    assert structure_problems(untitled)


ITALIAN = (
    ENGLISH.replace("# Spite & Malice: the rules", "# Spite & Malice: le regole")
    .replace("## R0 Cards", "## R0 Le carte")
    .replace("- R3.1 Build:", "- R3.1 Costruire:")
)
"""A stand-in Italian rules file (the translator writes the real one)."""


@pytest.fixture
def italian_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Rules files read from ``tmp_path``: the English and an Italian, no other language."""
    (tmp_path / "rules.md").write_text(ENGLISH, encoding="utf-8")
    (tmp_path / "rules.it.md").write_text(ITALIAN, encoding="utf-8")
    monkeypatch.setattr(module, "_file", lambda language: tmp_path / rules_file_name(language))
    module._markdown.cache_clear()
    module._page.cache_clear()
    yield tmp_path
    module._markdown.cache_clear()
    module._page.cache_clear()


def test_the_rules_page_is_the_file_of_the_current_language(italian_only: Path) -> None:
    assert structure_problems(ITALIAN) == []
    with use_language("it"):
        page = rules_page()
        assert rules_markdown() == ITALIAN
    assert page["language"] == "it" and page["title"] == "Spite & Malice: le regole"
    assert page["sections"][0]["title"] == "Le carte"
    items = {item["id"]: item["text"] for s in page["sections"] for item in s["items"]}
    assert items["R3.1"].startswith("Costruire:")
    english = rules_page()
    assert english["language"] == "en" and english["title"] == "Spite & Malice: the rules"
    assert rules_page("it") == page


def test_a_language_without_a_rules_file_reads_the_english(italian_only: Path) -> None:
    with use_language("ru"):
        page = rules_page()
    assert page["language"] == "en" and page["markdown"] == ENGLISH
    assert rules_language("ru") == "en" and rules_language("xx") == "en"
    assert rules_language("it") == "it"


def test_the_shipped_rules_are_english_by_default() -> None:
    page: dict[str, Any] = rules_page("en")
    assert page["language"] == "en" and page["markdown"] == ENGLISH
    assert [s["id"] for s in page["sections"]] == ["R0", "R1", "R2", "R3", "R4", "R5", "R6"]


def test_get_api_rules_answers_in_the_requests_language(italian_only: Path, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from spite_malice.web import create_app

    with TestClient(create_app(str(tmp_path / "web.db"))) as client:
        italian = client.get("/api/rules", headers={"Accept-Language": "it-IT,it;q=0.9"})
        russian = client.get("/api/rules", headers={"Accept-Language": "ru"})
        plain = client.get("/api/rules")
    assert italian.status_code == 200
    assert italian.json()["language"] == "it" and italian.json()["markdown"] == ITALIAN
    assert russian.json()["language"] == "en" and russian.json()["markdown"] == ENGLISH
    assert plain.json()["title"] == "Spite & Malice: the rules"


def test_the_rules_files_lie_beside_the_engine() -> None:
    """The rules players read are the engine's: ``engine/rules.md`` and its translations."""
    assert engine.__name__ == module.RULES_PACKAGE
    assert {rules_file_name(language) for language in LANGUAGES} <= {
        path.name for path in RULES_DIR.glob("rules*.md")
    }
