"""End to end: replays (issue 14 item 2). A finished game replays to its final table, steps
back and forth, downloads its record; the downloaded file opens and replays; a bad file is
refused in plain words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e


def _final_table(me: Player) -> dict[str, object]:
    snap = me.snapshot()
    return {
        "center": snap["center"],
        "mine": me.side_cards("me"),
        "theirs": me.side_cards("opponent"),
    }


def _replay_table(me: Player) -> dict[str, object]:
    return {
        "center": me.page.eval_on_selector_all(
            ".center-stack", "nodes => nodes.map(n => n.getAttribute('aria-label'))"
        ),
        "mine": me.side_cards("me"),
        "theirs": me.side_cards("opponent"),
    }


def test_a_finished_game_replays_downloads_and_opens_again(
    server: ServerProcess, new_context: ContextFactory, tmp_path: Path
) -> None:
    me = Player.open(new_context(), server.url, "replayer")
    me.configure(payoff_size=5, speed="off")
    me.start_computer_game("easy")
    for _ in range(200):
        if me.wait_phase("mine", "over") == "over":
            break
        me.play_greedy_turn()
    final = _final_table(me)
    moves = me.moves_played
    page = me.page

    me.goto("replays")
    page.locator("#replay-list a[data-game]").first.click()
    page.wait_for_url("**/#/replay/*")
    table = page.locator("#table[data-frames]")
    expect(table).to_have_attribute("data-frames", str(moves + 1))
    expect(table).to_have_attribute("data-frame", "0")
    expect(page.locator("#replay-move")).to_contain_text("dealt")
    page.click("#replay-forward")
    expect(table).to_have_attribute("data-frame", "1")
    page.click("#replay-back")
    expect(table).to_have_attribute("data-frame", "0")
    page.click("#replay-end")
    expect(table).to_have_attribute("data-frame", str(moves))
    assert _replay_table(me) == final
    # every card face up: the opponent's hand shows faces, not backs
    expect(page.locator(".seat-opponent .card-back")).to_have_count(0)
    # jump to my second turn (each player counts their own turns, as the end of a game
    # does): the table just before it, then its first move; then play fast to the end
    page.fill("#replay-turn", "2")
    page.click("#replay-jump")
    expect(page.locator("#replay-status")).not_to_contain_text("your turn 2")
    page.click("#replay-forward")
    expect(page.locator("#replay-status")).to_contain_text("your turn 2")
    expect(page.locator("#replay-turn")).to_have_value("2")
    page.select_option("#replay-speed", "fast")
    page.click("#replay-play")
    expect(table).to_have_attribute("data-frame", str(moves), timeout=120_000)
    # the other seat's view: the same game, the table turned round
    page.select_option("#replay-seat", "1")
    assert me.side_cards("opponent") == final["mine"]

    with page.expect_download() as waiting:
        page.click("#replay-download")
    saved = tmp_path / "record.json"
    waiting.value.save_as(saved)

    me.goto("replays")
    page.set_input_files("#replay-file", str(saved))
    expect(page).to_have_url(re.compile(r"#/replay/FILE$"))
    expect(table).to_have_attribute("data-frames", str(moves + 1))
    page.click("#replay-end")
    assert _replay_table(me) == final

    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1, "seed": 3, "moves": ["P-S1"]}', encoding="utf-8")
    me.goto("replays")
    page.set_input_files("#replay-file", str(bad))
    error = page.locator("#replay-file-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("cannot be played")
    # the refused file's answer (422) is the only resource error the console may show
    assert [e for e in me.errors if "status of 422" not in e] == []


def test_the_replay_controls_work_on_a_phone_held_upright(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(390, 844), server.url, "upright")
    # A long pay-off pile: with 5 cards one greedy turn could win the game on some deals, and
    # the resign button is hidden once the game is over.
    me.configure(payoff_size=20, speed="off")
    me.start_computer_game("easy")
    me.wait_phase("mine")
    me.play_greedy_turn()
    page = me.page
    page.click("#more-button")  # on a phone the resign button is in the sheet
    page.click("#resign-button")
    page.click("#confirm-yes")
    me.wait_phase("over")
    me.goto("replays")
    page.locator("#replay-list a[data-game]").first.click()
    table = page.locator("#table[data-frames]")
    expect(table).to_have_attribute("data-frame", "0")
    frames = int(table.get_attribute("data-frames") or 0)
    page.click("#replay-end")  # the panel under the table, whole: nothing covers its buttons
    expect(table).to_have_attribute("data-frame", str(frames - 1))
    page.click("#replay-back")
    expect(table).to_have_attribute("data-frame", str(frames - 2))
    expect(page.locator("#replay-move")).not_to_be_empty()
    assert me.errors == []
