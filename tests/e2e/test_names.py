"""End to end: the first visit asks the player's name in the page (issue 43), never by a
browser dialog: a field with a suggested name, labelled for screen readers and used by the
keyboard alone. A name the server refuses (web-protocol 2.0: no visible character, a
direction override) is explained and the suggested name stays, so the browser always has a
player."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Dialog, expect

from .player import ContextFactory
from .server import ServerProcess

pytestmark = pytest.mark.e2e


def test_the_first_visit_asks_the_name_in_the_page_by_keyboard(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    page = new_context().new_page()
    dialogs: list[str] = []

    def seen(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", seen)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/#/play")
    field = page.get_by_role("textbox", name="Your name at the table")
    expect(field).to_be_visible()
    expect(field).to_have_value(re.compile(r"^Player \d{4}$"))
    # The keyboard alone: focus the field, type, press Enter.
    field.focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("Ada")
    page.keyboard.press("Enter")
    expect(page.locator("#first-visit")).to_be_hidden()
    page.goto(f"{server.url}/#/settings")
    expect(page.locator("#player-name")).to_have_value("Ada")
    page.reload()
    page.goto(f"{server.url}/#/play")
    expect(page.locator("#start-computer")).to_be_visible()
    expect(page.locator("#first-visit")).to_be_hidden()  # asked once
    assert dialogs == [] and errors == []


@pytest.mark.parametrize("answer", ["\u200b\u202e", "\u202eysaE"])
def test_a_refused_name_at_the_first_visit_keeps_the_suggested_name(
    server: ServerProcess, new_context: ContextFactory, answer: str
) -> None:
    page = new_context().new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.message))
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/#/play")
    page.fill("#first-visit-name", answer)
    page.click("#first-visit-save")
    status = page.locator("#first-visit-status")
    expect(status).not_to_have_text(re.compile(r"^(|Saving…)$"))
    expect(page.locator("#first-visit")).to_be_visible()  # still asked
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('spite-malice.player-record'))")
    assert re.fullmatch(r"Player \d{4}", stored["name"]) and stored["secret"]
    page.goto(f"{server.url}/#/settings")
    expect(page.locator("#player-name")).to_have_value(re.compile(r"^Player \d{4}$"))
    assert dialogs == [] and errors == []
