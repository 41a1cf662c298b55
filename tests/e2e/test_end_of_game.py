"""End to end: the end of a game (issue 17, item 7, the part the page can do now): who won
and why, the points, and the game's figures (turns, cards built, discards, stacks
completed), counted from the game's public events and checked against its move count."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from spite_malice.engine import card_str
from spite_malice.store import Store

from .player import ContextFactory, Player
from .server import ServerProcess
from .test_plain_play import notation_in_player_text

pytestmark = pytest.mark.e2e


def test_the_game_over_screen_says_why_and_counts_the_game(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), server.url, "finisher")
    me.configure(payoff_size=5, speed="off")
    me.start_computer_game("easy")
    for _ in range(200):
        if me.wait_phase("mine", "over") == "over":
            break
        me.play_greedy_turn()
    page = me.page
    dialog = page.locator("#game-over")
    expect(dialog).to_be_visible()
    text = dialog.inner_text()
    if "A draw" not in text:
        assert "emptied" in text and "pay-off pile" in text, text
    figures = dialog.locator("#game-figures")
    expect(figures).to_be_visible()
    cells = figures.locator("tbody td").all_inner_texts()
    turns_me, turns_opp, built_me, built_opp, discards_me, discards_opp = map(int, cells)
    # Every move of the game is a build or a discard: the figures add up to the move count.
    assert built_me + built_opp + discards_me + discards_opp == me.moves_played
    # A turn ends with a discard, except the winner's last turn.
    assert turns_me == discards_me and turns_opp == discards_opp
    assert built_me + built_opp >= 5
    # The center stacks completed are both players' (R3.1: both build on them; R3.4(b)): the
    # figure spans both players' columns, not the opponent's alone.
    spans = figures.evaluate(
        """(table) => {
          const box = (n) => { const r = n.getBoundingClientRect();
            return { left: r.left, right: r.right }; };
          const heads = table.querySelectorAll('thead th');
          return { cell: box(table.querySelector('tfoot td')), you: box(heads[1]),
            them: box(heads[2]) };
        }"""
    )
    completed = int(figures.locator("tfoot td").inner_text())
    assert abs(spans["cell"]["left"] - spans["you"]["left"]) <= 1, spans
    assert abs(spans["cell"]["right"] - spans["them"]["right"]) <= 1, spans
    assert 0 <= completed * 12 <= built_me + built_opp  # R3.4(b): twelve cards make a stack
    assert me.errors == []


def reveal_on_page(page: Page) -> dict[str, Any]:
    """The hidden cards the end-of-game screen shows, read from its reveal section."""
    found: dict[str, Any] = page.evaluate(
        """() => {
          const cards = (sel) => [...document.querySelectorAll(`#reveal ${sel} [data-card]`)]
            .map((n) => n.dataset.card);
          const part = (name, seat) => cards(`[data-part=${name}][data-seat="${seat}"]`);
          return {
            payoffs: [part('payoff', 0), part('payoff', 1)],
            hands: [part('hand', 0), part('hand', 1)],
            stock: cards('[data-part=stock]'),
          };
        }"""
    )
    return found


def stored_reveal(server: ServerProcess, room: str) -> dict[str, Any]:
    """The hidden cards at the end of the room's last stored game, from its record alone."""
    store = Store.open(str(server.db))
    try:
        stored = store.load_room(room)
        assert stored is not None
        record = store.games(stored.header.id)[-1]
    finally:
        store.close()
    game = replace(record, result=None).replay()  # a resigned record ends unfinished
    return {
        "payoffs": [[card_str(c) for c in player.payoff] for player in game.players],
        "hands": [[card_str(c) for c in player.hand] for player in game.players],
        "stock": [card_str(c) for c in reversed(game.stock)],
    }


def test_the_reveal_shows_the_stored_record_of_the_game(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), server.url, "revealer")
    me.configure(payoff_size=5, speed="off")
    me.start_computer_game("easy")
    page = me.page
    # While the game is played the page holds no reveal (the server sends none).
    assert page.locator("#reveal").count() == 0
    for _ in range(200):
        if me.wait_phase("mine", "over") == "over":
            break
        me.play_greedy_turn()
    dialog = page.locator("#game-over")
    expect(dialog).to_be_visible()
    page.click("#reveal summary")
    expect(page.locator("#reveal [data-part=stock] [data-card]").first).to_be_visible()
    shown = reveal_on_page(page)
    assert shown == stored_reveal(server, me.room)
    # the end screen and its reveal speak in words: no notation outside the move log
    assert notation_in_player_text(page) == []
    # the opponent's hand was never on the table: the reveal names it, card by card
    names = page.locator('#reveal [data-part=hand][data-seat="1"] [data-card]')
    assert names.count() == len(shown["hands"][1])
    if names.count():
        assert " of " in (names.first.get_attribute("aria-label") or "")
    assert me.errors == []


def test_a_resigned_match_shows_the_reveal_after_a_reload(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), server.url, "giver")
    me.configure(payoff_size=20, speed="off")
    me.start_computer_game("easy")
    me.wait_phase("mine")
    page = me.page
    page.click("#resign-button")
    page.click("#confirm-yes")
    me.wait_phase("over")
    expect(page.locator("#game-over")).to_contain_text("You resigned the match")
    page.reload()
    me.wait_phase("over")
    expect(page.locator("#turn-banner")).to_have_text("You resigned the match")
    expect(page.locator("#game-over")).to_contain_text("You resigned the match")
    page.click("#reveal summary")
    assert reveal_on_page(page) == stored_reveal(server, me.room)
    assert me.errors == []


def test_the_deal_is_committed_to_at_the_start_and_verified_at_the_end(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    """docs/verifying.md: the game info shows the commitment from the deal on; at the end,
    "Verify the deal" checks the revealed seed and salt in the browser and the replay from
    the seed on the server, and says so in plain words."""
    me = Player.open(new_context(), server.url, "verifier")
    me.configure(payoff_size=5, speed="off")
    me.start_computer_game("easy")
    page = me.page
    note = page.locator("#deal-commitment")
    expect(note).to_contain_text("deal ")
    committed = note.get_attribute("title")
    assert committed is not None and len(committed) == 64
    assert committed[:12] in note.inner_text()
    for _ in range(200):
        if me.wait_phase("mine", "over") == "over":
            break
        me.play_greedy_turn()
    dialog = page.locator("#game-over")
    expect(dialog).to_be_visible()
    dialog.locator("#verify-deal").click()
    checks = dialog.locator("#verify-checks")
    expect(checks).to_have_attribute("data-ok", "yes")
    expect(checks).to_contain_text("Checked in this browser: the seed and the salt revealed make")
    expect(checks).to_contain_text("the seed was fixed before the first move")
    expect(checks).to_contain_text("The deal is verified.")
    assert me.errors == []
