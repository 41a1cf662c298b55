"""End to end: the ways to make a move (click, drag, keyboard), an illegal attempt and its
reason, hint, undo, and skipping the opponent's animation."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .player import TABLE, ContextFactory, Player, keep_game_socket
from .server import ServerProcess

pytestmark = pytest.mark.e2e

SELECTED = re.compile(r"(^|\s)is-selected(\s|$)")


def same_rank(card: str) -> re.Pattern[str]:
    """Any card of the rank of ``card``."""
    return re.compile(rf"^{re.escape(card[:1])}[SHDC]$")


def drag(page: Page, source: str, target: str) -> None:
    """Drag with the mouse in small steps, as a hand would (pointer events)."""
    start = page.locator(source).first.bounding_box()
    end = page.locator(target).first.bounding_box()
    assert start and end
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 3)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=12)
    expect(page.locator(".drag-ghost")).to_have_count(1)
    expect(page.locator(target).first).to_have_class(re.compile("is-drop-over"))
    page.mouse.up()


@pytest.fixture
def me(server: ServerProcess, new_context: ContextFactory) -> Player:
    context = new_context()
    keep_game_socket(context)  # for play_until_legal(send=True)
    player = Player.open(context, server.url, "controls")
    player.configure(payoff_size=20, speed="off")
    player.start_computer_game("easy")
    return player


def test_legal_targets_light_up_and_an_illegal_move_says_why(me: Player) -> None:
    legal = me.play_until_legal(r"H.-S1")
    page = me.page
    # A hand card and a center stack it does not fit.
    card, center = next(
        (c, f"C{n}") for n in (1, 2, 3) for c in me.hand() if f"H{c[0]}-C{n}" not in legal
    )
    source = page.locator(f"{TABLE} .hand-card[data-card='{card}']").first
    source.click()
    expect(source).to_have_class(SELECTED)
    targets = {t.split("-")[1] for t in legal if t.startswith(f"H{card[0]}-")}
    lit = page.eval_on_selector_all(f"{TABLE} .is-target", "ns => ns.map(n => n.dataset.target)")
    assert set(lit) == targets
    moves = me.moves_played
    page.click(f"{TABLE} [data-target={center}]")
    message = page.locator("#message")
    expect(message).to_have_attribute("data-kind", "error")
    # Plain words (issue 17): the card by name and what the stack needs, beside the pile.
    expect(message).to_contain_text(f"cannot go on center stack {center[1]}: it needs")
    expect(page.locator("#refusal")).to_be_visible()
    assert me.moves_played == moves
    assert me.phase == "mine"


def test_drag_a_card_onto_a_side_stack(me: Player) -> None:
    me.wait_phase("mine")
    moves = me.moves_played
    card = me.hand()[0]
    drag(me.page, f"{TABLE} .hand-card", f"{TABLE} [data-target=S4]")
    me.page.wait_for_function(
        f"() => Number(document.querySelector('#table').dataset.moves) > {moves}"
    )
    # Cards of one rank are interchangeable (notation.md): the move names the rank only.
    expect(me.page.locator(f"{TABLE} .seat-me [data-source=S4] .card").last).to_have_attribute(
        "data-card", same_rank(card)
    )


def test_keyboard_pick_cancel_and_discard(me: Player) -> None:
    me.wait_phase("mine")
    page = me.page
    page.locator("body").click(position={"x": 2, "y": 2})
    page.keyboard.press("p")
    expect(page.locator(f"{TABLE} [data-source=P]")).to_have_class(SELECTED)
    page.keyboard.press("Escape")
    expect(page.locator(f"{TABLE} .is-selected")).to_have_count(0)

    # 2, then S and 3: the second hand card onto side stack 3.
    card = page.locator(f"{TABLE} .hand-card[data-position='2']").get_attribute("data-card")
    moves = me.moves_played
    page.keyboard.press("2")
    expect(page.locator(f"{TABLE} .hand-card[data-position='2']")).to_have_class(SELECTED)
    page.keyboard.press("s")
    page.keyboard.press("3")
    page.wait_for_function(
        f"() => Number(document.querySelector('#table').dataset.moves) > {moves}"
    )
    expect(page.locator(f"{TABLE} .seat-me [data-source=S3] .card").last).to_have_attribute(
        "data-card", same_rank(card or "")
    )

    # Arrow keys move the focus between piles.
    me.wait_phase("mine")
    page.locator(f"{TABLE} .hand-card").first.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator(f"{TABLE} .hand-card[data-position='2']")).to_be_focused()
    page.keyboard.press("ArrowUp")
    focused = page.evaluate("() => document.activeElement.closest('.seat-me .seat-row') !== null")
    assert focused, "ArrowUp from the hand goes to my piles"
    page.keyboard.press("ArrowDown")
    assert page.evaluate("() => document.activeElement.classList.contains('hand-card')")

    # Focus and Enter: a hand card, then side stack 1.
    moves = me.moves_played
    page.locator(f"{TABLE} .hand-card").first.focus()
    page.keyboard.press("Enter")
    expect(page.locator(f"{TABLE} .hand-card").first).to_have_class(SELECTED)
    page.locator(f"{TABLE} [data-target=S1]").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => Number(document.querySelector('#table').dataset.moves) > {moves}"
    )


def test_hint_then_undo_a_build(me: Player) -> None:
    # Not a pay-off build, nor the last hand card: each turns up cards, and undo never takes
    # that back (R3.4(a) and (c); "Undo never reveals" in docs/web-protocol.md).
    def undoable(move: str) -> bool:
        return bool(re.fullmatch(r"S\d-C\d", move)) or (
            bool(re.fullmatch(r"H.-C\d", move)) and len(me.hand()) > 1
        )

    legal = me.play_until_legal(send=True, wanted=lambda moves: any(undoable(m) for m in moves))
    page = me.page
    page.click("#hint-button")
    expect(page.locator("#message")).to_contain_text("Hint: ")
    hint = page.get_attribute(TABLE, "data-hint")
    assert hint in legal
    expect(page.locator(f"{TABLE} .is-hint").first).to_be_visible()

    build = next(m for m in legal if undoable(m))
    before = me.snapshot()
    me.play_move(build)
    me.wait_phase("mine", "over")
    expect(page.locator("#undo-button")).to_be_enabled()
    page.click("#undo-button")
    page.wait_for_function(
        f"() => document.querySelector('#table').dataset.moves === '{before['moves']}'"
    )
    me.wait_phase("mine")
    assert me.snapshot() == before
    expect(page.locator("#message")).to_contain_text("taken back")


SKIP_WATCH_JS = """
// What a skip did, told without a clock: the flights under way when Escape was pressed (marked
// then), and every flight started afterwards for a move that had already come from the server.
// The page asks for one message a frame here (no batches, web-protocol 4.3), so that a message
// is in the page's queue as soon as it has come (a batch's are handed on one per task).
window.__skip = { arrived: 0, at: null, late: [], batches: 0 };
const NativeSocket = window.WebSocket;
window.WebSocket = class extends NativeSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      let m;
      try { m = JSON.parse(event.data); } catch { return; }
      if (m.type === "batch") window.__skip.batches += 1;
      const history = m.type === "update" ? m.state?.observation?.history : null;
      if (history) window.__skip.arrived = Math.max(window.__skip.arrived, history.length);
    });
  }
  send(data) {
    let m = null;
    try { m = JSON.parse(data); } catch {}
    if (m?.type === "hello") data = JSON.stringify({ ...m, batch: false });
    return super.send(data);
  }
};
// On window, capturing: before the page's own key handler, in the same task.
window.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  window.__skip.at = window.__skip.arrived;
  for (const flyer of document.querySelectorAll(".flyer")) flyer.dataset.skipped = "";
}, true);
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver((records) => {
    const skip = window.__skip;
    if (skip.at === null) return;
    const moves = Number(document.querySelector("#table")?.dataset.moves ?? 0);
    for (const record of records) {
      for (const node of record.addedNodes) {
        // a flight while the moves drawn are fewer than those come: an arrived move's
        if (node.classList?.contains("flyer") && moves < skip.at) skip.late.push(moves);
      }
    }
  }).observe(document.body, { childList: true });
});
"""


def test_the_opponents_moves_are_animated_and_can_be_skipped(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    # The skip is checked by what it does, not by how soon the turn ends after it: the
    # computer's moves may reach the page one by one on a busy machine (each thought on a
    # worker thread), and those that come after the skip are animated again.
    context = new_context()
    context.add_init_script(SKIP_WATCH_JS)
    keep_game_socket(context)  # my turns go as the page's own move messages (not the subject)
    me = Player.open(context, server.url, "watcher")
    me.configure(payoff_size=20, speed="slow")
    me.start_computer_game("easy")
    page = me.page
    for _ in range(3):
        me.wait_phase("mine")
        me.play_greedy_turn(send=True)
        page.wait_for_selector(".flyer", state="attached")
        expect(page.locator("#skip-button")).to_be_visible()
        page.evaluate("() => { window.__skip.at = null; window.__skip.late = []; }")
        page.keyboard.press("Escape")
        # the flights under way ended at once (finished, not played out at their pace)
        assert page.evaluate("() => document.querySelectorAll('.flyer[data-skipped]').length") == 0
        me.wait_phase("mine", "over")
        # and no move that had come before the skip was flown after it
        assert page.evaluate("() => window.__skip.late") == []
        expect(page.locator(".flyer")).to_have_count(0)
    assert page.evaluate("() => window.__skip.batches") == 0  # one message a frame, as asked
    assert me.errors == []
