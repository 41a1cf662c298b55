"""End to end (issue 15): the page speaks the browser's language, or the one chosen in
Settings. The page's words come from ``GET /api/language/<lang>``; here that answer is a small
catalog made by the test (the shipped catalogs are written by the translators), so the test
shows that every path works: the browser's locale picks the language, <html lang> follows,
the texts, card names and plural forms (Russian's three) come from the catalog, every request
to /api and the game's socket say the language, and the Settings choice switches the page at
once and is kept with the player."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect

from .player import TABLE, ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e

SEP = "\x04"
RANKS = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack"]
RANKS += ["Queen", "King"]
SUITS = ["spades", "hearts", "diamonds", "clubs"]


def fake_catalog(language: str, tag: str) -> dict[str, Any]:
    """A catalog for ``language`` in the shape of page_catalog: each text the test looks for
    is its English with ``tag`` in front; Russian gets its three plural forms."""
    messages: dict[str, Any] = {
        "Play the computer": f"{tag} Play the computer",
        "Play": f"{tag} Play",
        "Settings": f"{tag} Settings",
        "Start a match": f"{tag} Start a match",
        "Your turn": f"{tag} Your turn",
        f"card{SEP}{{rank}} of {{suit}}": f"{{rank}} {tag} {{suit}}",
        "{card}, hand card {n}": f"{{card}}, {tag} {{n}}",
    }
    # the card words come with the catalog, in the shape of i18n.cards.page_card_words
    cards = {
        "ranks": [rank.upper() for rank in RANKS],
        "values": [f"{tag} {rank.upper()}" for rank in RANKS],
        "cards": [[f"{rank.upper()} {tag} {suit.upper()}" for rank in RANKS] for suit in SUITS],
    }
    if language == "ru":
        plural = {"one": 0, "few": 1, "many": 2, "other": 2}
        messages["Stock: {n} card"] = [f"{tag} {{n}} one", f"{tag} {{n}} few", f"{tag} {{n}} many"]
    else:
        plural = {"one": 0, "other": 1}
        messages["Stock: {n} card"] = [f"{tag} {{n}} one", f"{tag} {{n}} other"]
    return {"language": language, "plural": plural, "messages": messages, "cards": cards}


def russian_form(n: int) -> str:
    """CLDR's Russian categories for whole numbers."""
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"
    return "many"


class Watched:
    """A context whose catalogs are the test's, and what the page sent to the server."""

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.api_languages: list[tuple[str, str]] = []
        self.sockets: list[str] = []
        context.route(re.compile(r".*/api/language/(it|ru|nl)$"), self._catalog)
        context.on("request", self._request)

    def _catalog(self, route: Route) -> None:
        language = route.request.url.rsplit("/", 1)[-1]
        body = json.dumps(fake_catalog(language, f"[{language}]"))
        route.fulfill(status=200, content_type="application/json", body=body)

    def _request(self, request: Any) -> None:
        path = request.url.split("//", 1)[-1].split("/", 1)[-1]
        # the list of languages is asked for before the page knows its language
        if path.startswith("api/") and not path.startswith("api/language"):
            self.api_languages.append((path, request.headers.get("accept-language", "")))

    def watch_sockets(self, page: Page) -> None:
        page.on("websocket", lambda socket: self.sockets.append(socket.url))


def open_player(
    server: ServerProcess, new_context: ContextFactory, browser_locale: str, prefix: str
) -> tuple[Player, Watched]:
    context = new_context(locale=browser_locale)
    watched = Watched(context)
    me = Player.open(context, server.url, prefix)
    watched.watch_sockets(me.page)
    return me, watched


def test_the_page_speaks_the_browsers_language(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me, watched = open_player(server, new_context, "it-IT", "italiano")
    page = me.page
    me.goto("play")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.locator(".lobby h1")).to_have_text("[it] Play the computer")
    expect(page.locator('.nav a[data-route="play"]')).to_have_text("[it] Play")
    expect(page.locator("#start-computer")).to_have_text("[it] Start a match")
    page.click("#start-computer")
    page.wait_for_url("**/#/game/*")
    me.wait_phase("mine", "theirs")
    # the card names are the catalog's (its card words)
    first = page.locator(f"{TABLE} .hand-card").first
    expect(first).to_have_attribute(
        "aria-label", re.compile(r"^[A-Z]+ \[it\] (SPADES|HEARTS|DIAMONDS|CLUBS), \[it\] 1$")
    )
    stock = page.get_attribute(f"{TABLE} [data-stock]", "aria-label") or ""
    count = int(page.inner_text(f"{TABLE} [data-stock] .count-badge"))
    assert stock == f"[it] {count} " + ("one" if count == 1 else "other"), stock
    # the server's texts follow: every request says the language, and so does the socket
    assert watched.api_languages and all(lang == "it" for _, lang in watched.api_languages), (
        watched.api_languages
    )
    assert any("lang=it" in url for url in watched.sockets), watched.sockets
    assert me.errors == []


def test_russian_plural_forms_come_from_the_catalog(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me, _watched = open_player(server, new_context, "ru-RU", "russki")
    page = me.page
    me.goto("play")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    page.click("#start-computer")
    page.wait_for_url("**/#/game/*")
    me.wait_phase("mine", "theirs")
    stock = page.get_attribute(f"{TABLE} [data-stock]", "aria-label") or ""
    count = int(page.inner_text(f"{TABLE} [data-stock] .count-badge"))
    assert stock == f"[ru] {count} {russian_form(count)}", stock
    # the same rule as the server's (i18n.plural_index), for the counts that differ
    forms = page.evaluate(
        """async () => {
          const { ngettext } = await import('/static/js/i18n.js');
          const counts = [1, 2, 5, 11, 21, 22, 25, 112];
          return counts.map((n) => ngettext('Stock: {n} card', 'Stock: {n} cards', n));
        }"""
    )
    assert forms == [f"[ru] {n} {russian_form(n)}" for n in (1, 2, 5, 11, 21, 22, 25, 112)]
    assert me.errors == []


def test_a_language_chosen_in_settings_switches_the_page_and_is_kept(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me, watched = open_player(server, new_context, "en-GB", "chooser")
    page = me.page
    me.goto("settings")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#language option")).to_have_count(7)  # the browser's, then the six
    options = page.eval_on_selector_all("#language option", "os => os.map(o => o.textContent)")
    assert options[1:] == ["English", "Italiano", "Русский", "Português", "Français", "Nederlands"]
    page.select_option("#language", "nl")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.locator(".settings h1")).to_have_text("[nl] Settings")
    expect(page.locator('.nav a[data-route="settings"]')).to_have_text("[nl] Settings")
    expect(page.locator("#language")).to_have_value("nl")
    # kept with the player on the server: a fresh load (the browser still asks for English)
    # speaks Dutch, and the settings say so
    page.evaluate("localStorage.removeItem('spite-malice.setting.language')")
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.locator(".settings h1")).to_have_text("[nl] Settings")
    saved = page.evaluate(
        """async () => {
          const secret = JSON.parse(localStorage.getItem('spite-malice.player-record')).secret;
          const answer = await fetch('/api/settings', { headers: { 'X-Player-Secret': secret } });
          return (await answer.json()).language;
        }"""
    )
    assert saved == "nl"
    assert watched.api_languages[-1][1] == "nl"
    # back to the browser's language
    page.select_option("#language", "")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator(".settings h1")).to_have_text("Settings")
    assert me.errors == []
