"""End to end: the table fits the screen at every common size (issue 17, item 1).

Every pile, hand card, the message line and the game's buttons lie inside the viewport
without scrolling, at laptop, desktop and phone sizes, upright and sideways; tall side
stacks squeeze their fan instead of pushing the hand off the screen. With
$SPITE_MALICE_SHOTS set, a screenshot of each size goes to that folder, for a person to look
at (``tests/e2e/shots.py``)."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .player import ContextFactory, Player
from .server import ServerProcess
from .shots import screenshot

pytestmark = pytest.mark.e2e

SIZES = [
    (1024, 768),
    (1280, 720),
    (1366, 768),
    (1440, 900),
    (1920, 1080),
    (360, 740),
    (390, 844),
    (844, 390),
    (740, 360),
]

MUST_SHOW = (
    "#table [data-source], #table [data-target], #table [data-opp], #table .stock, "
    "#table .hand-card, #table .center-stack, #message, #turn-banner, #hint-button, "
    "#undo-button, #new-match-button, #more-button"
)

OUTSIDE_JS = """(selector) => {
  const out = [];
  for (const node of document.querySelectorAll(selector)) {
    const style = getComputedStyle(node);
    if (node.offsetParent === null || style.display === 'none') continue;
    const r = node.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const out_x = r.left < -0.5 || r.right > innerWidth + 0.5;
    if (out_x || r.top < -0.5 || r.bottom > innerHeight + 0.5) {
      const name = node.id || node.dataset.source || node.dataset.target || node.dataset.opp
        || node.className;
      out.push(`${name} at ${Math.round(r.left)},${Math.round(r.top)}-` +
               `${Math.round(r.right)},${Math.round(r.bottom)}`);
    }
  }
  return out;
}"""


def settle(page: Page) -> None:
    """Two animation frames: the resize observer has fitted the table."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def check_fits(page: Page, label: str) -> float:
    """Assert that everything that must show is on screen, once the table has fitted the
    window (a fit may take a few frames more than :func:`settle` waits on a loaded
    machine: each fit can change a size that schedules the next); returns the card width."""
    with suppress(PlaywrightTimeoutError):
        page.wait_for_function(
            f"(selector) => ({OUTSIDE_JS})(selector).length === 0",
            arg=MUST_SHOW,
            timeout=5_000,
            polling=100,
        )
    outside = page.evaluate(OUTSIDE_JS, MUST_SHOW)
    assert outside == [], f"{label}: off screen: {outside}"
    scroll = page.evaluate(
        "() => [document.scrollingElement.scrollWidth - innerWidth,"
        " document.scrollingElement.scrollHeight - innerHeight]"
    )
    assert scroll[0] <= 0 and scroll[1] <= 0, f"{label}: the page scrolls by {scroll}"
    screenshot(page, label)
    width: float = page.evaluate(
        "() => document.querySelector('#table .hand-card, #table .center-stack')"
        ".getBoundingClientRect().width"
    )
    return width


def tall_state(hand: list[str]) -> dict[str, Any]:
    """A crowded position: four center stacks, 14-card side stacks on both sides."""
    tall = ["9C", "8D", "7H", "6S", "5C", "4D", "3H", "2S", "QC", "JD", "TH", "9S", "8C", "7D"]
    side = [tall, tall[:9], tall[:5], tall[:12]]
    return {
        "room": "TEST",
        "mode": "computer",
        "seat": 0,
        "players": ["Me", "Medium"],
        "observation": {
            "seat": 0,
            "rules": {},
            "to_move": 0,
            "turn": 41,
            "hand": hand,
            "players": [
                {"payoff_top": "4C", "payoff_count": 18, "hand_count": 5, "side": side},
                {"payoff_top": "QD", "payoff_count": 20, "hand_count": 5, "side": side[::-1]},
            ],
            "center": [["AS", "2H"], ["AS", "2H", "3C", "KD"], [], ["AD"]],
            "center_takes": [3, 5, 1, 2],  # as the server sends them with the center
            "center_left": [10, 8, 12, 11],
            "stock_count": 48,
            "history": [],
            "legal_moves": [],
            "outcome": None,
        },
        "match": {
            "score": [0, 0],
            "target": 50,
            "game_number": 1,
            "over": False,
            "winner": None,
            "games": [],
        },
        "assisted": False,
        "can_undo": False,
        "can_hint": False,
        "connected": [True, True],
        "thinking": False,
    }


def test_the_table_fits_every_screen(server: ServerProcess, new_context: ContextFactory) -> None:
    me = Player.open(new_context(width=1280, height=720), server.url, "fitter")
    me.configure(payoff_size=20, speed="off")
    me.start_computer_game("easy")
    for _ in range(3):
        if me.wait_phase("mine", "over") == "over":
            break
        me.play_greedy_turn()
    me.wait_phase("mine", "over")
    page = me.page
    widths = {}
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        card = check_fits(page, f"game-{width}x{height}")
        widths[(width, height)] = card
        # The cards use the room: they never shrink to slivers (41 px at 740x360 here).
        assert card >= 36, f"{width}x{height}: cards {card} px wide"

    # The longest message (five cards drawn, each named) scrolls in its own box on a phone
    # held sideways: the buttons below it stay in the window (it pushed them out).
    page.evaluate(
        """() => { document.querySelector('#message').textContent =
          'You draw 5 cards: Queen of diamonds, Queen of hearts, Eight of diamonds, ' +
          'Seven of diamonds and Nine of clubs. Your turn: pick a card, then where it goes.'; }"""
    )
    for width, height in [(740, 360), (844, 390)]:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        check_fits(page, f"long-message-{width}x{height}")

    # On a phone held upright the log and the keys open as a sheet, and close again.
    page.set_viewport_size({"width": 390, "height": 844})
    page.click("#more-button")
    expect(page.locator("#move-log")).to_be_visible()
    page.click("#more-close")
    expect(page.locator("#move-log")).to_be_hidden()

    # A crowded table: 14-card side stacks and four center stacks squeeze, never overflow.
    # Drawn once; each new size is fitted by the page itself (its resize observer), as when
    # a phone turns.
    page.evaluate(
        """async (state) => {
          const table = document.querySelector('#table');
          const { renderTable } = await import('/static/js/table.js');
          const { fitTable } = await import('/static/js/fit.js');
          renderTable(table, state, { me: 'You', opponent: 'Medium', waiting: false });
          fitTable(table);
        }""",
        tall_state(me.hand()),
    )
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        expect(page.locator("#table .seat-me .side-stack").first.locator(".card")).to_have_count(14)
        check_fits(page, f"crowded-{width}x{height}")
    print(f"\ncard widths: {widths}")
    assert me.errors == []


PHONES = [(390, 844), (360, 740), (844, 390), (740, 360)]


@pytest.mark.parametrize("language", ["it", "ru", "pt", "fr", "nl"])
def test_the_table_fits_phones_in_every_language(
    server: ServerProcess, new_context: ContextFactory, language: str
) -> None:
    """Translations run longer than English: every button still shows on a phone, upright
    and sideways, and nothing scrolls (the buttons take a second row instead)."""
    me = Player.open(new_context(width=390, height=844, locale=language), server.url, language)
    me.configure(payoff_size=20, speed="off")
    me.start_computer_game("easy")
    me.wait_phase("mine", "over")
    page = me.page
    assert page.evaluate("() => document.documentElement.lang") == language
    for width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        card = check_fits(page, f"{language}-{width}x{height}")
        assert card >= 30, f"{language} {width}x{height}: cards {card} px wide"
    assert me.errors == []
