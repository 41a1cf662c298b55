"""The end of a game: who won, the points, the match score, and what next."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..session import HUMAN, GameSession


def result_lines(session: GameSession) -> list[str]:
    """The result of the session's finished game and the state of the match, in English."""
    game = session.game
    outcome = game.outcome
    number = session.game_number
    lines: list[str] = []
    if outcome is None:
        return [f"Game {number} is still going on."]
    if outcome.winner is None:
        lines.append(f"Game {number} is drawn: {outcome.reason}. Nobody scores.")
    elif outcome.winner == HUMAN:
        lines.append(f"You win game {number} and score {outcome.points} point(s).")
    else:
        lines.append(
            f"{session.opponent_name} wins game {number} and scores {outcome.points} point(s)."
        )
    if session.is_assisted:
        lines.append("You used undo or a hint: the game counts as assisted.")
    score = session.match.score
    lines.append(
        f"Match: {session.player} {score[0]} : {score[1]} {session.opponent_name} "
        f"(first to {session.rules.match_target})."
    )
    winner = session.match.winner
    if winner is not None:
        lines.append(
            "You win the match!" if winner == HUMAN else f"{session.opponent_name} wins the match."
        )
    return lines


class GameOverScreen(ModalScreen[str]):
    """A box over the table; dismissed with ``next``, ``replay``, ``quit`` or ``look``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,enter", "choose('next')", "Next game"),
        Binding("escape", "choose('look')", "Look at the table"),
        Binding("r", "choose('replay')", "Replay the game"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        match_over = self.session.match.is_over
        next_label = "start a new match" if match_over else "deal the next game"
        with Vertical(id="game-over-box"):
            yield Static("\n".join(result_lines(self.session)), id="game-over-text")
            yield Static(
                f"n or Enter: {next_label}   r: replay this game   Esc: look at the table   "
                "q: quit",
                id="game-over-keys",
            )

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
