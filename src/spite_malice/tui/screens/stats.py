"""The player's statistics per level, from the database the browser game shares."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from ...table import level_label as level_title

if TYPE_CHECKING:
    from ...store import LevelStats, PlayerStats

COLUMNS = (
    "Level",
    "Games",
    "Won",
    "Lost",
    "Drawn",
    "Win rate",
    "Points",
    "Matches won",
    "Streak (best)",
    "Assisted",
)


def stats_row(row: LevelStats) -> tuple[str, ...]:
    """One table row: a level's results."""
    return (
        "All levels" if row.level == "all" else level_title(row.level),
        str(row.games),
        str(row.wins),
        str(row.losses),
        str(row.draws),
        f"{row.win_rate:.0%}",
        f"{row.points_for}-{row.points_against}",
        f"{row.matches_won}/{row.matches}",
        f"{row.current_streak} ({row.best_streak})",
        str(row.assisted),
    )


class StatsScreen(ModalScreen[None]):
    """A table of the player's results against each level; Esc closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,i,q", "close", "Close")]

    def __init__(self, stats: PlayerStats | None, where: str) -> None:
        super().__init__()
        self.stats = stats
        self.where = where

    def compose(self) -> ComposeResult:
        with Vertical(id="stats-box"):
            if self.stats is None:
                yield Static("Statistics are not kept in this game (it was started with --no-db).")
            elif not self.stats.levels:
                yield Static(f"No finished games yet for {self.stats.player}.")
            else:
                yield DataTable(id="stats-table", cursor_type="none", zebra_stripes=True)
            yield Static(f"Kept in {self.where}. Esc closes.", id="stats-where")

    def on_mount(self) -> None:
        box = self.query_one("#stats-box")
        player = self.stats.player if self.stats is not None else ""
        box.border_title = f"Statistics of {player}" if player else "Statistics"
        if self.stats is None or not self.stats.levels:
            return
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        for row in [*self.stats.levels, self.stats.total]:
            table.add_row(*stats_row(row))

    def action_close(self) -> None:
        self.dismiss(None)
