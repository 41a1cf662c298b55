"""End to end: a first visit whose name the server refuses (web-protocol 2.0: no visible
character, a direction override) still gets a player, with a default name; before, the
page took the 422 for an unreachable server and the browser had no player at all."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from .player import ContextFactory
from .server import ServerProcess

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("answer", ["\u200b\u202e", "\u202eysaE"])
def test_a_refused_name_at_the_first_visit_gives_a_default_name(
    server: ServerProcess, new_context: ContextFactory, answer: str
) -> None:
    context = new_context()
    context.add_init_script(f"window.prompt = () => {json.dumps(answer)};")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/#/settings")
    expect(page.locator("#player-name")).to_have_value(re.compile(r"^Player \d{4}$"))
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('spite-malice.player-record'))")
    assert stored["name"].startswith("Player ") and stored["secret"]
    assert errors == []
