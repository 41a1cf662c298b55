"""End to end: the installable app (docs/offline.md). Its manifest and icons load, the service
worker takes control, and with the network cut (``context.set_offline``) the app reloads,
plays a match against Medium to the end in the offline engine (Pyodide in a worker), resumes
a match after the tab is closed, and once back online sends the matches to the server, which
counts them once as offline games and refuses a tampered one."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from spite_malice.i18n import catalog
from spite_malice.offline import build
from spite_malice.tutorial import LESSONS
from spite_malice.web import pwa

from .conftest import CHROMIUM_ARGS, DEFAULT_TIMEOUT_MS, shell_path
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
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=100)


def _keep_engine(me: Player, fetched: list[str] | None = None) -> None:
    """Settings: turn offline play on, and wait until the engine is kept on this device;
    ``fetched``: the engine's files asked for so far, none (offline play was off)."""
    page = me.page
    me.goto("settings")
    _controlled(page)
    page.reload()  # opened again: read through the service worker, which keeps it
    _controlled(page)
    if fetched is not None:
        expect(page.locator("#offline-play")).not_to_be_checked()
        assert fetched == [], "the page fetched the offline engine while offline play was off"
    page.check("#offline-play")
    expect(page.locator("#offline-status")).to_have_text(
        "Offline play is ready on this device.", timeout=ENGINE_TIMEOUT_MS
    )


def _kept(page: Page, prefix: str) -> set[str]:
    """The paths under ``prefix`` that the service worker's caches hold."""
    found: list[str] = page.evaluate(
        """async (prefix) => {
          const paths = [];
          for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) {
              const path = new URL(request.url).pathname;
              if (path.startsWith(prefix)) paths.push(path);
            }
          }
          return paths;
        }""",
        prefix,
    )
    return set(found)


def _sounds() -> set[str]:
    """The page's sounds, which offline play keeps."""
    sounds = {url for url in pwa.worker_config()["extras"] if url.startswith("/static/sounds/")}
    assert sounds, "the page has no sounds to keep"
    return sounds


def _undoable(me: Player, move: str) -> bool:
    """A move undo takes back: a build from a side stack, or from a hand of more than one
    card (a pay-off build or the last hand card turns cards up, R3.4(a) and (c))."""
    return bool(re.fullmatch(r"S\d-C\d", move)) or (
        bool(re.fullmatch(r"H.-C\d", move)) and len(me.hand()) > 1
    )


def _undo_a_build(me: Player) -> None:
    """Play a build that undo takes back, and take it back."""
    page = me.page
    legal = me.play_until_legal(lambda moves: any(_undoable(me, m) for m in moves))
    moves = me.moves_played
    me.play_move(next(m for m in legal if _undoable(me, m)))
    me.wait_phase("mine")
    page.click("#undo-button")
    page.wait_for_function(
        "(moves) => Number(document.querySelector('#table').dataset.moves) === moves",
        arg=moves,
        polling=100,
    )
    expect(page.locator("#message")).to_contain_text("Move taken back")


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
        executable_path=str(shell_path()),
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
    link = page.locator("link[rel=manifest]")
    expect(link).to_have_attribute("href", "/manifest.webmanifest?lang=en")
    href = link.get_attribute("href")
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

    # a language chosen in Settings reaches the manifest chromium reads (the installed app's
    # description in it)
    me.goto("settings")
    page.select_option("#language", "pt")
    expect(link).to_have_attribute("href", "/manifest.webmanifest?lang=pt")
    portuguese = catalog("pt").gettext(manifest["description"])
    assert portuguese != manifest["description"]
    page.wait_for_function(
        "async (text) => (await (await fetch(document.querySelector('link[rel=manifest]').href))"
        ".json()).description === text",
        arg=portuguese,
        polling=100,
    )
    read = session.send("Page.getAppManifest")
    assert read["url"].endswith("/manifest.webmanifest?lang=pt") and read["errors"] == []
    assert json.loads(read["data"])["lang"] == "pt"
    assert json.loads(read["data"])["description"] == portuguese
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
        assert target.startswith("C"), "the first lesson plays to the centre only"
        page.locator(f"#tutorial-table [data-source='{source}']").first.click()
        page.locator(f"#tutorial-table .center-stack[data-target='{target}']").click()
        expect(panel).to_have_attribute("data-answers", str(answers))
    expect(panel).to_have_attribute("data-finished", "yes")


