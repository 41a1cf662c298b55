"""End to end: phone first (issue 43). At 360x740, 390x844, 844x390 and 740x360, every
visible control of every view is at least 44 x 44 CSS px with at least 8 px between
targets; the tutorial's lessons fit without scrolling; the cards are as large as the window
allows. With $SPITE_MALICE_SHOTS set, screenshots of every view at every size go to that
folder, for a person to look at (``tests/e2e/shots.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from spite_malice.tutorial import LESSONS

from .player import ContextFactory, Player
from .server import ServerProcess
from .shots import screenshot

pytestmark = pytest.mark.e2e

PHONES = [(360, 740), (390, 844), (844, 390), (740, 360)]
MIN_TARGET = 44.0
MIN_SPACING = 8.0

WORDS = "#message, #turn-banner, #scoreboard"
"""The table's words that say what happens: no control may sit on them."""
BOXES = (
    ".panel, .panel-status, .panel-more, .actions, fieldset, .card-box, dialog[open], .first-visit"
)
"""The boxes that hold a view's parts: their content stays inside them."""

AUDIT_JS = """([minSize, minGap, WORDS, BOXES]) => {
  // An open dialog, menu or sheet covers the page: its own controls are the ones to tap.
  const scope = document.querySelector('dialog[open]')
    ?? (document.body.classList.contains('menu-open') ? document.querySelector('.topbar') : null)
    ?? document.querySelector('.panel-more.is-open') ?? document;
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, '
    + '[role=button], [tabindex="0"]';
  const seen = [];
  for (const node of scope.querySelectorAll(selector)) {
    if (node.closest('[hidden]')) continue;
    const closed = node.closest('details:not([open])');
    if (closed && node.tagName !== 'SUMMARY') continue;
    if (closed && node.tagName === 'SUMMARY' && node.parentElement !== closed) continue;
    // A radio button or a check box is tapped through its label.
    let target = node;
    if (node.matches('input[type=radio], input[type=checkbox]')) {
      target = node.closest('label')
        ?? (node.id && document.querySelector(`label[for="${CSS.escape(node.id)}"]`)) ?? node;
    }
    const style = getComputedStyle(target);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    if (target.offsetParent === null && style.position !== 'fixed') continue;
    const r = target.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.right <= 0 || r.left >= innerWidth) continue; // off screen: the skip link
    // A link inside running text is exempt (WCAG 2.5.8, "inline").
    if (target.tagName === 'A' && style.display === 'inline') {
      const text = (target.parentElement?.textContent ?? '').trim();
      if (text !== target.textContent.trim()) continue;
    }
    if (seen.some((s) => s.node === target)) continue;
    const name = target.id || target.dataset.key || target.dataset.route
      || (target.getAttribute('aria-label') ?? target.textContent ?? '').trim().slice(0, 30)
      || target.tagName;
    seen.push({ node: target, name, left: r.left + scrollX, top: r.top + scrollY,
      right: r.right + scrollX, bottom: r.bottom + scrollY });
  }
  const problems = [];
  for (const s of seen) {
    const w = s.right - s.left;
    const h = s.bottom - s.top;
    if (w < minSize - 0.5 || h < minSize - 0.5) {
      problems.push(`${s.name}: ${w.toFixed(1)} x ${h.toFixed(1)} px`);
    }
  }
  for (let i = 0; i < seen.length; i++) {
    for (let j = i + 1; j < seen.length; j++) {
      const a = seen[i];
      const b = seen[j];
      if (a.node.contains(b.node) || b.node.contains(a.node)) continue;
      const dx = Math.max(0, b.left - a.right, a.left - b.right);
      const dy = Math.max(0, b.top - a.bottom, a.top - b.bottom);
      const gap = Math.hypot(dx, dy);
      if (gap < minGap - 0.5) problems.push(`${a.name} and ${b.name}: ${gap.toFixed(1)} px apart`);
    }
  }
  // The page underneath is in view: no control sits on the words that say what happens.
  if (scope === document) {
    for (const words of document.querySelectorAll(WORDS)) {
      if (words.offsetParent === null) continue;
      const w = words.getBoundingClientRect();
      if (w.width === 0 || w.height === 0) continue;
      const box = { left: w.left + scrollX, top: w.top + scrollY, right: w.right + scrollX,
        bottom: w.bottom + scrollY };
      for (const s of seen) {
        if (s.node.contains(words) || words.contains(s.node)) continue;
        const across = Math.min(s.right, box.right) - Math.max(s.left, box.left);
        const down = Math.min(s.bottom, box.bottom) - Math.max(s.top, box.top);
        if (across > 0.5 && down > 0.5) problems.push(`${s.name} covers #${words.id}`);
      }
      if (words.scrollHeight > words.clientHeight + 1) {
        problems.push(`#${words.id} needs ${words.scrollHeight - words.clientHeight} px more`);
      }
    }
  }
  // Nothing is cut: no box holds more than its width, and what is in a box stays inside it
  // (and inside the window), unless the box scrolls that way.
  for (const box of document.querySelectorAll(BOXES)) {
    if (box.offsetParent === null && getComputedStyle(box).position !== 'fixed') continue;
    if (box.closest('[hidden]') || (scope !== document && !scope.contains(box))) continue;
    const b = box.getBoundingClientRect();
    if (b.width === 0 || b.height === 0) continue;
    const name = box.id || box.className || box.tagName;
    if (b.left < -0.5 || b.right > innerWidth + 0.5) {
      problems.push(`${name} is cut by the window: ${b.left.toFixed(1)}-${b.right.toFixed(1)} px`);
    }
    if (box.scrollWidth > box.clientWidth + 1) {
      const more = box.scrollWidth - box.clientWidth;
      problems.push(`${name} is ${more} px too narrow for its content`);
    }
    const style = getComputedStyle(box);
    const scrollsDown = ['auto', 'scroll'].includes(style.overflowY);
    for (const node of box.querySelectorAll('*')) {
      if (node.closest('[hidden]') || node.offsetParent === null) continue;
      if (node.closest('details:not([open])') && node.tagName !== 'SUMMARY') continue;
      // inside a box of its own (checked as such), or a scroller, or the sheet over the page
      const inner = node.parentElement.closest(`${BOXES}, .move-log, .message-line`);
      if (inner !== null && inner !== box && box.contains(inner)) continue;
      if (getComputedStyle(node).position === 'fixed') continue;
      const r = node.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const out = r.left < b.left - 0.5 || r.right > b.right + 0.5
        || (!scrollsDown && (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5));
      if (out) {
        const what = node.id || (node.textContent ?? '').trim().slice(0, 30) || node.tagName;
        problems.push(`${what} reaches past ${name}`);
      }
    }
  }
  const wide = document.scrollingElement.scrollWidth - innerWidth;
  if (wide > 0) problems.push(`the page is ${wide} px wider than the window`);
  return { count: seen.length, problems };
}"""

