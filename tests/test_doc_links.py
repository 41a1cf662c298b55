"""The README and the docs point only at files that exist: every relative Markdown link in
README.md, docs/*.md and docs/measurements/*.md resolves to a file or folder of the
repository, and every ``benchmarks/<script>.py`` they name as a command is there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
DOCS = REPOSITORY / "docs"
DOCUMENTS = sorted(
    [REPOSITORY / "README.md", *DOCS.glob("*.md"), *(DOCS / "measurements").glob("*.md")]
)
# [text](target) or [text](target "title"); images too
LINK = re.compile(r"\[[^\]]*\]\(\s*([^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
SCRIPT = re.compile(r"\bbenchmarks/([a-z_]+\.py)\b")


def _links(text: str) -> list[str]:
    text = FENCE.sub("", text)  # a link inside a code block is not a link
    return [target for target in LINK.findall(text) if not re.match(r"[a-z]+:", target)]


def test_the_link_pattern_reads_links() -> None:
    """The check itself finds the links it is meant to: a broken one is not missed."""
    text = (
        'see [a](docs/a.md#x), [b](b.md "B"), [web](https://x.org), [here](#y) and\n'
        "```\n[c](c.md)\n```\n"
    )
    assert _links(text) == ["docs/a.md#x", "b.md", "#y"]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(REPOSITORY)))
def test_every_relative_link_resolves(document: Path) -> None:
    missing = []
    for target in _links(document.read_text(encoding="utf-8")):
        path = target.split("#", 1)[0]
        if not path:
            continue  # an anchor in the same document
        if not (document.parent / path).exists():
            missing.append(target)
    assert not missing, f"{document.relative_to(REPOSITORY)} links to missing files: {missing}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(REPOSITORY)))
def test_every_benchmark_script_named_exists(document: Path) -> None:
    named = set(SCRIPT.findall(document.read_text(encoding="utf-8")))
    missing = sorted(name for name in named if not (REPOSITORY / "benchmarks" / name).is_file())
    assert not missing, f"{document.relative_to(REPOSITORY)} names missing scripts: {missing}"