def _choose_language(me: Player, language: str) -> None:
    """Settings: speak ``language`` (the page is drawn again in it once it is saved, or kept
    on this device when the server cannot be reached)."""
    me.goto("settings")
    me.page.select_option("#language", language)
    expect(me.page.locator("#language-status")).to_have_attribute("lang", language)


def _speaks(page: Page, language: str) -> None:
    """The page, once started (it may first speak this device's choice, then the server's
    copy of the settings), speaks ``language``."""
    page.wait_for_function("() => document.body.classList.contains('ready')", polling=100)
    expect(page.locator("html")).to_have_attribute("lang", language)
    play = catalog(language).gettext("Play")
    expect(page.locator(".nav a[data-route=play]")).to_have_text(play)


def _server_settings(page: Page, name: str) -> dict[str, Any]:
    """This player's settings as the server keeps them."""
    answer: dict[str, Any] = page.evaluate(
        """async (name) => {
          const secret = JSON.parse(localStorage.getItem('spite-malice.player-record')).secret;
          const r = await fetch('/api/settings?player=' + encodeURIComponent(name),
            {headers: {'X-Player-Secret': secret}, cache: 'no-store'});
          return await r.json();
        }""",
        name,
    )
    return answer


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
    engine_fetched: list[str] = []
    context.on(
        "request",
        lambda r: engine_fetched.append(r.url) if "/static/offline/build/" in r.url else None,
    )
    me = Player.open(context, server.url, "traveller")
    me.configure(payoff_size=5, match_target=1, speed="off", level="medium")
    _keep_engine(me, engine_fetched)  # offline play off: the page never fetched the engine
    assert _kept(me.page, "/static/sounds/") == _sounds()  # kept with the engine

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
    _undo_a_build(me)  # undo too
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

    # the statistics open with no network, and say when the offline games are counted
    me.goto("stats")
    expect(me.page.locator("#offline-stats")).to_contain_text(
        "counted once the server can be reached"
    )

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

    # the language chosen last wins with no network: chosen just before the network went...
    _choose_language(me, "ru")
    _choose_language(me, "it")
    context.set_offline(True)
    me = _reopen(context, me, "play")
    _speaks(me.page, "it")
    # ... and chosen with none: kept on reopening, and the server told once it answers
    _choose_language(me, "pt")
    me = _reopen(context, me, "play")
    _speaks(me.page, "pt")
    context.set_offline(False)
    me.page.reload()
    _speaks(me.page, "pt")
    assert _server_settings(me.page, me.name)["language"] == "pt"
    assert _page_errors(me) == []


def _split_worker(body: str) -> tuple[dict[str, Any], str]:
    """/sw.js: its CONFIG (see pwa.worker_config), and the script after it."""
    head, _, script = body.partition("\n")
    prefix = "const CONFIG = "
    assert head.startswith(prefix) and head.endswith(";"), head[:80]
    config: dict[str, Any] = json.loads(head[len(prefix) : -1])
    return config, script


ENGINE_BUILD_ENV = "SPITE_MALICE_TEST_ENGINE_BUILD"
SITECUSTOMIZE = f"""# the e2e tests' server: the offline engine's build as another folder says it is
import os
from pathlib import Path

from spite_malice.offline import build

build.OUT = Path(os.environ["{ENGINE_BUILD_ENV}"])
"""


