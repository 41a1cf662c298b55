"""The end of a game: who won, the points, the match score, and what next."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ...i18n import N_, _, ngettext
from ..event_text import draw_reason
from ..language import translate_bindings
from ..session import HUMAN, GameSession


def result_lines(session: GameSession) -> list[str]:
    """The result of the session's finished game and the state of the match, in the player's
    language."""
    game = session.game
    outcome = game.outcome
    number = session.game_number
    lines: list[str] = []
    name = session.opponent_name
    if outcome is None:
        return [_("Game {number} is still going on.", number=number)]
    if outcome.winner is None:
        reason = draw_reason(outcome.reason)
        lines.append(
            _("Game {number} is drawn: {reason}. Nobody scores.", number=number, reason=reason)
        )
    elif outcome.winner == HUMAN:
        lines.append(
            ngettext(
                "You win game {number} and score {n} point.",
                "You win game {number} and score {n} points.",
                outcome.points,
                number=number,
            )
        )
    else:
        lines.append(
            ngettext(
                "{name} wins game {number} and scores {n} point.",
                "{name} wins game {number} and scores {n} points.",
                outcome.points,
                name=name,
                number=number,
            )
        )
    if session.is_assisted:
        lines.append(_("You used undo or a hint: the game counts as assisted."))
    score = session.match.score
    lines.append(
        _(
            "Match: {player} {mine} : {theirs} {name} (first to {target}).",
            player=session.player_label,
            mine=score[0],
            theirs=score[1],
            name=name,
            target=session.rules.match_target,
        )
    )
    winner = session.match.winner
    if winner is not None:
        lines.append(
            _("You win the match!") if winner == HUMAN else _("{name} wins the match.", name=name)
        )
    return lines


class GameOverScreen(ModalScreen[str]):
    """A box over the table; dismissed with ``next``, ``replay``, ``quit`` or ``look``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,enter", "choose('next')", N_("Next game")),
        Binding("escape", "choose('look')", N_("Look at the table")),
        Binding("r", "choose('replay')", N_("Replay the game")),
        Binding("q", "choose('quit')", N_("Quit")),
    ]

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        translate_bindings(self)
        self.session = session

    def compose(self) -> ComposeResult:
        match_over = self.session.match.is_over
        if match_over:
            keys = _(
                "n or Enter: start a new match   r: replay this game   "
                "Esc: look at the table   q: quit"
            )
        else:
            keys = _(
                "n or Enter: deal the next game   r: replay this game   "
                "Esc: look at the table   q: quit"
            )
        with Vertical(id="game-over-box"):
            yield Static("\n".join(result_lines(self.session)), id="game-over-text")
            yield Static(keys, id="game-over-keys")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
