"""End to end: the end of a game (issue 17, item 7, the part the page can do now): who won
and why, the points, and the game's figures (turns, cards built, discards, stacks
completed), counted from the game's public events and checked against its move count; the
hidden cards revealed, the deal verified; the finished game's replay, its record downloaded
and opened again (issue 14, item 2), and "where did I lose", its analysis.

One game, played to its end by clicking, serves every test here that looks at a finished
game (the fixture ``finished``): what each checks comes after the end, and playing a whole
game for each cost the machine a game's clicks apiece."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, Route, expect

from spite_malice.engine import card_str
from spite_malice.store import Store

from .conftest import DEFAULT_TIMEOUT_MS
from .player import ContextFactory, Player, choose_deal
from .server import ServerProcess
from .test_plain_play import notation_in_player_text

pytestmark = pytest.mark.e2e


FINISHED_SEED = 59
"""The practice deal of the finished game: with payoff 5 and the greedy turns of
``Player.play_greedy_turn`` against Easy (the computer follows the seed too), Easy wins in 17
moves; I play 4 turns (a build from my pay-off pile among them) and Easy 5 (a secret deal's
game was about 60 moves in the median of 300, and its length varied). Four turns of mine are
more than the replay's jump to my second turn needs, and a game known in advance makes the
replay and the analysis the same work every run. Found once by playing seeds 0-299 with the
engine and the bots (``spite_malice.table.Table``, ``greedy_move`` against Easy) and taking
a short game with several turns of mine."""


@dataclass
class Finished:
    """A game against Easy played to its end by clicking, and what was seen on the way."""

    me: Player
    room: str
    commitment_text: str
    """The game info's commitment to the deal, as it read at the start."""
    commitment: str | None
    """Its whole hash (the note's title)."""
    reveals_while_played: int
    """How many reveal sections the page held while the game was played (none: the server
    sends none)."""
    final: dict[str, object]
    """The table at the end: the center and both players' side stacks."""
    moves: int
    played_errors: list[str]
    """The page's errors while the game was played."""


def _final_table(me: Player) -> dict[str, object]:
    snap = me.snapshot()
    return {
        "center": snap["center"],
        "mine": me.side_cards("me"),
        "theirs": me.side_cards("opponent"),
    }


@pytest.fixture(scope="module")
def finished(server: ServerProcess, browser: Browser) -> Iterator[Finished]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    choose_deal(context, FINISHED_SEED)
    try:
        me = Player.open(context, server.url, "finisher")
        me.configure(payoff_size=5, speed="off")
        me.start_computer_game("easy")
        page = me.page
        note = page.locator("#deal-commitment")
        expect(note).to_contain_text("deal ")
        commitment_text, commitment = note.inner_text(), note.get_attribute("title")
        reveals = page.locator("#reveal").count()
        for _ in range(200):
            if me.wait_phase("mine", "over") == "over":
                break
            me.play_greedy_turn()
        expect(page.locator("#game-over")).to_be_visible()
        yield Finished(
            me,
            me.room,
            commitment_text,
            commitment,
            reveals,
            _final_table(me),
            me.moves_played,
            list(me.errors),
        )
    finally:
        context.close()


def end_screen(finished: Finished) -> Locator:
    """The finished game's end-of-game screen: the one shown when the game ended, or (a test
    here left the game's page before) the one the game's page shows when opened again."""
    me = finished.me
    if not me.page.url.endswith(f"#/game/{finished.room}"):
        me.goto(f"game/{finished.room}")
        me.wait_phase("over")
    dialog = me.page.locator("#game-over")
    expect(dialog).to_be_visible()
    return dialog


def test_the_game_over_screen_says_why_and_counts_the_game(finished: Finished) -> None:
    me = finished.me
    seen = len(me.errors)
    dialog = end_screen(finished)
    text = dialog.inner_text()
    if "A draw" not in text:
        assert "emptied" in text and "pay-off pile" in text, text
    figures = dialog.locator("#game-figures")
    expect(figures).to_be_visible()
    cells = figures.locator("tbody td").all_inner_texts()
    turns_me, turns_opp, built_me, built_opp, discards_me, discards_opp = map(int, cells)
    # Every move of the game is a build or a discard: the figures add up to the move count.
    assert built_me + built_opp + discards_me + discards_opp == finished.moves
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
    assert finished.played_errors == [] and me.errors[seen:] == []


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
    server: ServerProcess, finished: Finished
) -> None:
    me = finished.me
    seen = len(me.errors)
    page = me.page
    # While the game was played the page held no reveal (the server sends none).
    assert finished.reveals_while_played == 0
    end_screen(finished)
    page.click("#reveal summary")
    expect(page.locator("#reveal [data-part=stock] [data-card]").first).to_be_visible()
    shown = reveal_on_page(page)
    assert shown == stored_reveal(server, finished.room)
    # the end screen and its reveal speak in words: no notation outside the move log
    assert notation_in_player_text(page) == []
    # the opponent's hand was never on the table: the reveal names it, card by card
    names = page.locator('#reveal [data-part=hand][data-seat="1"] [data-card]')
    assert names.count() == len(shown["hands"][1])
    if names.count():
        assert " of " in (names.first.get_attribute("aria-label") or "")
    assert finished.played_errors == [] and me.errors[seen:] == []


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
    finished: Finished,
) -> None:
    """docs/verifying.md: the game info shows the commitment from the deal on; at the end,
    "Verify the deal" checks the revealed seed and salt in the browser and the replay from
    the seed on the server, and says so in plain words."""
    seen = len(finished.me.errors)
    committed = finished.commitment
    assert committed is not None and len(committed) == 64
    assert committed[:12] in finished.commitment_text
    dialog = end_screen(finished)
    dialog.locator("#verify-deal").click()
    checks = dialog.locator("#verify-checks")
    expect(checks).to_have_attribute("data-ok", "yes")
    expect(checks).to_contain_text("Checked in this browser: the seed and the salt revealed make")
    expect(checks).to_contain_text("the seed was fixed before the first move")
    expect(checks).to_contain_text("The deal is verified.")
    assert finished.played_errors == [] and finished.me.errors[seen:] == []