GAME_OVER_JS = """async () => {
  const { gameFigures, gameOverDialog } = await import('/static/js/dialogs.js');
  const events = [{ kind: 'built', player: 0 }, { kind: 'discarded', player: 1 },
    { kind: 'turn_ended', player: 0 }, { kind: 'stack_completed' }];
  const state = {
    seat: 0,
    observation: { outcome: { winner: 0, points: 7, reason: 'pay-off pile emptied' } },
    match: { score: [7, 0], target: 50, game_number: 1, over: false, winner: null,
      games: [{ number: 1, winner: 0, points: 7, reason: 'pay-off pile emptied',
        assisted: false }] },
    reveal: { payoffs: [['2C'], ['3D', '4S']], hands: [[], ['5H']], stock: ['6S'] },
  };
  gameOverDialog({ state, opponent: 'Easy', who: (seat) => (seat === 0 ? 'You' : 'Easy'),
    figures: gameFigures(events, 0), next: () => {}, onClose: () => {} });
}"""

SCROLL_JS = """() => [document.scrollingElement.scrollWidth - innerWidth,
  document.scrollingElement.scrollHeight - innerHeight]"""


def settle(page: Page) -> None:
    """Two animation frames: the resize observer has fitted the table."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def audit(page: Page, label: str) -> int:
    """Screenshot the view, then assert its controls' sizes and spacing; returns how many
    controls were measured."""
    settle(page)
    screenshot(page, label, full_page=True)
    result: dict[str, Any] = page.evaluate(AUDIT_JS, [MIN_TARGET, MIN_SPACING, WORDS, BOXES])
    assert result["problems"] == [], f"{label}: {result['problems']}"
    assert result["count"] > 0, f"{label}: no control measured"
    count: int = result["count"]
    return count


def no_scroll(page: Page, label: str) -> None:
    scroll = page.evaluate(SCROLL_JS)
    assert scroll[0] <= 0 and scroll[1] <= 0, f"{label}: the page scrolls by {scroll}"


PANEL_JS = """() => { const p = document.querySelector('.replay-panel');
  const outside = [...p.querySelectorAll('#replay-status, .replay-steps .btn, #replay-slider')]
    .filter((n) => n.offsetParent !== null)
    .filter((n) => { const r = n.getBoundingClientRect();
      return r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5
        || r.right > innerWidth + 0.5; })
    .map((n) => n.id || n.textContent.trim());
  return { scroll: p.scrollHeight - p.clientHeight, outside }; }"""


def panel_fits(page: Page, label: str) -> None:
    """The replay's panel does not scroll, and its steps, slider and status are on screen."""
    settle(page)
    found: dict[str, Any] = page.evaluate(PANEL_JS)
    assert found["scroll"] <= 0, f"{label}: the panel scrolls by {found['scroll']} px"
    assert found["outside"] == [], f"{label}: off screen: {found['outside']}"


