"""A player at the browser page: what a person does (settings, lobby, clicks on cards),
written once for every end-to-end test. Waits are on the page's state, never on time:
the table carries data-phase ("mine", "theirs", "busy", "over", "waiting"), data-moves (moves
played in this game), data-game (its number) and data-legal (your legal moves)."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Route, expect

from spite_malice.i18n import catalog

TABLE = "#table"

ContextFactory = Callable[..., BrowserContext]
"""new_context(width=1280, height=900): a fresh browser context (its own storage: a player)."""


def unique_name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


RANKS = "A23456789TJQK"


def greedy_move(legal: list[str], side_tops: list[str | None] | None = None) -> str:
    """A simple policy that finishes games: pay-off builds first, then side-stack builds,
    then hand builds (Kings last); else a discard of a high card onto a side stack where it
    can be played later (one below the top, or an empty stack), a King last."""
    builds = [m for m in legal if m.split("-")[1].startswith("C")]
    for prefix in ("P-", "S"):
        for move in builds:
            if move.startswith(prefix):
                return move
    plain = [m for m in builds if m.startswith("H") and not m.startswith("HK")]
    if plain:
        return plain[0]
    discards = [m for m in legal if m.split("-")[1].startswith("S")]
    if not discards:
        return builds[0]
    tops = side_tops or [None] * 4

    def cost(move: str) -> int:
        source, target = move.split("-")
        rank = RANKS.index(source[1]) + 1
        top = tops[int(target[1]) - 1]
        if top is None:
            fit = 2
        else:
            top_rank = RANKS.index(top[0]) + 1
            fit = 0 if top_rank == rank + 1 else 1 if top_rank == rank else 4
        return (100 if rank == 13 else 0) + fit * 20 - rank

    return min(discards, key=cost)


@dataclass
class Player:
    """One browser tab of one player."""

    page: Page
    base: str
    name: str
    errors: list[str] = field(default_factory=list)

    @classmethod
    def open(cls, context: BrowserContext, base: str, prefix: str = "player") -> Player:
        page = context.new_page()
        player = cls(page, base, unique_name(prefix))
        page.on("pageerror", lambda error: player.errors.append(f"page error: {error}"))
        page.on("console", player._console)
        return player

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error" and "WebSocket" not in message.text:
            self.errors.append(f"console: {message.text}")

    # Pages.

    def goto(self, route: str) -> None:
        self.page.goto(f"{self.base}/#/{route}")

    def configure(
        self,
        *,
        payoff_size: int = 5,
        match_target: int = 50,
        speed: str = "off",
        level: str | None = None,
    ) -> None:
        """Settings page: this player's name, short games, the animation speed; saved."""
        page = self.page
        self.goto("settings")
        page.fill("#player-name", self.name)
        page.select_option("#preset", "")
        page.fill("#rule-payoff_size", str(payoff_size))
        page.fill("#rule-match_target", str(match_target))
        page.check(f"input[name=animation_speed][value={speed}]", force=True)
        if level:
            page.select_option("#default-level", level)
        page.click("#save-settings")
        language = page.evaluate("() => document.documentElement.lang") or "en"
        saved = catalog(language).gettext("Saved. New matches use these rules.")
        expect(page.locator("#settings-status")).to_have_text(saved)

    def start_computer_game(self, level: str = "easy", timeout_ms: float | None = None) -> str:
        """Lobby: pick a level, start a match; returns the room code (``timeout_ms``: longer
        than the page's default, where the page must first start the offline engine)."""
        page = self.page
        self.goto("play")
        page.click(f"label[for=level-{level}]")
        page.click("#start-computer")
        page.wait_for_url("**/#/game/*", timeout=timeout_ms)
        self.wait_started(timeout_ms)
        return self.room

    def create_friend_room(self) -> str:
        """Lobby: create a room; returns the invite link shown on the game screen."""
        page = self.page
        self.goto("play")
        page.click("#create-room")
        page.wait_for_url("**/#/game/*")
        link = page.locator("#invite-link")
        expect(link).to_be_visible()
        return link.input_value()

    @property
    def room(self) -> str:
        return self.page.url.rsplit("/", 1)[-1]

    def wait_started(self, timeout_ms: float | None = None) -> None:
        """Wait until the table shows a game (``timeout_ms``: longer than the page's default,
        where the page must first start the offline engine)."""
        self.page.wait_for_selector(
            f"{TABLE}[data-phase]:not([data-phase=busy])", timeout=timeout_ms
        )

    # The table.

    def table_attr(self, name: str) -> str:
        value = self.page.get_attribute(TABLE, f"data-{name}")
        return value or ""

    @property
    def phase(self) -> str:
        return self.table_attr("phase")

    @property
    def moves_played(self) -> int:
        return int(self.table_attr("moves") or 0)

    @property
    def game_number(self) -> int:
        return int(self.table_attr("game") or 0)

    def legal_moves(self) -> list[str]:
        return self.table_attr("legal").split()

    def hand(self) -> list[str]:
        cards: list[str] = self.page.eval_on_selector_all(
            ".seat-me .hand-card", "nodes => nodes.map(n => n.dataset.card)"
        )
        return cards

    def snapshot(self) -> dict[str, Any]:
        """What this seat sees of the table, read from the page."""
        result: dict[str, Any] = self.page.evaluate(
            """() => {
              const cards = (sel) => [...document.querySelectorAll(sel)].map(n => n.dataset.card);
              const labels = (sel) =>
                [...document.querySelectorAll(sel)].map(n => n.getAttribute('aria-label'));
              const table = document.querySelector('#table');
              return {
                hand: cards('.seat-me .hand-card'),
                center: labels('.center-stack'),
                my_side: labels('.seat-me .side-stack'),
                opp_side: labels('.seat-opponent .side-stack'),
                moves: table.dataset.moves, game: table.dataset.game,
              };
            }"""
        )
        return result

    def side_cards(self, whose: str) -> list[list[str]]:
        """The cards of the side stacks of ``whose`` ("me" or "opponent"), bottom to top."""
        stacks: list[list[str]] = self.page.eval_on_selector_all(
            f".seat-{whose} .side-stack",
            "nodes => nodes.map(n => [...n.querySelectorAll('.card[data-card]')]"
            ".map(c => c.dataset.card))",
        )
        return stacks

    def wait_phase(self, *phases: str, timeout_ms: float = 60_000) -> str:
        """Wait until the table is in one of ``phases``; returns it."""
        selector = ", ".join(f"{TABLE}[data-phase={p}]" for p in phases)
        self.page.wait_for_selector(selector, timeout=timeout_ms)
        return self.phase

    def click_move(self, move: str) -> None:
        """Play ``move`` with two clicks: the card, then the place it goes."""
        source, target = move.split("-")
        page = self.page
        source_node = page.locator(f"{TABLE} [data-source={source}]").first
        source_node.click()
        expect(source_node).to_have_class(_has("is-selected"))
        page.locator(f"{TABLE} [data-target={target}]").first.click()

    def play_move(self, move: str) -> None:
        """Click ``move`` and wait until the server has taken it."""
        before = self.moves_played
        game = self.game_number
        self.click_move(move)
        self.page.wait_for_function(
            """([before, game]) => {
              const t = document.querySelector('#table');
              return Number(t.dataset.game) !== game || Number(t.dataset.moves) > before
                || t.dataset.phase === 'over';
            }""",
            arg=[before, game],
        )

    def greedy_choice(self, legal: list[str]) -> str:
        """The greedy policy's move among ``legal`` (my legal moves now), seeing my side
        stacks' tops."""
        tops = [stack[-1] if stack else None for stack in self.side_cards("me")]
        return greedy_move(legal, tops)

    def play_greedy_turn(self, *, send: bool = False) -> None:
        """Play moves until this turn ends (a discard) or the game is over; ``send``: each
        move sent with :meth:`send_move` instead of clicked."""
        while self.phase == "mine":
            legal = self.legal_moves()
            assert legal, "my turn without legal moves"
            move = self.greedy_choice(legal)
            (self.send_move if send else self.play_move)(move)
            if move.split("-")[1].startswith("S"):
                return
            self.wait_phase("mine", "theirs", "over")

    def play_until_legal(
        self, wanted: str | Callable[[list[str]], bool], moves: int = 400, *, send: bool = False
    ) -> list[str]:
        """Play greedy moves until my legal moves hold one matching the pattern ``wanted``
        (or until ``wanted(legal)`` is true); my legal moves then. The check comes before
        every move, not only at the start of a turn: a build from a side stack, say, often
        becomes legal only in the middle of one. ``send``: the moves sent with
        :meth:`send_move` instead of clicked."""
        if isinstance(wanted, str):
            pattern = re.compile(wanted)

            def ready(legal: list[str]) -> bool:
                return any(pattern.fullmatch(m) for m in legal)
        else:
            ready = wanted
        for _ in range(moves):
            assert self.wait_phase("mine", "over") == "mine", "the game ended first"
            legal = self.legal_moves()
            if ready(legal):
                return legal
            (self.send_move if send else self.play_move)(self.greedy_choice(legal))
        pytest.fail(f"no move like {wanted!r} in {moves} moves")

    def send_move(self, move: str) -> None:
        """Play ``move`` without clicking: the page's own message (web-protocol ``move``)
        goes through the game's WebSocket, kept by ``keep_game_socket``; waits as
        ``play_move`` does until the server has taken it and the page shows it. For the
        moves a test plays only to get on in the game, not the ones it is about."""
        before = self.moves_played
        game = self.game_number
        self.page.evaluate(
            """(move) => {
              const socket = window.__gameSocket;
              if (!socket || socket.readyState !== WebSocket.OPEN) throw new Error('no socket');
              window.__sentMoves = (window.__sentMoves || 0) + 1;
              socket.send(JSON.stringify({ type: 'move', id: `e2e-${window.__sentMoves}`, move }));
            }""",
            move,
        )
        self.page.wait_for_function(
            """([before, game]) => {
              const t = document.querySelector('#table');
              return Number(t.dataset.game) !== game || Number(t.dataset.moves) > before
                || t.dataset.phase === 'over';
            }""",
            arg=[before, game],
        )

    def message(self) -> str:
        return self.page.inner_text("#message")


def _has(cls: str) -> re.Pattern[str]:
    return re.compile(rf"(^|\s){re.escape(cls)}(\s|$)")


def choose_deal(context: BrowserContext, seed: int) -> None:
    """Every game against the computer this context starts deals from ``seed``: the page's
    own request for a room (POST /api/rooms) goes on with the practice seed the API takes
    (a practice game, kept out of the statistics; the computer's choices follow the seed
    too, so the whole game is known in advance when the player's moves are)."""

    def with_seed(route: Route) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        body = json.loads(request.post_data or "{}")
        assert body.get("mode") == "computer", body  # a seed is for computer games only
        body["seed"] = seed
        route.continue_(post_data=json.dumps(body))

    context.route(re.compile(r".*/api/rooms$"), with_seed)


KEEP_SOCKET_JS = """(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      if (String(args[0]).includes('/ws/')) window.__gameSocket = this;
    }
  };
})();"""


def keep_game_socket(context: BrowserContext) -> None:
    """Every page of ``context`` keeps its game's WebSocket (the last one opened) in
    ``window.__gameSocket``, for ``Player.send_move``; the page uses it as before."""
    context.add_init_script(KEEP_SOCKET_JS)
