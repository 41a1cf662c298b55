"""End to end: the installable app (docs/offline.md). Its manifest and icons load, the service
worker takes control, and with the network cut (``context.set_offline``) the app reloads,
plays a match against Medium to the end in the offline engine (Pyodide in a worker), resumes
a match after the tab is closed, and once back online sends the matches to the server, which
counts them once as offline games and refuses a tampered one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from spite_malice.offline import build
from spite_malice.tutorial import LESSONS

from .conftest import CHROMIUM_ARGS, DEFAULT_TIMEOUT_MS, chromium_path
from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e

MAX_TURNS = 400
ENGINE_TIMEOUT_MS = 120_000
"""How long the engine may take to be fetched and kept (7 MB from this machine, loaded CI)."""


@pytest.fixture(autouse=True)
def _engine_built() -> None:
    problem = build.check()
    if problem is not None:
        pytest.fail(f"{problem}: the offline tests need the engine that make setup builds")


def _controlled(page: Page) -> None:
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def _keep_engine(me: Player) -> None:
    """Settings: turn offline play on, and wait until the engine is kept on this device."""
    page = me.page
    me.goto("settings")
    _controlled(page)
    page.reload()  # opened again: read through the service worker, which keeps it
    _controlled(page)
    page.check("#offline-play")
    expect(page.locator("#offline-status")).to_have_text(
        "Offline play is ready on this device.", timeout=ENGINE_TIMEOUT_MS
    )


def _play_turns(me: Player, turns: int) -> str:
    """Play up to ``turns`` of my turns (greedy); the phase then."""
    for _ in range(turns):
        phase = me.wait_phase("mine", "over")
        if phase == "over":
            return phase
        me.play_greedy_turn()
    return me.phase


def _offline_matches(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
          const db = await new Promise((resolve, reject) => {
            const r = indexedDB.open('spite-malice-offline', 1);
            r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error);
          });
          return await new Promise((resolve) => {
            const r = db.transaction('matches').objectStore('matches').getAll();
            r.onsuccess = () => resolve(r.result);
          });
        }"""
    )
    return found


def _post(page: Page, record: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = page.evaluate(
        """async (record) => {
          const secret = JSON.parse(localStorage.getItem('spite-malice.player-record')).secret;
          const r = await fetch('/api/offline-games', {method: 'POST',
            headers: {'Content-Type': 'application/json', 'X-Player-Secret': secret},
            body: JSON.stringify(record)});
          return {status: r.status, body: await r.json()};
        }""",
        record,
    )
    return answer


@pytest.fixture
def profile_context(browser: Browser, tmp_path: Path) -> Iterator[BrowserContext]:
    """A context with a profile on disk, as a person's browser has (a plain Playwright
    context is an incognito one, where chromium installs nothing)."""
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile",
        executable_path=str(chromium_path()),
        args=CHROMIUM_ARGS,
        viewport={"width": 1280, "height": 900},
    )
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    try:
        yield context
    finally:
        context.close()


def test_the_manifest_and_icons_load_and_the_service_worker_takes_control(
    server: ServerProcess, profile_context: BrowserContext
) -> None:
    me = Player.open(profile_context, server.url, "installer")
    page = me.page
    me.goto("play")
    href = page.get_attribute("link[rel=manifest]", "href")
    assert href == "/manifest.webmanifest"
    manifest = page.evaluate("async (u) => (await fetch(u)).json()", href)
    assert manifest["display"] == "standalone" and manifest["start_url"]
    assert manifest["theme_color"] and manifest["background_color"] and manifest["lang"] == "en"
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= set(sizes)
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        width = page.evaluate(
            """async (src) => { const i = new Image(); i.src = src; await i.decode();
                return i.naturalWidth; }""",
            icon["src"],
        )
        assert f"{width}x{width}" == icon["sizes"]
    _controlled(page)
    assert page.evaluate("async () => (await navigator.serviceWorker.ready).active.scriptURL")
    # chromium itself sees an installable app (its own check, through the DevTools protocol)
    session = page.context.new_cdp_session(page)
    assert session.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    manifest_check = session.send("Page.getAppManifest")
    assert manifest_check["errors"] == [], manifest_check["errors"]
    assert me.errors == []


