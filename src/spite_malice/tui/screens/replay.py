"""The replay screen: a finished game (or any record) move by move, on the table.

The same table as the game screen, every card face up: the other seat's hand too. Keys:
right/left (or ``l``/``h``) step, Home/End (``g``/``G``) jump to the deal or the end, Space
plays at the chosen speed, ``+``/``-`` change it, ``t`` jumps to a turn, ``s`` turns the table
to the other seat, ``q`` closes the replay. The frames come from :mod:`spite_malice.replay`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input, Static

from ...engine.cards import Card, parse_card
from ...engine.events import Event, TurnEnded
from ...engine.rules import HAND_SIZE, SIDE_STACKS
from ...replay import Frame
from ..card_text import (
    DIM,
    back_chip,
    card_chip,
    cards_in_text,
    center_stack_lines,
    empty_chip,
)
from ..widgets import MessageLine, MoveLog, PileView

SPEEDS = (("slow", 2.0), ("normal", 1.0), ("fast", 0.4), ("very fast", 0.1))
"""The replay's speeds: seconds between two moves."""
_PLAYER = re.compile(r"\bplayer ([12])\b")


def describe(event: Event, names: Sequence[str]) -> str:
    """An event in English with the players' names (as the game screen's log says it)."""
    text = _PLAYER.sub(lambda found: names[int(found.group(1)) - 1], str(event))
    return text[:1].upper() + text[1:]


