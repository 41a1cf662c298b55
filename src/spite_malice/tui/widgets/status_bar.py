"""The top line: the match score, the game and turn, and whose turn it is."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ...i18n import _


class StatusBar(Static):
    """One line of facts about the match, set with :meth:`show`; it never wraps (the game's
    name makes room when the facts are long in the player's language)."""

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
        text = Text(no_wrap=True, overflow="ellipsis")
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
        title = Text.assemble((" Spite & Malice ", "bold reverse"), "  ")
        width = self.app.size.width if self.is_attached else 0
        # the game's name goes first when a long language leaves no room for it
        if not width or title.cell_len + text.cell_len <= width:
            text = Text.assemble(title, text, no_wrap=True, overflow="ellipsis")
        self.update(text)
