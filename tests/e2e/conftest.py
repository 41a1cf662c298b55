"""Fixtures of the end-to-end tests: Debian's chromium driven by Playwright, and the real
server in a child process on a fresh SQLite file.

The browsers are never downloaded. Most tests run in chromium's headless shell, at
$SPITE_MALICE_CHROMIUM_SHELL (default /usr/bin/chromium-headless-shell, Debian's package
chromium-headless-shell): the same engine without the browser's window machinery, which
costs the machine about a fifth less a test (docs/measurements/2026-12-07-suite.md). The
tests of notifications, which the shell does not have, run in the whole browser at
$SPITE_MALICE_CHROMIUM (default /usr/bin/chromium, Debian's package chromium), through
``new_full_context``. Without the shell, every test runs in the whole browser; without the
whole browser, the tests skip. ``.ci/run`` installs both.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright, expect, sync_playwright

from .player import ContextFactory
from .server import ServerProcess

pytestmark = pytest.mark.e2e

CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DEFAULT_TIMEOUT_MS = 20_000
"""How long an action or an expectation waits for the page: generous, for a loaded CI."""
expect.set_options(timeout=DEFAULT_TIMEOUT_MS)


def chromium_path() -> Path:
    """The whole browser."""
    return Path(os.environ.get("SPITE_MALICE_CHROMIUM", "/usr/bin/chromium"))


def shell_path() -> Path:
    """The headless shell, or the whole browser where there is no shell."""
    shell = Path(os.environ.get("SPITE_MALICE_CHROMIUM_SHELL", "/usr/bin/chromium-headless-shell"))
    return shell if shell.exists() else chromium_path()


# Package scope: Playwright's sync API runs an event loop in this thread while it is open;
# closing it when the browser tests end leaves the thread free for asyncio tests after them.
@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    path = chromium_path()
    if not path.exists():
        pytest.skip(
            f"no chromium at {path}: install Debian's chromium (apt-get install chromium) or "
            "set SPITE_MALICE_CHROMIUM to a chromium executable"
        )
    with sync_playwright() as playwright:
        yield playwright


def _launch(playwright: Playwright, path: Path) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=str(path), args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """The headless shell (see the module's text)."""
    yield from _launch(playwright, shell_path())


@pytest.fixture(scope="package")
def full_browser(playwright: Playwright) -> Iterator[Browser]:
    """The whole browser, for what the shell lacks: notifications."""
    yield from _launch(playwright, chromium_path())


def _server(tmp_path: Path, name: str) -> ServerProcess:
    return ServerProcess(db=tmp_path / f"{name}.sqlite", log=tmp_path / f"{name}.log")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[ServerProcess]:
    """One server per test module (tests use distinct player names, so they do not meet).
    It asks for the browser first, so that without chromium no server is started."""
    process = _server(tmp_path_factory.mktemp("server"), "shared")
    process.start()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture
def own_server(tmp_path: Path, browser: Browser) -> Iterator[ServerProcess]:
    """A server for one test alone (the restart test kills it)."""
    process = _server(tmp_path, "own")
    process.start()
    try:
        yield process
    finally:
        process.stop()


def _contexts(browser: Browser) -> Iterator[ContextFactory]:
    contexts: list[BrowserContext] = []

    def make(width: int = 1280, height: int = 900, locale: str | None = None) -> BrowserContext:
        # locale: the browser's language (navigator.languages and Accept-Language)
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def new_context(browser: Browser) -> Iterator[ContextFactory]:
    """A factory of fresh browser contexts (separate storage: separate players)."""
    yield from _contexts(browser)


@pytest.fixture
def new_full_context(full_browser: Browser) -> Iterator[ContextFactory]:
    """The same in the whole browser (notifications)."""
    yield from _contexts(full_browser)
