"""The replay screen: a finished game (or any record) move by move, on the table.

The same table as the game screen, every card face up: the other seat's hand too. Keys:
right/left (or ``l``/``h``) step, Home/End (``g``/``G``) jump to the deal or the end, Space
plays at the chosen speed, ``+``/``-`` change it, ``t`` jumps to a turn, ``s`` turns the table
to the other seat, ``q`` closes the replay. The frames come from :mod:`spite_malice.replay`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input, Static

from ...engine.cards import Card, parse_card
from ...engine.events import Event, TurnEnded
from ...engine.rules import HAND_SIZE
from ...i18n import N_, _, ngettext
from ...replay import Frame
from ..card_text import (
    DIM,
    back_chip,
    card_chip,
    cards_in_text,
    center_stack_lines,
    empty_chip,
)
from ..event_text import describe_event
from ..language import translate_bindings
from ..places import payoff_left
from ..widgets import MessageLine, MoveLog, PileView
from .table_layout import compose_table

# TRANSLATORS: the replay's speeds, in "Replay playing, speed {speed}."
SPEEDS = ((N_("slow"), 2.0), (N_("normal"), 1.0), (N_("fast"), 0.4), (N_("very fast"), 0.1))
"""The replay's speeds: seconds between two moves."""


def describe(event: Event, names: Sequence[str]) -> str:
    """An event in the player's language with both players' names (a replay has no "you")."""
    return describe_event(event, names)


def _sentences(said: Sequence[str]) -> str:
    """Events said one after another, each ending with a full stop."""
    return " ".join(text if text.endswith((".", "!", "?")) else text + "." for text in said)


class ReplayScreen(Screen[None]):
    """A game's frames on the table, stepped through by key."""

    AUTO_FOCUS = None
    """Nothing takes the focus: the keys step the replay (the turn box only when asked)."""
    # As the game's table: below 118 columns the moves' list makes way for the piles (each
    # frame's moves are on the message line), so that no pile's title is cut short.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (118, "-wide")]  # noqa: RUF012

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l", "step(1)", N_("Forward")),
        Binding("left,h", "step(-1)", N_("Back")),
        Binding("home,g", "jump(0)", N_("Back to the start"), show=False),
        Binding("end,G", "jump(-1)", N_("End"), show=False),
        Binding("space", "play", N_("Play/pause")),
        Binding("plus,equals_sign", "speed(1)", N_("Faster")),
        Binding("minus", "speed(-1)", N_("Slower")),
        Binding("t", "ask_turn", N_("Turn")),
        Binding("s", "switch_seat", N_("Other seat")),
        Binding("q,escape", "close", N_("Close")),
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
        translate_bindings(self)
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
            yield from compose_table(
                "", len(self.frames[0].table["center"]), hand_label="", interactive=False
            )
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
        box = Input(placeholder=_("Turn to jump to, then Enter"), id="turn-input")
        self.mount(box, before=self.query_one(MessageLine))
        box.focus()

    def _turn_box(self) -> Input | None:
        found = self.query("#turn-input")
        return found.first(Input) if found else None

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.input.remove()
        text = message.value.strip()
        if not text.isdigit():
            self.query_one(MessageLine).say(_("A turn is a whole number, such as 12."), "error")
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
        speed = _(SPEEDS[self.speed][0])
        if self.timer is not None:
            said = _("Replay playing, speed {speed}.", speed=speed)
        else:
            said = _("Replay paused, speed {speed}.", speed=speed)
        self.query_one(MessageLine).say(said)

    def show(self, index: int) -> None:
        """Draw frame ``index`` from the seat being watched."""
        self.index = index
        frame = self.frames[index]
        table = frame.table
        me, other = self.seat, 1 - self.seat
        self._show_player("opp-", table["players"][other])
        self._show_player("", table["players"][me])
        self.query_one("#opp-hand-label", Static).update(
            _("{name}'s hand", name=self.players[other])
        )
        # TRANSLATORS: left of the hand watched in a replay: a name cut to 6 letters, then
        # a word of at most 6 letters under it
        self.query_one("#hand-label", Static).update(_("{name}\nhand", name=self.players[me][:6]))
        self._pile("opp-hand").show([self._chips(table["players"][other]["hand"])])
        for i, stack in enumerate(table["center"]):
            cards = _cards(stack)
            self._pile(f"center-{i}").show(
                center_stack_lines(
                    cards,
                    table["center_takes"][i],
                    table["center_left"][i],
                    ascii_only=self.ascii_only,
                ),
                ngettext("{n} card", "{n} cards", len(cards)) if cards else "",
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
        self._pile(f"{prefix}payoff").show([top], payoff_left(len(payoff)))
        for i, pile in enumerate(player["side"]):
            cards = _cards(pile)
            lines = [card_chip(card, ascii_only=self.ascii_only) for card in cards]
            self._pile(f"{prefix}side-{i}").show(
                lines or [empty_chip(ascii_only=self.ascii_only)], str(len(cards)) if cards else ""
            )

    def _chips(self, hand: list[str]) -> Text:
        cards = _cards(hand)
        if not cards:
            return Text(_("no cards"), style=DIM)
        return Text(" ").join(card_chip(card, ascii_only=self.ascii_only) for card in cards)

    def _show_status(self, frame: Frame) -> None:
        last = len(self.frames) - 1
        outcome = frame.table.get("outcome")
        text = " " + _(
            "Replay: {first} against {second} · move {move} of {moves} · turn {turn} · "
            "watching {name}",
            first=self.players[0],
            second=self.players[1],
            move=frame.index,
            moves=last,
            # the turn the table stands in: after a turn's last move, the next one
            turn=frame.table["turn"],
            name=self.players[self.seat],
        )
        if outcome is not None:
            winner = outcome.get("winner")
            if winner is None:
                text += " · " + _("a draw")
            else:
                text += " · " + _(
                    "{name} won {points}", name=self.players[winner], points=outcome["points"]
                )
        if self.ascii_only:
            text = text.replace("\u00b7", "-")  # the middle dot between the facts
        self.query_one("#status", Static).update(text)
        said = [
            describe(event, self.players)
            for event in frame.events
            if not isinstance(event, TurnEnded)
        ]
        if frame.index == 0:
            starter = self.players[frame.table["to_move"]]
            said = [_("The game as dealt; {name} starts.", name=starter)]
        self.query_one(MessageLine).say(
            cards_in_text(_sentences(said) or _("A move."), ascii_only=self.ascii_only)
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
