"""The rules page's text (``rules.md`` next to this module) as sections and items."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Any

_SECTION = re.compile(r"^## (R\d+) (.+)$")
_ITEM = re.compile(r"^- (R\d+\.\d+) (.+)$")


@cache
def rules_markdown() -> str:
    return resources.files(__package__).joinpath("rules.md").read_text(encoding="utf-8")


@cache
def rules_page() -> dict[str, Any]:
    """``{"title", "intro", "sections": [{"id", "title", "items": [{"id", "text"}]}],
    "markdown"}`` (``web-protocol.md`` 2.2)."""
    text = rules_markdown()
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
