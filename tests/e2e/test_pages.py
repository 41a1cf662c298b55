"""End to end: the rules, statistics and settings pages, at desktop and phone sizes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Route, expect

from spite_malice.i18n import catalog

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("width", [1280, 390])
def test_rules_page_has_the_rules_and_the_keys(
    server: ServerProcess, new_context: ContextFactory, width: int
) -> None:
    me = Player.open(new_context(width=width, height=900), server.url, "reader")
    me.goto("rules")
    page = me.page
    expect(page.locator("h1")).to_have_text("How to play Spite & Malice")
    # The numbered rules come from the server; R3.1 is the build rule.
    expect(page.locator(".rule-items li[data-rule='R3.1']")).to_contain_text("King")
    expect(page.locator("#how-to-play .keys")).to_contain_text("pick your pay-off pile")
    assert page.locator("#how-to-play .card svg[data-card]").count() == 4
    # Nothing is wider than the screen.
    overflow = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert overflow <= 0
    assert me.errors == []


STRANGERS_TOPICS = ("Pairing.", "Ratings.", "The clock.", "Bans.", "Verifying the deal.")
"""The titles of the 'Playing strangers' items that the players' docs must have: pairing,
ratings, the move clock, bans and verifying the deal (web/static/js/pages/strangers_help.js)."""


@pytest.mark.parametrize(("language", "locale"), [("en", "en-US"), ("fr", "fr-FR")])
def test_rules_page_tells_players_about_strangers_and_verifying_the_deal(
    server: ServerProcess, new_context: ContextFactory, language: str, locale: str
) -> None:
    """The Rules page's 'Playing strangers' section has an item for each topic, in the
    player's language; the one on verifying names the end screen's button as it is shown."""
    words = catalog(language)
    if language != "en":  # the shipped translation, not the English fallback
        assert all(words.gettext(topic) != topic for topic in STRANGERS_TOPICS)
    me = Player.open(new_context(locale=locale), server.url, f"reader-{language}")
    me.goto("rules")
    page = me.page
    expect(page.locator("html")).to_have_attribute("lang", language)
    section = page.locator("#strangers")
    expect(section.locator("h2")).to_have_text(words.gettext("Playing strangers"))
    for topic in STRANGERS_TOPICS:
        title = re.compile(f"^{re.escape(words.gettext(topic))}$")
        expect(section.locator("li > b").filter(has_text=title)).to_have_count(1)
    verifying = section.locator("li").filter(
        has=page.locator("b", has_text=words.gettext("Verifying the deal."))
    )
    expect(verifying).to_contain_text(words.gettext("Verify the deal"))
    assert me.errors == []


def test_settings_are_kept_by_the_server(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), server.url, "settler")
    me.configure(payoff_size=7, match_target=12, speed="slow", level="hard")
    me.page.reload()
    page = me.page
    expect(page.locator("#player-name")).to_have_value(me.name)
    expect(page.locator("#rule-payoff_size")).to_have_value("7")
    expect(page.locator("#rule-match_target")).to_have_value("12")
    expect(page.locator("#default-level")).to_have_value("hard")
    expect(page.locator("input[name=animation_speed][value=slow]")).to_be_checked()

    # A preset fills the options; the lobby names the rules.
    page.select_option("#preset", "quick")
    expect(page.locator("#rule-payoff_size")).to_have_value("10")
    page.click("#save-settings")
    expect(page.locator("#settings-status")).to_contain_text("Saved")
    me.goto("play")
    expect(page.locator(".rules-line")).to_contain_text("Quick")
    expect(page.locator("#level-hard")).to_be_checked()
    assert me.errors == []


@pytest.mark.parametrize("route", ["play", "rules", "stats", "settings"])
def test_no_page_is_wider_than_a_small_phone(
    server: ServerProcess, new_context: ContextFactory, route: str
) -> None:
    me = Player.open(new_context(width=320, height=640), server.url, "small")
    me.goto(route)
    me.page.wait_for_selector("#view .page")
    me.page.wait_for_load_state("networkidle")
    overflow = me.page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert overflow <= 0, f"#/{route} is {overflow} px wider than the screen"


def test_statistics_page_of_a_new_player(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(width=390, height=844), server.url, "newcomer")
    me.configure()
    me.goto("stats")
    expect(me.page.locator(".stats")).to_contain_text("No finished games yet")
    expect(me.page.locator(".stats")).to_contain_text(f"Your results as {me.name}.")
    assert me.errors == []


def test_the_page_runs_within_its_content_security_policy(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    """The server forbids inline styles and scripts and anything from elsewhere
    (web/headers.py): the page, a game against the computer with its cards, sounds and
    socket, and the rules page break none of it (the browser reports each breach)."""
    context = new_context()
    context.add_init_script(
        "window.__breaches = [];"
        "document.addEventListener('securitypolicyviolation', (e) =>"
        " window.__breaches.push(e.violatedDirective + ' ' + e.blockedURI));"
    )
    me = Player.open(context, server.url, "careful")
    me.configure()
    me.start_computer_game("easy")
    me.wait_started()
    for _ in range(2):
        # The computer may start (R1.4): a greedy turn begun on its turn would play nothing.
        if me.wait_phase("mine", "over") == "over":
            break
        me.play_greedy_turn()
    me.goto("rules")
    expect(me.page.locator("h1")).to_have_text("How to play Spite & Malice")
    assert me.page.evaluate("() => window.__breaches") == []
    assert me.errors == []


def test_a_page_that_loads_late_never_draws_over_the_next_one(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    """A slow network: the player opens the tutorial, then Play before the lessons came. The
    lessons, when they come, are drawn where the tutorial was, not over the lobby."""
    me = Player.open(new_context(width=390, height=844), server.url, "hasty")
    page = me.page
    held: list[Route] = []
    page.route("**/api/tutorial", lambda request: held.append(request))
    me.goto("tutorial")
    page.wait_for_function("() => document.querySelector('#view').textContent.includes('Loading')")
    tutorial_box = page.evaluate_handle("() => document.querySelector('#view').firstElementChild")
    me.goto("play")
    expect(page.locator("label[for=level-easy]")).to_be_visible()
    for request in held:  # the tutorial's lessons, and the lobby's offer of the tutorial
        request.continue_()
    page.unroute("**/api/tutorial")
    page.wait_for_function(
        "(box) => (document.querySelector('#tutorial-list')"
        " ?? box.querySelector('#tutorial-list')) !== null",
        arg=tutorial_box,
    )
    expect(page.locator("label[for=level-easy]")).to_be_visible()
    assert page.locator("#tutorial-list").count() == 0
    assert me.errors == []