def pick_a_hand_card(page: Page) -> None:
    """Pick the middle hand card (the one under the side stacks, which it rises towards)."""
    page.locator("#table .hand-card").nth(2).click()
    expect(page.locator("#table .seat-me .side-stack.is-target")).to_have_count(4)


def size_label(width: int, height: int) -> str:
    return f"{width}x{height}"


def resize(page: Page, width: int, height: int) -> None:
    """The window at ``width`` x ``height``, and the table refitted to it: the window's size
    is the one asked for, then two animation frames (the resize event and the resize
    observer schedule the fitting for the next frame)."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(
        "([w, h]) => innerWidth === w && innerHeight === h", arg=[width, height], polling="raf"
    )
    settle(page)


def each_phone(page: Page) -> Iterator[str]:
    """The view as it shows now, resized to every phone size in turn: yields each size's
    label. For the views without a table: a resize refits a table, at about 2.5 times the
    renderer's work of a visit to the view at that size (``table_at_each_phone``)."""
    for width, height in PHONES:
        resize(page, width, height)
        yield size_label(width, height)


PARK = "settings"
"""A view without a table, where the window changes size at little cost."""


def table_at_each_phone(me: Player, route: str, ready: Callable[[], None]) -> Iterator[str]:
    """The table view at ``route``, visited afresh at every phone size in turn (the window
    resized on a view without a table, then back to ``route``, then ``ready()``): yields
    each size's label, the window's size now first (it needs no second visit)."""
    page = me.page
    now = page.viewport_size
    first = next((i for i, (w, h) in enumerate(PHONES) if now == {"width": w, "height": h}), 0)
    for width, height in PHONES[first:] + PHONES[:first]:
        if page.viewport_size != {"width": width, "height": height}:
            me.goto(PARK)
            resize(page, width, height)
            me.goto(route)
            ready()
            settle(page)
        yield size_label(width, height)


PHONE_IDS = [size_label(*s) for s in PHONES]


