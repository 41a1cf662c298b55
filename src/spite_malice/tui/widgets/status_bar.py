"""The top line: the match score, the game and turn, and whose turn it is."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ...i18n import _


class StatusBar(Static):
    """One line of facts about the match, set with :meth:`show`."""

    def show(
        self,
        *,
        player: str,
        opponent: str,
        score: tuple[int, int],
        target: int,
        game_number: int,
        turn: int,
        whose_turn: str,
        assisted: bool,
        mine: bool = False,
    ) -> None:
        text = Text()
        text.append(" Spite & Malice ", style="bold reverse")
        text.append("  ")
        text.append(f"{player} {score[0]}", style="bold")
        text.append(" : ")
        text.append(f"{score[1]} {opponent}", style="bold")
        # TRANSLATORS: after the match score: the points that win the match
        text.append(" " + _("(to {target})", target=target) + "  ")
        text.append(whose_turn, style="bold reverse" if mine else "bold")
        text.append("  " + _("game {game}, turn {turn}", game=game_number, turn=turn))
        if assisted:
            text.append(", ")
            text.append(_("assisted"), style="italic")
        self.update(text)
