"""The player's statistics per level, from the database the browser game shares."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from ...i18n import N_, _, format_number, format_percent
from ...table import level_name as level_title
from ..language import translate_bindings

if TYPE_CHECKING:
    from ...store import LevelStats, PlayerStats

# TRANSLATORS: the statistics table's column heads: keep them short (ten columns in 80 cells)
COLUMNS = (
    N_("Level"),
    N_("Games"),
    N_("Won"),
    N_("Lost"),
    N_("Drawn"),
    N_("Win rate"),
    N_("Points"),
    N_("Matches won"),
    N_("Streak (best)"),
    N_("Assisted"),
)


def stats_row(row: LevelStats) -> tuple[str, ...]:
    """One table row: a level's results."""
    number = format_number
    return (
        _("All levels") if row.level == "all" else level_title(row.level),
        number(row.games),
        number(row.wins),
        number(row.losses),
        number(row.draws),
        format_percent(row.win_rate),
        f"{number(row.points_for)}-{number(row.points_against)}",
        f"{number(row.matches_won)}/{number(row.matches)}",
        f"{number(row.current_streak)} ({number(row.best_streak)})",
        number(row.assisted),
    )


class StatsScreen(ModalScreen[None]):
    """A table of the player's results against each level; Esc closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,i,q", "close", N_("Close"))]

    def __init__(self, stats: PlayerStats | None, where: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.stats = stats
        self.where = where

    def compose(self) -> ComposeResult:
        with Vertical(id="stats-box"):
            if self.stats is None:
                yield Static(
                    _("Statistics are not kept in this game (it was started with --no-db).")
                )
            elif not self.stats.levels:
                yield Static(_("No finished games yet."))
            else:
                yield DataTable(id="stats-table", cursor_type="none", zebra_stripes=True)
            yield Static(_("Kept in {where}. Esc closes.", where=self.where), id="stats-where")

    def on_mount(self) -> None:
        # the player's own figures: the title names no one (``stats.player`` is an id)
        self.query_one("#stats-box").border_title = _("Statistics")
        if self.stats is None or not self.stats.levels:
            return
        table = self.query_one(DataTable)
        table.add_columns(*(_(column) for column in COLUMNS))
        for row in [*self.stats.levels, self.stats.total]:
            table.add_row(*stats_row(row))

    def action_close(self) -> None:
        self.dismiss(None)