def engine_build_as(
    monkeypatch: pytest.MonkeyPatch, folder: Path, manifest: dict[str, Any] | None
) -> None:
    """Servers started from now on tell the page (``/sw.js``, pwa.worker_config) that the
    offline engine's build is the one whose manifest is ``manifest`` (None: none is built):
    the server reads it from ``folder`` (a ``sitecustomize`` on the server's PYTHONPATH
    points spite_malice.offline.build.OUT there); the files it serves stay the real ones."""
    folder.mkdir(parents=True)
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE)
    if manifest is not None:
        (folder / build.MANIFEST).write_text(json.dumps(manifest))
    paths = [str(folder), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    monkeypatch.setenv(ENGINE_BUILD_ENV, str(folder))


def _publish_engine_build(
    context: BrowserContext, monkeypatch: pytest.MonkeyPatch, folder: Path, version: str
) -> list[str]:
    """Servers started from now on publish another build of the offline engine, ``version``:
    the same files but for the package's archive, whose hash changed (the service worker's
    fetches of the manifest are answered so), so that it alone is fetched again. Returns the
    engine files the service worker fetches from the network from now on."""
    written = json.loads((build.OUT / build.MANIFEST).read_text())
    written["version"] = version
    written["files"][build.ARCHIVE]["sha256"] = "0" * 64
    engine_build_as(monkeypatch, folder, written)
    fetched: list[str] = []
    context.on(
        "request",
        lambda r: (
            fetched.append(urlparse(r.url).path)
            if r.service_worker is not None and "/static/offline/build/" in r.url
            else None
        ),
    )

    def manifest(route: Route) -> None:
        route.fulfill(response=route.fetch(), json=written)

    context.route(f"**/static/offline/build/{build.MANIFEST}", manifest)
    return fetched


def _cache_names(page: Page) -> list[str]:
    names: list[str] = page.evaluate("async () => await caches.keys()")
    return names


def _engine_kept(page: Page, cache: str) -> set[str]:
    found: list[str] = page.evaluate(
        """async (name) => (await (await caches.open(name)).keys())
            .map((r) => new URL(r.url).pathname)""",
        cache,
    )
    return set(found)


def test_an_update_of_the_page_and_its_engine_reaches_an_open_app_without_breaking_its_game(
    own_server: ServerProcess,
    new_context: ContextFactory,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
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
    # (the page and the engine's build: the new engine must be kept before the update is
    # offered, the old one until then, for the network may be gone when the player agrees)
    old_engine = f"engine-{_split_worker(old)[0]['engine_version']}"
    assert old_engine in _cache_names(page)
    context.set_offline(False)
    own_server.stop()
    monkeypatch.setenv("SPITE_MALICE_PAGE_VERSION", "next")
    fetched = _publish_engine_build(context, monkeypatch, tmp_path / "next", "next-engine")
    own_server.start()
    assert page.evaluate("async () => (await fetch('/sw.js')).text()") != old
    page.evaluate("() => window.spiteMaliceOffline.checkForUpdate()")
    offer = page.locator("#update-ready")
    expect(offer).to_be_visible(timeout=60_000)
    engine_files = {urlparse(url).path for url in pwa.worker_config()["engine"]}
    assert _engine_kept(page, "engine-next-engine") == engine_files
    assert old_engine in _cache_names(page)  # the open app still runs on it
    # only what changed came from the network: the rest was copied from the old engine
    assert sorted(set(fetched)) == [
        f"/static/offline/build/{build.MANIFEST}",
        f"/static/offline/build/{build.ARCHIVE}",
    ]
    # nothing reloads by itself: the game goes on under the offer
    assert me.room == room
    if me.phase == "mine":
        me.play_greedy_turn()
    moves = me.moves_played
    over = page.locator("#game-over")
    if over.is_visible():  # that turn (or the computer's) ended the match: look at the table
        page.keyboard.press("Escape")
        expect(over).to_be_hidden()
    context.set_offline(True)  # the network lost just before the player agrees
    page.locator("#update-ready-action").click()
    page.wait_for_function(
        "() => !document.getElementById('update-ready')"
        " && document.body.classList.contains('ready')",
        polling=100,
    )
    me.wait_started(ENGINE_TIMEOUT_MS)  # the page starts its (new) offline engine again
    assert me.room == room and me.moves_played >= moves
    assert page.evaluate(
        "async () => (await navigator.serviceWorker.getRegistration()).waiting === null"
    )
    engines = [name for name in _cache_names(page) if name.startswith("engine-")]
    assert engines == ["engine-next-engine"]  # the old one gone, once the new one was whole
    assert _kept(page, "/static/sounds/") == _sounds()  # the new version kept them too
    # the new engine plays the game on: my turn, and the computer's answer (a match played to
    # its end after its engine started again is test_offline_a_match_plays_to_the_end_...'s
    # check, by the same engine's code: this one needs only that the new engine took it over)
    moves = me.moves_played
    if _play_turns(me, 1) != "over":
        me.wait_phase("mine", "over")  # the computer's turn, played by the new engine
        assert me.moves_played > moves
    assert _page_errors(me) == []