def _replay_table(me: Player) -> dict[str, object]:
    return {
        "center": me.page.eval_on_selector_all(
            ".center-stack", "nodes => nodes.map(n => n.getAttribute('aria-label'))"
        ),
        "mine": me.side_cards("me"),
        "theirs": me.side_cards("opponent"),
    }


def test_a_finished_game_replays_downloads_and_opens_again(
    finished: Finished, tmp_path: Path
) -> None:
    me = finished.me
    seen = len(me.errors)
    final = finished.final
    moves = finished.moves
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
    assert [e for e in me.errors[seen:] if "status of 422" not in e] == []


ANALYSIS_TIMEOUT_MS = 300_000
"""The analysis at the default setting takes seconds of CPU; a loaded CI gets minutes."""

WORKING_OUT = "Working out the time left…"
ABOUT = re.compile(r"About \d+ (second|minute)s? left\.")
"""The time left as js/analysis.js says it in English, before and after a decision is done."""
RUNNING_STATUS = {"state": "running", "done": 0, "total": 10}
"""An analysis's status while it runs (web-protocol 2.8)."""

WATCH_ETA_JS = """() => {
  window.etaSeen = [];
  const note = () => {
    const state = document.getElementById('analysis-state');
    const eta = document.getElementById('analysis-eta');
    if (!state || !eta) return;
    const seen = [state.textContent, eta.textContent];
    const last = window.etaSeen[window.etaSeen.length - 1];
    if (!last || last[0] !== seen[0] || last[1] !== seen[1]) window.etaSeen.push(seen);
  };
  new MutationObserver(note).observe(document.body,
    { childList: true, subtree: true, characterData: true });
}"""


def test_the_report_appears_after_a_game(finished: Finished) -> None:
    """ "Where did I lose": asked after a game, the analysis runs on the server with its
    progress shown, and the report appears, in plain words (the costliest turns, numbered as
    the player counts them, in whole pay-off cards), with the better turn on the table."""
    me = finished.me
    seen = len(me.errors)
    page = me.page
    end_screen(finished).locator(
        "#dialog-replays"
    ).click()  # from the end-of-game box to the list of replays
    page.wait_for_url("**/#/replays")
    # Every text the time left shows while the analysis runs, kept (it changes with every
    # poll). A game this short is analysed between two polls of the page, so the page's
    # first two polls get a running analysis's status (none done, then 4 of 10), to see
    # what it says then; the polls after them get the server's.
    page.evaluate(WATCH_ETA_JS)
    running_status = iter([RUNNING_STATUS, {**RUNNING_STATUS, "done": 4}])

    def poll(route: Route) -> None:
        status = next(running_status, None) if route.request.method == "GET" else None
        if status is None:
            route.continue_()
        else:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(status))

    page.context.route(re.compile(r".*/api/games/[^/]+/analysis$"), poll)
    page.locator("#replay-list a[data-analyse]").first.click()
    page.wait_for_url("**/#/replay/*")
    expect(page.locator("#analysis-state")).to_be_visible()  # the progress, while it runs
    report = page.locator("#analysis-report")
    expect(report).to_be_visible(timeout=ANALYSIS_TIMEOUT_MS)
    shown: list[list[str]] = page.evaluate("() => window.etaSeen")
    running = [eta for state, eta in shown if state.startswith("Looking at your turns: ")]
    # While the decisions are counted the time left is said, never an empty line: "Working
    # out" until a decision is done, then "About N seconds left."
    assert running[:1] == [WORKING_OUT], f"time left shown: {shown}"
    assert any(ABOUT.fullmatch(eta) for eta in running), f"time left shown: {shown}"
    assert all(eta == WORKING_OUT or ABOUT.fullmatch(eta) for eta in running), shown
    expect(page.locator("#analysis-total")).to_contain_text("your")
    expect(report).not_to_contain_text(re.compile(r"\d[.,]\d"))  # never a fraction
    expect(report).not_to_contain_text("expected")
    turns = page.locator("#analysis-worst .analysis-turn")
    if turns.count():
        own_turns = int(re.findall(r"of your (\d+) turns", report.inner_text())[0])
        expect(page.locator("#analysis-worst-title")).to_contain_text("costliest turn")
        for number in turns.evaluate_all("items => items.map(i => Number(i.dataset.turn))"):
            assert 1 <= number <= own_turns  # the player's own count, not both players'
        first = turns.first
        expect(first).to_contain_text("Your turn ")
        expect(first.locator(".analysis-cost")).to_contain_text("pay-off card")
        expect(first.locator(".analysis-reason")).to_contain_text("Why: ")
        first.locator("button[data-show]").click()
        expect(page.locator("#table")).to_have_attribute("data-frame", "analysis")
        expect(page.locator("#table .is-hint").first).to_be_visible()
        expect(page.locator("#replay-move")).to_contain_text("Better: ")
    assert me.errors[seen:] == []