class ReplayScreen(Screen[None]):
    """A game's frames on the table, stepped through by key."""

    AUTO_FOCUS = None
    """Nothing takes the focus: the keys step the replay (the turn box only when asked)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l", "step(1)", "Forward"),
        Binding("left,h", "step(-1)", "Back"),
        Binding("home,g", "jump(0)", "Start", show=False),
        Binding("end,G", "jump(-1)", "End", show=False),
        Binding("space", "play", "Play/pause"),
        Binding("plus,equals_sign", "speed(1)", "Faster"),
        Binding("minus", "speed(-1)", "Slower"),
        Binding("t", "ask_turn", "Turn"),
        Binding("s", "switch_seat", "Other seat"),
        Binding("q,escape", "close", "Close"),
    ]

    def __init__(
        self,
        frames: Sequence[Frame],
        players: tuple[str, str],
        *,
        seat: int = 0,
        ascii_only: bool = False,
    ) -> None:
        super().__init__()
        if not frames:
            raise ValueError("a replay needs at least the deal")
        self.frames = list(frames)
        self.players = players
        self.seat = seat
        self.ascii_only = ascii_only
        self.index = 0
        self.speed = 1
        self.timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="body"):
            with Vertical(id="table"):
                with Horizontal(id="opp-hand-row"):
                    yield Static("", id="opp-hand-label")
                    yield PileView("opp-hand", "", interactive=False)
                with Horizontal(id="opponent", classes="player-row"):
                    yield PileView("opp-payoff", "Pay-off", interactive=False)
                    for i in range(SIDE_STACKS):
                        yield PileView(f"opp-side-{i}", f"Side {i + 1}", interactive=False)
                with Horizontal(id="center-row"):
                    for i in range(len(self.frames[0].table["center"])):
                        yield PileView(f"center-{i}", f"Center {i + 1}", interactive=False)
                    yield PileView("stock", "Stock", interactive=False)
                with Horizontal(id="me", classes="player-row"):
                    yield PileView("payoff", "Pay-off", interactive=False)
                    for i in range(SIDE_STACKS):
                        yield PileView(f"side-{i}", f"Side {i + 1}", interactive=False)
                with Horizontal(id="hand-row"):
                    yield Static("", id="hand-label")
                    for i in range(HAND_SIZE):
                        yield PileView(f"hand-{i}", "", interactive=False)
            yield MoveLog(id="log", focusable=False)
        yield MessageLine(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.show(0)

    # ------------------------------------------------------------------ actions

    def action_step(self, delta: int) -> None:
        self.show(max(0, min(len(self.frames) - 1, self.index + delta)))

    def action_jump(self, index: int) -> None:
        self.show(index % len(self.frames))

    def action_play(self) -> None:
        if self.timer is not None:
            self._pause()
            return
        if self.index >= len(self.frames) - 1:
            self.show(0)
        self.timer = self.set_interval(SPEEDS[self.speed][1], self._tick)
        self._say_speed()

    def action_speed(self, delta: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + delta))
        if self.timer is not None:
            self.timer.stop()
            self.timer = self.set_interval(SPEEDS[self.speed][1], self._tick)
        self._say_speed()

    def action_switch_seat(self) -> None:
        self.seat = 1 - self.seat
        self.show(self.index)

    def action_ask_turn(self) -> None:
        """Open the box that asks for a turn (Enter jumps, Escape closes it)."""
        if self._turn_box() is not None:
            return
        box = Input(placeholder="Turn to jump to, then Enter", id="turn-input")
        self.mount(box, before=self.query_one(MessageLine))
        box.focus()

    def _turn_box(self) -> Input | None:
        found = self.query("#turn-input")
        return found.first(Input) if found else None

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.input.remove()
        text = message.value.strip()
        if not text.isdigit():
            self.query_one(MessageLine).say("A turn is a whole number, such as 12.", "error")
            return
        self.jump_to_turn(int(text))

    def action_close(self) -> None:
        box = self._turn_box()
        if box is not None:
            box.remove()
            return
        self._pause()
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()

    def jump_to_turn(self, turn: int) -> None:
        """Show the table as the turn ``turn`` began (the end when the game is shorter)."""
        for frame in self.frames[1:]:
            if frame.turn >= turn:
                self.show(frame.index - 1)
                return
        self.show(len(self.frames) - 1)

    # ------------------------------------------------------------------ drawing

    def _tick(self) -> None:
        if self.index >= len(self.frames) - 1:
            self._pause()
        else:
            self.action_step(1)

    def _pause(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    def _say_speed(self) -> None:
        state = "playing" if self.timer is not None else "paused"
        self.query_one(MessageLine).say(f"Replay {state}, speed {SPEEDS[self.speed][0]}.")

    def show(self, index: int) -> None:
        """Draw frame ``index`` from the seat being watched."""
        self.index = index
        frame = self.frames[index]
        table = frame.table
        me, other = self.seat, 1 - self.seat
        self._show_player("opp-", table["players"][other])
        self._show_player("", table["players"][me])
        self.query_one("#opp-hand-label", Static).update(f"{self.players[other]}'s hand")
        self.query_one("#hand-label", Static).update(f"{self.players[me][:6]}\nhand")
        self._pile("opp-hand").show([self._chips(table["players"][other]["hand"])])
        for i, stack in enumerate(table["center"]):
            cards = _cards(stack)
            self._pile(f"center-{i}").show(
                center_stack_lines(cards, ascii_only=self.ascii_only),
                f"{len(cards)} card{'s' if len(cards) != 1 else ''}" if cards else "",
            )
        stock = table["stock_count"]
        chip = back_chip if stock else empty_chip
        self._pile("stock").show([chip(ascii_only=self.ascii_only)], str(stock))
        hand = _cards(table["players"][me]["hand"])
        for i in range(HAND_SIZE):
            shown = card_chip(hand[i], ascii_only=self.ascii_only) if i < len(hand) else None
            self._pile(f"hand-{i}").show([shown or empty_chip(ascii_only=self.ascii_only)])
        self._show_status(frame)
        self._show_log()

    def _show_player(self, prefix: str, player: dict[str, Any]) -> None:
        payoff = _cards(player["payoff"])
        top = (
            card_chip(payoff[-1], ascii_only=self.ascii_only)
            if payoff
            else empty_chip(ascii_only=self.ascii_only)
        )
        self._pile(f"{prefix}payoff").show([top], f"{len(payoff)} left")
        for i, pile in enumerate(player["side"]):
            cards = _cards(pile)
            lines = [card_chip(card, ascii_only=self.ascii_only) for card in cards]
            self._pile(f"{prefix}side-{i}").show(
                lines or [empty_chip(ascii_only=self.ascii_only)], str(len(cards)) if cards else ""
            )

    def _chips(self, hand: list[str]) -> Text:
        cards = _cards(hand)
        if not cards:
            return Text("no cards", style=DIM)
        return Text(" ").join(card_chip(card, ascii_only=self.ascii_only) for card in cards)

    def _show_status(self, frame: Frame) -> None:
        last = len(self.frames) - 1
        outcome = frame.table.get("outcome")
        text = (
            f" Replay: {self.players[0]} against {self.players[1]} · move {frame.index} of "
            f"{last} · turn {frame.turn} · watching {self.players[self.seat]}"
        )
        if outcome is not None:
            winner = outcome.get("winner")
            text += " · " + (
                "a draw" if winner is None else f"{self.players[winner]} won {outcome['points']}"
            )
        self.query_one("#status", Static).update(text)
        said = [
            describe(event, self.players)
            for event in frame.events
            if not isinstance(event, TurnEnded)
        ]
        if frame.index == 0:
            said = [f"The game as dealt; {self.players[frame.table['to_move']]} starts."]
        self.query_one(MessageLine).say(
            cards_in_text(" ".join(said) or "A move.", ascii_only=self.ascii_only)
        )

    def _show_log(self) -> None:
        lines = []
        for frame in self.frames[1 : self.index + 1]:
            for event in frame.events:
                if isinstance(event, TurnEnded):
                    continue
                lines.append(
                    cards_in_text(describe(event, self.players), ascii_only=self.ascii_only)
                )
        self.query_one(MoveLog).replace(lines[-200:])

    def _pile(self, pile_id: str) -> PileView:
        return self.query_one(f"#{pile_id}", PileView)


def _cards(names: list[str]) -> list[Card]:
    return [parse_card(name) for name in names]


__all__ = ["SPEEDS", "ReplayScreen", "describe"]
