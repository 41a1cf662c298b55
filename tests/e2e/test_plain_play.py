"""End to end: no turn ends by accident, and players read sentences, not notation (issue 17,
items 2 and 3).

With a hand card picked, a click on one of my side stacks picks that stack's top card (or
says how to discard); only the stack's Discard button, a drop or the keys discard, and the
"confirm discards" option asks first. Outside the move log (and there only when the player
asks for it), no move or card notation reaches the page's text or its screen-reader labels."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .player import TABLE, ContextFactory, Player, keep_game_socket
from .server import ServerProcess

pytestmark = pytest.mark.e2e

SELECTED = re.compile(r"(^|\s)is-selected(\s|$)")

NOTATION = re.compile(
    r"\b(?:P|H[A2-9TJQK]|S[1-4])-(?:C[1-4]|S[1-4])\b"  # a move: H7-C1, P-C2, S3-C1, HK-S1
    r"|\b[A2-9TJQK][SHDC]\b"  # a card: 7H, KS
    r"|\b[CS][1-4]\b"  # a place: C1, S4
)

PLAYER_TEXT_JS = """() => {
  const parts = [];
  const skip = (node) => node.closest('#move-log, script, style, [hidden]');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!skip(node.parentElement) && node.textContent.trim()) parts.push(node.textContent.trim());
  }
  for (const el of document.querySelectorAll('[aria-label], [title]')) {
    if (skip(el)) continue;
    for (const name of ['aria-label', 'title']) {
      const value = el.getAttribute(name);
      if (value) parts.push(value);
    }
  }
  parts.push(document.title);
  return parts;
}"""


def notation_in_player_text(page: Page) -> list[str]:
    """The pieces of player-facing text (outside the move log) that contain notation."""
    parts: list[str] = page.evaluate(PLAYER_TEXT_JS)
    return [part for part in parts if NOTATION.search(part)]


def start(server: ServerProcess, new_context: ContextFactory, prefix: str) -> Player:
    context = new_context()
    keep_game_socket(context)  # for play_until_legal(send=True)
    player = Player.open(context, server.url, prefix)
    player.configure(payoff_size=20, speed="off")
    player.start_computer_game("easy")
    return player


def test_a_tap_on_a_side_stack_picks_its_top_or_discards_the_picked_hand_card(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    """Issue 43: a discard is one deliberate tap on the side stack itself, lit once a hand
    card is picked; with no hand card picked, a tap on it picks its top card."""
    me = start(server, new_context, "misclick")
    legal = me.play_until_legal(
        send=True, wanted=lambda moves: any(re.fullmatch(r"S\d-C\d", m) for m in moves)
    )
    page = me.page
    stack = next(m.split("-")[0] for m in legal if re.fullmatch(r"S\d-C\d", m))
    moves = me.moves_played

    # No hand card picked: a tap on my side stack picks its top card; nothing is discarded.
    page.locator(f"{TABLE} .fan[data-source={stack}]").click()
    expect(page.locator(f"{TABLE} .fan[data-source={stack}]")).to_have_class(SELECTED)
    assert me.moves_played == moves and me.phase == "mine"
    page.keyboard.press("Escape")

    # A hand card picked: all four side stacks light up as discard targets.
    hand_card = page.locator(f"{TABLE} .hand-card").first
    hand_card.click()
    expect(hand_card).to_have_class(SELECTED)
    expect(page.locator(f"{TABLE} .seat-me .side-stack.is-target")).to_have_count(4)

    # A tap on one discards the picked card (and ends the turn).
    target = f"S{int(stack[1]) % 4 + 1}"
    page.locator(f"{TABLE} .side-stack[data-target={target}]").click()
    page.wait_for_function(
        f"() => Number(document.querySelector('#table').dataset.moves) > {moves}", polling=100
    )
    discarded = re.compile(rf"You discard the \w+ of \w+ onto side stack {target[1]}\.")
    expect(page.locator("#move-log")).to_contain_text(discarded)
    assert me.errors == []


def test_confirm_discards_asks_before_the_turn_ends(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), server.url, "careful")
    me.configure(payoff_size=20, speed="off")
    page = me.page
    me.goto("settings")
    page.check("#pref-confirm_discards")
    me.start_computer_game("easy")
    me.wait_phase("mine")
    moves = me.moves_played

    page.locator(f"{TABLE} .hand-card").first.click()
    page.locator(f"{TABLE} .side-stack[data-target=S1]").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("This ends your turn")
    page.click("#confirm-no")
    expect(page.locator("#message")).to_contain_text("Discard cancelled")
    assert me.moves_played == moves and me.phase == "mine"
    # The card stays picked; this time the discard is confirmed.
    expect(page.locator(f"{TABLE} .hand-card").first).to_have_class(SELECTED)
    page.locator(f"{TABLE} .side-stack[data-target=S1]").click()
    page.click("#confirm-yes")
    page.wait_for_function(
        f"() => Number(document.querySelector('#table').dataset.moves) > {moves}", polling=100
    )
    assert me.errors == []


def test_no_notation_in_player_text_outside_the_log(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = start(server, new_context, "reader")
    page = me.page
    seen: list[str] = []

    def check(when: str) -> None:
        found = notation_in_player_text(page)
        assert found == [], f"notation {when}: {found}"
        seen.append(page.inner_text("#message"))

    legal = me.play_until_legal(
        send=True, wanted=lambda moves: any(re.fullmatch(r"(P|H.|S\d)-C\d", m) for m in moves)
    )
    check("at my turn")
    # A hint, in words.
    page.click("#hint-button")
    expect(page.locator("#message")).to_contain_text("Hint: ")
    check("after a hint")
    # An illegal attempt, explained in words beside the pile.
    card, center = next(
        (c, f"C{n}") for n in (1, 2, 3) for c in me.hand() if f"H{c[0]}-C{n}" not in legal
    )
    page.locator(f"{TABLE} .hand-card[data-card='{card}']").first.click()
    page.click(f"{TABLE} [data-target={center}]")
    expect(page.locator("#refusal")).to_be_visible()
    check("after an illegal attempt")
    page.keyboard.press("Escape")
    # My moves and the computer's, in words (mine sent as the page's own move messages: the
    # text is checked, not the clicks).
    for _ in range(4):
        if me.wait_phase("mine", "over") == "over":
            break
        me.play_greedy_turn(send=True)
        me.wait_phase("mine", "over")
        check("after a turn")
    # The log has sentences; its notation appears only with the option on.
    assert page.locator("#move-log li").count() > 0
    assert page.locator("#move-log code.log-move").count() == 0
    assert all(message[:1].isupper() for message in seen if message), seen
    me.goto("settings")
    page.check("#pref-log_notation")
    page.go_back()
    me.wait_phase("mine", "over", "theirs")
    expect(page.locator("#move-log code.log-move").first).to_be_attached()
    assert me.errors == []