def _offline_lesson(page: Page) -> None:
    """Play the first lesson to its end with no network (the offline engine answers)."""
    lesson = LESSONS[0]
    page.goto(page.url.split("#")[0] + f"#/tutorial/{lesson.key}")
    panel = page.locator(".tutorial-panel")
    expect(panel).to_have_attribute("data-answers", "1")
    expect(page.locator("#tutorial-say")).to_contain_text(lesson.steps[0].say)
    for answers, example in enumerate(lesson.examples, start=2):
        source, target = example.split("-")
        page.locator(f"#tutorial-table [data-source='{source}']").first.click()
        if target.startswith("C"):
            page.locator(f"#tutorial-table .center-stack[data-target='{target}']").click()
        else:
            page.locator(f"#tutorial-table button[data-discard='{target}']").click()
        expect(panel).to_have_attribute("data-answers", str(answers))
    expect(panel).to_have_attribute("data-finished", "yes")


def _page_errors(me: Player) -> list[str]:
    """The page's errors, but for the requests that fail while the network is cut."""
    return [e for e in me.errors if "Failed to load resource" not in e]


def _reopen(context: BrowserContext, me: Player, route: str) -> Player:
    """Close the tab and open the app again (the same browser: its storage kept)."""
    me.page.close()
    again = Player.open(context, me.base, "again")
    again.name = me.name
    again.goto(route)
    return again


def _give_up_in_the_lobby(me: Player, room: str) -> None:
    """The lobby's Give up for an offline match: asked first, then the match is over."""
    page = me.page
    me.goto("play")
    item = page.locator(f'#resume-list [data-room="{room}"]')
    item.locator("button.give-up").click()
    expect(page.locator("dialog[open]")).to_contain_text("counts as a loss")
    page.click("#confirm-yes")
    expect(item).to_have_count(0)
    expect(page.locator(".form-status")).to_contain_text("counts as a loss")
    [given_up] = [m for m in _offline_matches(page) if m["room"] == room]
    assert given_up["record"]["over"] is True
    assert given_up["record"]["steps"][-1]["kind"] == "resign"


