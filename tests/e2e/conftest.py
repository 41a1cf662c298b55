"""Fixtures of the end-to-end tests: Debian's chromium driven by Playwright, and the real
server in a child process on a fresh SQLite file.

The browser is never downloaded: it is the one at $SPITE_MALICE_CHROMIUM (default
/usr/bin/chromium, the Debian package that ``.ci/run`` installs); without it, the tests skip.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, expect, sync_playwright

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
    return Path(os.environ.get("SPITE_MALICE_CHROMIUM", "/usr/bin/chromium"))


# Package scope: Playwright's sync API runs an event loop in this thread while it is open;
# closing it when the browser tests end leaves the thread free for asyncio tests after them.
@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    path = chromium_path()
    if not path.exists():
        pytest.skip(
            f"no chromium at {path}: install Debian's chromium (apt-get install chromium) or "
            "set SPITE_MALICE_CHROMIUM to a chromium executable"
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(path), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


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


@pytest.fixture
def new_context(browser: Browser) -> Iterator[ContextFactory]:
    """A factory of fresh browser contexts (separate storage: separate players)."""
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
