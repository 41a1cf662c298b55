"""End to end: accessibility (issue 17, item 9): a whole turn played with the keyboard alone,
cards named in words for screen readers, four-colour suits and large cards."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .player import TABLE, ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e

WORDS = r"(Ace|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King)"
SUITS = r"(spades|hearts|diamonds|clubs)"


def start(server: ServerProcess, new_context: ContextFactory, prefix: str, **size: int) -> Player:
    me = Player.open(new_context(**size), server.url, prefix)
    me.configure(payoff_size=20, speed="off")
    me.start_computer_game("easy")
    return me


def test_a_whole_turn_with_the_keyboard_alone(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = start(server, new_context, "keys")
    page = me.page
    for _ in range(40):
        me.wait_phase("mine")
        legal = me.legal_moves()
        if any(re.fullmatch(r"H.-C\d", m) for m in legal):
            break
        me.play_greedy_turn()
    else:
        pytest.fail("no turn with a build from the hand")
    turn_moves = me.moves_played
    page.keyboard.press("Tab")  # the keyboard user starts from the page, not a click
    # Builds from the hand while there are any: its number, then C and the stack's number.
    while me.phase == "mine":
        legal = me.legal_moves()
        build = next((m for m in legal if re.fullmatch(r"H.-C\d", m)), None)
        if build is None:
            break
        source, target = build.split("-")
        position = next(i for i, c in enumerate(me.hand(), 1) if c[0] == source[1])
        before = me.moves_played
        page.keyboard.press(str(position))
        page.keyboard.press("c")
        page.keyboard.press(target[1])
        page.wait_for_function(
            f"() => Number(document.querySelector('#table').dataset.moves) > {before}"
            " || document.querySelector('#table').dataset.phase === 'over'"
        )
        me.wait_phase("mine", "over")
    if me.phase == "over":
        return
    # The discard that ends the turn: a hand card, then D and a side stack.
    before = me.moves_played
    page.keyboard.press("1")
    page.keyboard.press("d")
    page.keyboard.press("2")
    page.wait_for_function(
        f"() => Number(document.querySelector('#table').dataset.moves) > {before}"
    )
    assert me.moves_played > turn_moves
    # The computer answers and it is my turn again: the whole turn took no mouse.
    assert me.wait_phase("mine", "over") in ("mine", "over")
    assert me.errors == []


def test_cards_are_named_in_words(server: ServerProcess, new_context: ContextFactory) -> None:
    me = start(server, new_context, "names")
    me.wait_phase("mine")
    page = me.page
    first = page.locator(f"{TABLE} .hand-card").first
    expect(first).to_have_attribute("aria-label", re.compile(rf"^{WORDS} of {SUITS}, hand card 1$"))
    payoff = page.get_attribute(f"{TABLE} [data-source=P]", "aria-label") or ""
    assert re.match(rf"^Your pay-off pile: {WORDS} of {SUITS} on top, \d+ cards$", payoff), payoff
    for label in page.eval_on_selector_all(
        f"{TABLE} .center-stack", "ns => ns.map(n => n.getAttribute('aria-label'))"
    ):
        assert re.match(r"^Center stack \d: ", label), label
        assert not re.search(r"\b\d+ of ", label), label


def test_four_colour_suits_and_large_cards(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = start(server, new_context, "colours", width=1920, height=1080)
    me.wait_phase("mine")
    page = me.page
    normal = page.locator(f"{TABLE} .hand-card").first.bounding_box()
    me.goto("settings")
    page.check("#pref-four_colour")
    page.check("#pref-large_cards")
    page.go_back()
    me.wait_phase("mine", "theirs", "over")
    assert page.evaluate("() => document.body.classList.contains('four-colour')")
    # Diamonds blue and clubs green, hearts red and spades black.
    fills = page.evaluate(
        """() => {
          const fill = (suit) => {
            const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
            const colour = 'HD'.includes(suit) ? 'red' : 'black';
            svg.setAttribute('class', `card-svg card-face card-${colour} card-suit-${suit}`);
            document.body.append(svg);
            const value = getComputedStyle(svg).fill;
            svg.remove();
            return value;
          };
          return { H: fill('H'), D: fill('D'), C: fill('C'), S: fill('S') };
        }"""
    )
    assert len(set(fills.values())) == 4, fills
    large = page.locator(f"{TABLE} .hand-card").first.bounding_box()
    assert normal and large and large["width"] > normal["width"] * 1.1, (normal, large)
    assert me.errors == []