def test_every_control_of_every_view_is_a_thumb_target(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    """One player walks every view once and audits it at every phone size (the labels name
    the view and the size): a view without a table resized in place, a table view visited
    afresh at each size."""
    width, height = PHONES[0]
    me = Player.open(new_context(width=width, height=height), server.url, "thumb")
    page = me.page
    counts: dict[str, dict[str, int]] = {at: {} for at in PHONE_IDS}
    # The first visit: the name question and the tutorial offer above the lobby.
    me.goto("play")
    for at in each_phone(page):
        expect(page.locator("#first-visit-name")).to_be_visible()
        expect(page.locator("#tutorial-offer")).to_be_visible()
        counts[at]["lobby"] = audit(page, f"lobby-first-visit-{at}")
    me.configure(payoff_size=5, speed="off")
    for at in each_phone(page):
        counts[at]["settings"] = audit(page, f"settings-{at}")
    for view in ("play", "stats", "replays", "daily", "tutorial", "rules"):
        me.goto(view)
        page.wait_for_load_state("networkidle")
        for at in each_phone(page):
            counts[at][view] = audit(page, f"{view}-{at}")

    # The table: at the start of my turn, with a hand card picked, and the menu opened.
    me.start_computer_game("easy")
    me.wait_phase("mine")
    game = me.room
    for at in table_at_each_phone(me, f"game/{game}", lambda: me.wait_phase("mine")):
        no_scroll(page, f"game {at}")
        counts[at]["game"] = audit(page, f"game-{at}")
        pick_a_hand_card(page)
        audit(page, f"game-hand-card-picked-{at}")
        page.keyboard.press("Escape")
        menu = page.locator("#menu-button, .menu-toggle").locator("visible=true")
        expect(menu).to_have_count(1)
        menu.click()
        expect(page.locator("#main-nav")).to_be_visible()
        counts[at]["game menu"] = audit(page, f"game-menu-{at}")
        page.keyboard.press("Escape")
        expect(page.locator("#main-nav")).to_be_hidden()
        if page.locator("#more-button").is_visible():
            page.click("#more-button")
            counts[at]["game more"] = audit(page, f"game-more-{at}")
            page.click("#more-close")
        # The end screen of a won game, drawn from a finished game's state: its figures and
        # buttons.
        page.evaluate(GAME_OVER_JS)
        expect(page.locator("#game-over")).to_be_visible()
        expect(page.locator("#game-figures")).to_be_visible()
        counts[at]["game over"] = audit(page, f"game-over-{at}")
        page.click("#game-over .dialog-actions .btn:not(.btn-primary)")  # "Look at the table"
        expect(page.locator("#game-over")).to_have_count(0)

    # The lobby with this unfinished game in its list, and back to the game from there.
    me.goto("play")
    resume = page.locator("#resume-list a.resume-link")
    for at in each_phone(page):
        expect(resume).to_have_count(1)
        counts[at]["lobby unfinished"] = audit(page, f"lobby-unfinished-{at}")
    resume.click()
    me.wait_phase("mine")

    # The end of a match (resigned), then its replay.
    page.evaluate("() => document.getElementById('resign-button').click()")  # in the sheet
    page.click("#confirm-yes")
    me.wait_phase("over")
    for at in table_at_each_phone(me, f"game/{game}", lambda: me.wait_phase("over")):
        expect(page.locator("dialog[open]")).to_be_visible()
        counts[at]["end of match"] = audit(page, f"match-over-{at}")
    # The statistics with the resigned match's game in them.
    me.goto("stats")
    for at in each_phone(page):
        expect(page.locator("#stats-table tbody tr")).not_to_have_count(0)
        counts[at]["stats with games"] = audit(page, f"stats-games-{at}")
    me.goto("replays")
    page.locator("#replay-list a.resume-link").first.click()
    page.wait_for_url("**/#/replay/*")
    replay = page.url.split("#/", 1)[1]

    def replay_ready() -> None:
        expect(page.locator("#table .seat")).to_have_count(2)
        page.click("#replay-end")  # the longest words: the last move and the resignation

    replay_ready()
    for at in table_at_each_phone(me, replay, replay_ready):
        counts[at]["replay"] = audit(page, f"replay-{at}")
        no_scroll(page, f"replay {at}")
        panel_fits(page, f"replay {at}")
        # the rest of the replay's controls open as a sheet, and close again
        page.click("#more-button")
        expect(page.locator("#panel-more.is-open")).to_be_visible()
        counts[at]["replay more"] = audit(page, f"replay-more-{at}")
        page.click("#more-close")
        expect(page.locator("#panel-more.is-open")).to_have_count(0)

    # The daily deal's table.
    me.goto("daily")
    page.click("#daily-play")
    page.wait_for_url("**/#/game/*")
    me.wait_started()
    for at in table_at_each_phone(me, f"game/{me.room}", me.wait_started):
        counts[at]["daily table"] = audit(page, f"daily-table-{at}")
        expect(page.locator("#new-match-button")).to_be_hidden()

    # A friend room waiting for the friend: the invitation, and no empty message box.
    me.goto("play")
    page.click("#create-room")
    page.wait_for_url("**/#/game/*")
    room = me.room
    invitation = page.locator("#invite-link")
    for at in table_at_each_phone(me, f"game/{room}", expect(invitation).to_be_visible):
        expect(page.locator("#invite-link")).to_be_visible()
        expect(page.locator("#message")).to_be_hidden()
        counts[at]["friend waiting"] = audit(page, f"friend-waiting-{at}")
    for at, per_view in counts.items():
        print(f"\n{at}: controls measured per view: {per_view}")
    assert me.errors == []


LONG_LANGUAGES = {"ru": "ru-RU", "pt": "pt-BR", "nl": "nl-NL", "fr": "fr-FR"}
"""The languages whose words run longest, by the browser's locale that picks each."""


@pytest.mark.parametrize("language", list(LONG_LANGUAGES))
def test_the_longest_languages_fit_every_phone(
    server: ServerProcess, new_context: ContextFactory, language: str
) -> None:
    """Settings, the lobby with an unfinished game, the table, the end screen of a game and
    of the match, and the statistics with a game, in a language whose words are longer than
    English, at every phone size: one browser (and one game) per language, each view
    resized through the sizes."""
    me = Player.open(
        new_context(width=390, height=844, locale=LONG_LANGUAGES[language]),
        server.url,
        f"long-{language}",
    )
    page = me.page
    me.goto("play")
    expect(page.locator("html")).to_have_attribute("lang", language)
    me.configure(payoff_size=5, speed="off")
    me.start_computer_game("easy")
    me.wait_phase("mine")
    game = me.room
    me.goto("settings")
    for size in each_phone(page):
        at = f"{language}-{size}"
        expect(page.locator("#rule-first_player")).to_be_visible()
        audit(page, f"settings-{at}")
    me.goto("play")
    for size in each_phone(page):
        at = f"{language}-{size}"
        expect(page.locator("#resume-list a.resume-link")).to_have_count(1)
        audit(page, f"lobby-unfinished-{at}")
    me.goto(f"game/{game}")
    me.wait_phase("mine")
    for size in table_at_each_phone(me, f"game/{game}", lambda: me.wait_phase("mine")):
        at = f"{language}-{size}"
        no_scroll(page, f"game {at}")
        audit(page, f"game-{at}")
        pick_a_hand_card(page)
        audit(page, f"game-hand-card-picked-{at}")
        page.keyboard.press("Escape")
        page.evaluate(GAME_OVER_JS)
        expect(page.locator("#game-figures")).to_be_visible()
        audit(page, f"game-over-{at}")
        page.click("#game-over .dialog-actions .btn:not(.btn-primary)")  # "Look at the table"
        expect(page.locator("#game-over")).to_have_count(0)
    page.evaluate("() => document.getElementById('resign-button').click()")  # in the sheet
    page.click("#confirm-yes")
    me.wait_phase("over")
    for size in table_at_each_phone(me, f"game/{game}", lambda: me.wait_phase("over")):
        expect(page.locator("dialog[open]")).to_be_visible()
        audit(page, f"match-over-{language}-{size}")
    page.keyboard.press("Escape")
    me.goto("stats")
    expect(page.locator("#stats-table tbody tr")).not_to_have_count(0)
    for size in each_phone(page):
        audit(page, f"stats-games-{language}-{size}")
    assert me.errors == []


def test_every_lesson_fits_without_scrolling(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    """Each lesson's table, instruction, feedback and buttons are on screen at once, at every
    phone size: one pupil, the window resized (on a view without a table) to each size, then
    every lesson visited afresh at it (cheaper than resizing a lesson, which refits its
    table, the costly part of a resize)."""
    width, height = PHONES[0]
    me = Player.open(new_context(width=width, height=height), server.url, "pupil")
    page = me.page
    for width, height in PHONES:
        if page.viewport_size != {"width": width, "height": height}:
            me.goto(PARK)
            resize(page, width, height)
        at = size_label(width, height)
        for lesson in LESSONS:
            me.goto(f"tutorial/{lesson.key}")
            expect(page.locator(".tutorial-panel")).to_have_attribute("data-answers", "1")
            settle(page)
            label = f"lesson-{lesson.key}-{at}"
            lesson_fits(page, label)
            audit(page, label)
            # With the feedback said too ("Show me" tells the move that does the step).
            page.click("#tutorial-show")
            expect(page.locator("#tutorial-feedback")).not_to_be_empty()
            lesson_fits(page, f"{label} with feedback")
    assert me.errors == []


def lesson_fits(page: Page, label: str) -> None:
    """The lesson's table, words and buttons are all on screen, nothing scrolls or is cut."""
    settle(page)
    no_scroll(page, label)
    outside = page.evaluate(
        """() => [...document.querySelectorAll('#tutorial-table [data-key], #tutorial-say,'
            + ' #tutorial-feedback, .tutorial-actions .btn:not([hidden]),'
            + ' #menu-button, .menu-toggle')]
          .filter((n) => n.offsetParent !== null)
          .map((n) => [n.id || n.dataset.key, n.getBoundingClientRect()])
          .filter(([, r]) => r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5
            || r.right > innerWidth + 0.5)
          .map(([name]) => name)"""
    )
    assert outside == [], f"{label}: off screen: {outside}"
    clipped = page.evaluate(
        "() => { const p = document.querySelector('.tutorial-panel');"
        " return p.scrollHeight - p.clientHeight; }"
    )
    assert clipped <= 1, f"{label}: the lesson's words need {clipped} px more"


def card_figures(page: Page) -> dict[str, float]:
    """The width of a hand card and the height of its corner rank, in CSS px."""
    figures: dict[str, float] = page.evaluate(
        """() => {
          const card = document.querySelector('#table .hand-card');
          const rank = card.querySelector('.card-index text');
          return { width: card.getBoundingClientRect().width,
                   rank: rank.getBoundingClientRect().height };
        }"""
    )
    return figures


def test_cards_are_as_large_as_the_window_allows(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(width=390, height=844), server.url, "cards")
    me.configure(payoff_size=20, speed="off")
    me.start_computer_game("easy")
    me.wait_phase("mine")
    page = me.page
    settle(page)
    upright = card_figures(page)
    assert upright["width"] >= 64, f"390x844: hand cards {upright['width']:.1f} px wide"
    assert upright["rank"] >= 16, f"390x844: corner rank {upright['rank']:.1f} px tall"
    figures = {"390x844": upright}
    for width, height in [(1366, 768), (1920, 1080)]:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        figures[f"{width}x{height}"] = card_figures(page)
    # "Large cards" (Settings): clearly larger where the space exists.
    me.goto("settings")
    page.check("#pref-large_cards")
    page.go_back()
    me.wait_phase("mine")
    for width, height in [(1920, 1080), (1366, 768), (390, 844)]:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        figures[f"{width}x{height} large"] = card_figures(page)
        screenshot(page, f"large-cards-{width}x{height}")
    print(f"\ncard figures (px): {figures}")
    for size in ("1920x1080", "1366x768"):
        normal, large = figures[size]["width"], figures[f"{size} large"]["width"]
        assert large >= normal * 1.2, f"{size}: large cards {large:.1f} px, normal {normal:.1f}"
    assert figures["390x844 large"]["width"] >= upright["width"] - 0.5
    assert me.errors == []
