"""End to end: a server without the offline engine's build (docs/offline.md). Settings says
offline play is not installed; a match against the computer started with no network says so
under its button, in sight on a phone; online, the lobby and a match play as ever."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Route, expect

from .player import ContextFactory, Player
from .server import ServerProcess
from .test_offline import _controlled, _page_errors, engine_build_as

pytestmark = pytest.mark.e2e

NOT_INSTALLED = "Offline play is not installed on this device. Connect to the internet to play."


@pytest.fixture
def unbuilt_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, browser: Browser
) -> Iterator[ServerProcess]:
    """A server whose offline engine is not built (its build folder is an empty one)."""
    engine_build_as(monkeypatch, tmp_path / "unbuilt", None)
    process = ServerProcess(db=tmp_path / "unbuilt.sqlite", log=tmp_path / "unbuilt.log")
    process.start()
    try:
        yield process
    finally:
        process.stop()


def _not_found(route: Route) -> None:
    route.fulfill(status=404, body="Not Found")


def test_without_the_engine_the_lobby_says_so_by_its_button_and_online_play_works(
    unbuilt_server: ServerProcess, new_context: ContextFactory
) -> None:
    context = new_context(width=390, height=844)
    # nor are its files there to fetch (the server serves its static folder as it is)
    context.route("**/static/offline/build/**", _not_found)
    me = Player.open(context, unbuilt_server.url, "unbuilt")
    me.configure(payoff_size=5, match_target=1, speed="off", level="easy")
    page = me.page
    _controlled(page)
    expect(page.locator("#offline-status")).to_have_text(
        "Offline play is not installed on this server."
    )

    # no network: the app opens, and a match against the computer says why it cannot start,
    # under the button pressed, with no scrolling
    context.set_offline(True)
    me.goto("play")
    _controlled(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    start = page.locator("#start-computer")
    expect(start).to_be_in_viewport()
    start.click()
    said = page.get_by_text(NOT_INSTALLED)
    expect(said).to_be_visible()
    expect(said).to_be_in_viewport()
    assert page.evaluate("() => window.scrollY") == 0
    card = page.locator(".card-box", has=start)
    expect(card.get_by_text(NOT_INSTALLED)).to_be_visible()  # next to the button
    expect(start).to_be_enabled()  # it may be pressed again once the network is back

    # online: everything else works (the lobby, a match against the computer, its moves)
    context.set_offline(False)
    page.reload()
    expect(page.get_by_text(NOT_INSTALLED)).to_have_count(0)
    room = me.start_computer_game("easy")
    assert not room.startswith("OFF")  # the server's room
    if me.wait_phase("mine", "theirs") == "mine":
        me.play_move(me.greedy_choice(me.legal_moves()))
    page.wait_for_function(
        "() => Number(document.querySelector('#table').dataset.moves) > 0", polling=100
    )
    assert _page_errors(me) == []
