"""End to end: the notifications of a player's games, shown by the page's service worker,
the one the installed app runs (docs/browser.md, "Notifications"). The server's Web Push
payloads, made by the server's own functions (``web/notifications.py``'s ``payload``,
``notify/push.py``'s ``encode``), are delivered to the service worker through the DevTools
protocol (``ServiceWorker.deliverPushMessage``: the push event a push service's message
raises), and the notifications it shows are read back: one per game (its tag), the newest
replacing the last, another game's beside it. A click on one opens its game: in the app's
window, or in a new one when none is open or the one open was reloaded past the service
worker (Shift+Reload), which cannot be taken to another page.

A click on a notification is made by a person: no protocol makes one, and the browser lets
only that click focus or open a window. The click test dispatches ``notificationclick``
in the service worker with the notification it showed, so that ``sw.js``'s handler runs on
it; focusing the window and opening one are recorded instead of done (the browser refuses
them to such an event), while closing the notification and taking the open page to the game
are the browser's own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, CDPSession, Page, Worker

from spite_malice.i18n import use_language
from spite_malice.notify import push
from spite_malice.web.notifications import OVER, REMATCH, REMINDER, TURN, Event, payload

from .conftest import DEFAULT_TIMEOUT_MS
from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e

SHOWN = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return (await registration.getNotifications()).map((n) => (
    {title: n.title, body: n.body, tag: n.tag, url: n.data?.url ?? null, icon: n.icon}));
}"""
"""The notifications the page's service worker shows now (what ``getNotifications`` says)."""

WATCH = """() => {
  // showNotification, as it was, telling the test when each notification asked is shown:
  // the test reads getNotifications only then (chromium may drop a notification still being
  // shown when getNotifications is read meanwhile)
  const show = ServiceWorkerRegistration.prototype.showNotification;
  const shown = [];
  const waiting = new Set();
  ServiceWorkerRegistration.prototype.showNotification = async function (title, options) {
    await show.call(this, title, options);
    shown.push(options?.tag ?? null);
    for (const wake of waiting) wake();
  };
  self.shownAfter = (count, ms) => new Promise((resolve) => {
    const wake = () => {
      if (shown.length < count) return;
      waiting.delete(wake);
      resolve(shown.length);
    };
    waiting.add(wake);
    setTimeout(() => { waiting.delete(wake); resolve(shown.length); }, ms);
    wake();
  });
}"""
"""Installed in the service worker: ``shownAfter(count, ms)``, the number of notifications
shown so far, once it reaches ``count`` or ``ms`` milliseconds have passed."""


@dataclass
class App:
    """The page with its service worker active, and the DevTools session that pushes to it."""

    me: Player
    cdp: CDPSession
    worker: Worker
    registration: str
    pushed: int = 0
    """Push messages delivered so far."""

    @property
    def page(self) -> Page:
        return self.me.page

    @property
    def origin(self) -> str:
        return self.me.base


def open_app(context: BrowserContext, base: str) -> App:
    """The app opened, its service worker registered, active and in control of the page,
    notifications allowed (as the browser does when the player says yes)."""
    context.grant_permissions(["notifications"], origin=base)
    me = Player.open(context, base, "notified")
    cdp = context.new_cdp_session(me.page)
    registrations: dict[str, str] = {}

    def updated(event: dict[str, Any]) -> None:
        for registration in event["registrations"]:
            if not registration["isDeleted"]:
                registrations[registration["scopeURL"]] = registration["registrationId"]

    cdp.on("ServiceWorker.workerRegistrationUpdated", updated)
    cdp.send("ServiceWorker.enable")
    me.goto("play")
    me.page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=100)
    assert me.page.evaluate("() => Notification.permission") == "granted"
    scope = f"{base}/"
    # the events the protocol sent meanwhile are read as the next command's answer comes
    me.page.evaluate("() => true")
    assert scope in registrations, f"no registration event for {scope}: {registrations}"
    script = f"{base}/sw.js"
    workers = [worker for worker in context.service_workers if worker.url == script]
    worker = (
        workers[0]
        if workers
        else context.wait_for_event("serviceworker", lambda worker: worker.url == script)
    )
    worker.evaluate(WATCH)
    return App(me, cdp, worker, registrations[scope])


def send_push(
    app: App, event: Event, *, language: str = "en", left: str | None = None
) -> dict[str, Any]:
    """Deliver to the service worker what the server sends for ``event`` to a subscription
    in ``language`` (``Notifier._send``); the payload sent."""
    with use_language(language):
        sent = payload(event, left)
    app.cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": app.origin, "registrationId": app.registration, "data": push.encode(sent)},
    )
    app.pushed += 1
    count = app.worker.evaluate(
        "([count, ms]) => self.shownAfter(count, ms)", [app.pushed, DEFAULT_TIMEOUT_MS]
    )
    assert count == app.pushed, f"the push of {sent} showed no notification"
    return sent


