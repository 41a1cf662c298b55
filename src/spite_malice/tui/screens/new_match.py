"""Choosing a new match: the computer's level and the rules preset."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ...engine.rules import PRESETS, Rules
from ...i18n import N_, _
from ...table import level_name as level_title
from ...table import levels as available_levels
from ..language import translate_bindings

RULES_NOTES = {"standard": N_("20-card pay-off piles"), "quick": N_("10-card pay-off piles")}
RULES_NAMES = {"standard": N_("standard"), "quick": N_("quick")}
"""The presets' names as players read them (the code's names stay the preset keys)."""


class NewMatchScreen(ModalScreen[tuple[str, Rules] | None]):
    """Pick a level (1-4) and rules (r), then Enter; Esc keeps the current match."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(str(i), f"level({i - 1})", show=False) for i in range(1, 10)],
        Binding("r", "toggle_rules", N_("Rules")),
        Binding("enter", "start", N_("Start")),
        Binding("escape,q", "cancel", N_("Keep playing")),
    ]

    def __init__(self, level: str, rules_name: str, *, match_in_progress: bool) -> None:
        super().__init__()
        translate_bindings(self)
        self.levels = available_levels()
        self.level = level if level in self.levels else self.levels[0]
        self.rules_name = rules_name if rules_name in PRESETS else "standard"
        self.match_in_progress = match_in_progress

    def compose(self) -> ComposeResult:
        with Vertical(id="new-match-box"):
            yield Static(id="new-match-text")

    def on_mount(self) -> None:
        self.query_one("#new-match-box").border_title = _("New match")
        self._show()

    def _show(self) -> None:
        text = Text()
        text.append(_("Level") + "\n", style="bold")
        for number, level in enumerate(self.levels, start=1):
            chosen = level == self.level
            text.append(
                f" {'>' if chosen else ' '} {number}  {level_title(level)}\n",
                style="bold reverse" if chosen else "",
            )
        text.append("\n" + _("Rules") + " ", style="bold")
        name = self.rules_name
        rules = _(RULES_NAMES[name]) if name in RULES_NAMES else name
        note = _(RULES_NOTES[name]) if name in RULES_NOTES else ""
        text.append(_("(r to change): {rules}, {note}", rules=rules, note=note) + "\n")
        if self.match_in_progress:
            text.append(
                "\n"
                + _(
                    "Your current match ends here and counts as abandoned "
                    "(a game in progress counts as lost)."
                )
                + "\n",
                style="italic",
            )
        text.append("\n" + _("Enter: start   Esc: keep playing"), style="dim")
        self.query_one("#new-match-text", Static).update(text)

    def action_level(self, index: int) -> None:
        if index < len(self.levels):
            self.level = self.levels[index]
            self._show()

    def action_toggle_rules(self) -> None:
        names = sorted(PRESETS, key=lambda name: name != "standard")
        self.rules_name = names[(names.index(self.rules_name) + 1) % len(names)]
        self._show()

    def action_start(self) -> None:
        self.dismiss((self.level, PRESETS[self.rules_name]))

    def action_cancel(self) -> None:
        self.dismiss(None)
