"""The top line: the match score, the game and turn, and whose turn it is."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ...i18n import _


class StatusBar(Static):
    """One line of facts about the match, set with :meth:`show`; it never wraps. When the
    facts are long in the player's language the line grows more compact (the match's target
    goes first, the game's number last) before the game's name makes room."""

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
        daily: bool = False,
    ) -> None:
        def line(*, with_target: bool, gap: str, with_game: bool = True) -> Text:
            text = Text(no_wrap=True, overflow="ellipsis")
            text.append(f"{player} {score[0]}", style="bold")
            text.append(" : ")
            text.append(f"{score[1]} {opponent}", style="bold")
            if with_target:
                # TRANSLATORS: after the match score: the points that win the match
                text.append(" " + _("(to {target})", target=target))
            text.append(gap)
            text.append(whose_turn, style="bold reverse" if mine else "bold")
            if daily:
                # TRANSLATORS: the status line of the daily deal (the same cards for everyone)
                text.append(gap + _("daily deal, turn {turn}", turn=turn))
            elif not with_game:
                # TRANSLATORS: the status line's turn when the line is short of room
                text.append(gap + _("turn {turn}", turn=turn))
            else:
                text.append(gap + _("game {game}, turn {turn}", game=game_number, turn=turn))
            if assisted:
                text.append(", ")
                text.append(_("assisted"), style="italic")
            return text

        title = Text.assemble((" Spite & Malice ", "bold reverse"), " ")
        width = self.app.size.width if self.is_attached else 0
        # The fullest line that fits with the game's name: then without the match's target,
        # then with single spaces, then without the game's number; only a line too long even
        # so loses the name.
        lines = [line(with_target=True, gap="  "), line(with_target=False, gap="  ")]
        lines.append(line(with_target=False, gap=" "))
        lines.append(line(with_target=False, gap=" ", with_game=False))
        for text in lines:
            if not width or title.cell_len + text.cell_len <= width:
                self.update(Text.assemble(title, text, no_wrap=True, overflow="ellipsis"))
                return
        self.update(lines[-1])