def shown(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(SHOWN)
    return sorted(found, key=lambda notification: str(notification["tag"]))


def as_shown(app: App, sent: dict[str, Any]) -> dict[str, Any]:
    """How ``sw.js`` shows the payload ``sent``: its words, its tag, the game's page to open."""
    return {
        "title": sent["title"],
        "body": sent["body"],
        "tag": sent["tag"],
        "url": sent["url"],
        "icon": f"{app.origin}/static/icons/icon-192.png",
    }


def event(room: str, kind: str, opponent: str = "Alice") -> Event:
    return Event(room, 1, "player-id", kind, f"{room}:{kind}", opponent)


def test_each_game_shows_one_notification_the_newest_replacing_the_last(
    server: ServerProcess, new_full_context: ContextFactory
) -> None:
    app = open_app(new_full_context(), server.url)
    page = app.page
    assert shown(page) == []

    turn = send_push(app, event("PUSHA", TURN))
    assert turn["tag"] == "game-PUSHA"
    assert shown(page) == [as_shown(app, turn)]
    assert shown(page)[0]["title"] == "Your turn"

    # the same game again, in another language (the words as the server sends them, UTF-8)
    over = send_push(app, event("PUSHA", OVER), language="fr")
    assert over["title"] == "Partie terminée"
    assert shown(page) == [as_shown(app, over)]  # replaced: one for the game

    # another game: beside the first; its reminder then replaces its rematch offer
    rematch = send_push(app, event("PUSHB", REMATCH, opponent="Zoé"))
    assert shown(page) == [as_shown(app, over), as_shown(app, rematch)]
    reminder = send_push(app, event("PUSHB", REMINDER), left="5 hours")
    assert "5 hours" in reminder["body"]
    assert shown(page) == [as_shown(app, over), as_shown(app, reminder)]

    icon = page.evaluate("async (url) => (await fetch(url)).status", shown(page)[0]["icon"])
    assert icon == 200
    assert app.me.errors == []


CLICK = """async (tag) => {
  const [notification] = await self.registration.getNotifications({tag});
  if (!notification) return {error: `no notification ${tag}`};
  const done = [];
  const focus = WindowClient.prototype.focus;
  const openWindow = Clients.prototype.openWindow;
  // the browser lets only a person's click focus or open a window: recorded here instead
  WindowClient.prototype.focus = async function () { done.push(["focus", this.url]); return this; };
  Clients.prototype.openWindow = async function (url) { done.push(["open", url]); return null; };
  try {
    const click = new NotificationEvent("notificationclick", {notification});
    let work = Promise.resolve();
    click.waitUntil = (promise) => { work = promise; };  // the platform's, for a real click
    self.dispatchEvent(click);
    await work;
  } finally {
    WindowClient.prototype.focus = focus;
    Clients.prototype.openWindow = openWindow;
  }
  const left = await self.registration.getNotifications({tag});
  return {done, left: left.length};
}"""
"""Run ``sw.js``'s ``notificationclick`` handler on the notification of ``tag``: what it did
(focused a window at its URL, opened one at a URL) and how many of that tag are left."""


def test_a_click_on_a_notification_opens_its_game(
    server: ServerProcess, new_full_context: ContextFactory
) -> None:
    app = open_app(new_full_context(), server.url)
    page = app.page
    send_push(app, event("PUSHC", TURN))
    played: dict[str, Any] = app.worker.evaluate(CLICK, "game-PUSHC")
    # the app's window was open (on the lobby): focused, and taken to the game
    assert played == {"done": [["focus", f"{server.url}/#/play"]], "left": 0}
    page.wait_for_url(f"{server.url}/#/game/PUSHC")

    # the window reloaded past the service worker (Shift+Reload): it cannot be taken to
    # another page, so a new window opens at the game
    with page.expect_navigation():
        app.cdp.send("Page.reload", {"ignoreCache": True})
    assert page.evaluate("() => navigator.serviceWorker.controller") is None
    send_push(app, event("PUSHE", REMATCH))
    played = app.worker.evaluate(CLICK, "game-PUSHE")
    assert played == {"done": [["open", f"{server.url}/#/game/PUSHE"]], "left": 0}

    # no window of the app open: a new one opens at the game
    send_push(app, event("PUSHD", OVER))
    page.goto("about:blank")
    played = app.worker.evaluate(CLICK, "game-PUSHD")
    assert played == {"done": [["open", f"{server.url}/#/game/PUSHD"]], "left": 0}
    assert app.me.errors == []