def test_offline_a_match_plays_to_the_end_resumes_and_is_counted_back_online(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    context = new_context()
    me = Player.open(context, server.url, "traveller")
    me.configure(payoff_size=5, match_target=1, speed="off", level="medium")
    _keep_engine(me)

    context.set_offline(True)
    me.page.reload()
    _controlled(me.page)
    room = me.start_computer_game("medium", ENGINE_TIMEOUT_MS)
    assert room.startswith("OFF")
    expect(me.page.locator(".seat-opponent .seat-name")).to_have_text("Medium")
    # a hint, from the offline engine (the same hints as the server's)
    if me.wait_phase("mine", "over") == "mine":
        me.page.click("#hint-button")
        expect(me.page.locator("#message")).to_contain_text("Hint: ")
        assert me.page.get_attribute("#table", "data-hint") in me.legal_moves()
    phase = _play_turns(me, 3)

    # closed in the middle of the game and opened again, still offline: it resumes
    moves = me.moves_played
    me = _reopen(context, me, "play")
    if phase != "over":
        me.page.locator(f'#resume-list [data-room="{room}"] a.resume-link').click()
        me.page.wait_for_url(f"**/#/game/{room}")
        me.wait_started(ENGINE_TIMEOUT_MS)  # the page starts its offline engine again
        assert me.moves_played >= moves
    else:
        me.goto(f"game/{room}")
        me.wait_started(ENGINE_TIMEOUT_MS)  # the page starts its offline engine again
    assert _play_turns(me, MAX_TURNS) == "over"
    expect(me.page.locator("#game-over")).to_be_visible()
    [kept] = _offline_matches(me.page)
    assert kept["record"]["over"] is True and kept["sent"] == 0

    # the tutorial's lessons play offline too, by the same clicks
    _offline_lesson(me.page)

    # a second match, given up from the lobby with no network: a lost game, as online
    second = me.start_computer_game("medium", ENGINE_TIMEOUT_MS)
    assert second.startswith("OFF") and second != room
    me.wait_phase("mine", "theirs", "over")
    _give_up_in_the_lobby(me, second)

    # back online: both matches are sent, replayed and counted as offline games
    context.set_offline(False)
    me.page.evaluate("() => window.spiteMaliceOffline.sendOfflineGames()")
    me.goto("stats")
    expect(me.page.locator("#offline-stats-table tfoot [data-col=games]")).to_have_text(
        "2", timeout=30_000
    )
    losses = me.page.locator("#offline-stats-table tfoot [data-col=losses]")
    expect(losses).to_have_text(str(1 + (kept["record"]["score"][1] > 0)))
    expect(me.page.locator("#stats-table")).to_have_count(0)  # none on the server

    # the same match sent again counts once; a tampered one is refused with a reason
    record = next(m["record"] for m in _offline_matches(me.page) if m["room"] == room)
    again = _post(me.page, record)
    assert again["status"] == 200 and again["body"]["counted_games"] == 0
    forged = json.loads(json.dumps(record))
    forged["id"] = "f" * 32
    mover = next(s for s in forged["steps"] if s["kind"] == "move")  # an illegal move: any seat
    mover["move"] = "P-C9"
    refused = _post(me.page, forged)
    assert refused["status"] == 422
    assert "does not replay" in refused["body"]["error"]["message"]
    me.page.reload()
    expect(me.page.locator("#offline-stats-table tfoot [data-col=games]")).to_have_text("2")

    # a tampered match kept on the device: the page sends it, and says why it was refused
    me.page.evaluate(
        """async (record) => {
          const db = await new Promise((resolve, reject) => {
            const r = indexedDB.open('spite-malice-offline', 1);
            r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error);
          });
          await new Promise((resolve) => {
            const r = db.transaction('matches', 'readwrite').objectStore('matches')
              .put({id: record.id, room: record.room, record, saved: Date.now(), sent: 0});
            r.onsuccess = resolve;
          });
          await window.spiteMaliceOffline.sendOfflineGames();
        }""",
        forged,
    )
    expect(me.page.locator("#offline-refused")).to_contain_text("does not replay")
    me.page.reload()
    expect(me.page.locator("#offline-stats .offline-refused")).to_contain_text("does not replay")
    expect(me.page.locator("#offline-stats-table tfoot [data-col=games]")).to_have_text("2")
    assert _page_errors(me) == []


def test_an_update_of_the_page_reaches_an_open_app_without_breaking_its_game(
    own_server: ServerProcess, new_context: ContextFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    context = new_context()
    me = Player.open(context, own_server.url, "updater")
    me.configure(payoff_size=5, match_target=1, speed="off", level="medium")
    _keep_engine(me)
    page = me.page
    old = page.evaluate("async () => (await fetch('/sw.js')).text()")

    context.set_offline(True)
    page.reload()
    room = me.start_computer_game("medium", ENGINE_TIMEOUT_MS)
    _play_turns(me, 1)

    # a new version is published while the app is open; the app finds it in the background
    context.set_offline(False)
    own_server.stop()
    monkeypatch.setenv("SPITE_MALICE_PAGE_VERSION", "next")
    own_server.start()
    assert page.evaluate("async () => (await fetch('/sw.js')).text()") != old
    page.evaluate("() => window.spiteMaliceOffline.checkForUpdate()")
    offer = page.locator("#update-ready")
    expect(offer).to_be_visible(timeout=60_000)
    # nothing reloads by itself: the game goes on under the offer
    assert me.room == room
    if me.phase == "mine":
        me.play_greedy_turn()
    moves = me.moves_played
    over = page.locator("#game-over")
    if over.is_visible():  # that turn (or the computer's) ended the match: look at the table
        page.keyboard.press("Escape")
        expect(over).to_be_hidden()
    page.locator("#update-ready-action").click()
    page.wait_for_function(
        "() => !document.getElementById('update-ready')"
        " && document.body.classList.contains('ready')"
    )
    me.wait_started(ENGINE_TIMEOUT_MS)  # the page starts its offline engine again
    assert me.room == room and me.moves_played >= moves
    assert page.evaluate(
        "async () => (await navigator.serviceWorker.getRegistration()).waiting === null"
    )
    assert _play_turns(me, MAX_TURNS) == "over"
    assert _page_errors(me) == []
