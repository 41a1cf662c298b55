"""The table: both players' cards, the center, the log, and play by key or mouse.

A move is two picks: a source (your pay-off top ``p``, a hand card ``1``-``5``, a side stack
top ``a s d f``), then a target (a center stack ``z x c v``, or a side stack to discard on).
The legal targets of the picked card are highlighted; an illegal attempt is explained on the
message line in the engine's words. The computer's moves are computed in a worker thread and
shown one by one with a short pause.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Static

from ...engine.events import GameDealt
from ...engine.moves import Move
from ...engine.rules import PRESETS, Rules
from ...i18n import N_, NP_, _, current_language
from ...store import StoreError
from ...table.computer import Suggestion
from ...tutorial import PRACTICE_LEVEL, PRACTICE_RULES, PRACTICE_SEED
from ..language import apply_language, translate_bindings
from ..persistence import Persistence
from ..places import (
    CENTER_KEYS,
    HAND_KEYS,
    PAYOFF_KEY,
    SIDE_KEYS,
)
from ..session import HUMAN, GameSession, MatchSetup
from ..widgets import MessageLine, MoveLog, StatusBar
from .game_over import GameOverScreen
from .game_play import PlayScreen
from .game_table import TableSettings
from .help import HelpScreen
from .language import LanguageScreen
from .log import LogScreen
from .new_match import NewMatchScreen
from .stats import StatsScreen
from .table_layout import compose_table
from .tutorial import PRACTICE, TutorialScreen


def _pick_bindings() -> list[Binding]:
    # never shown in the key bar (show=False), so they need no words
    picks = [Binding(PAYOFF_KEY, "pick('payoff')", show=False)]
    picks += [Binding(k, f"pick('hand-{i}')", show=False) for i, k in enumerate(HAND_KEYS)]
    picks += [Binding(k, f"pick('side-{i}')", show=False) for i, k in enumerate(SIDE_KEYS)]
    picks += [Binding(k, f"pick('center-{i}')", show=False) for i, k in enumerate(CENTER_KEYS)]
    return picks


class GameScreen(PlayScreen):
    """The main screen: the whole table at a glance."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *_pick_bindings(),
        Binding("escape", "cancel", N_("Cancel"), show=False),  # said on the message line
        Binding("right,down", "app.focus_next", N_("Next place"), show=False),
        Binding("left,up", "app.focus_previous", N_("Previous place"), show=False),
        # TRANSLATORS: the key bar's words: one short word each where you can, the whole bar
        # (Hint, Undo, Help, Quit, New match, Tutorial, Language) must fit 80 columns
        Binding("h", "hint", N_("Hint")),
        Binding("u,ctrl+z", "undo", NP_("key bar", "Undo")),
        Binding("n", "next_game", N_("Next game")),
        # help and quit early in the key bar: a long language cuts its end on 80 columns
        Binding("question_mark,f1", "help", N_("Help")),
        Binding("q", "quit_game", N_("Quit")),
        # the log and the statistics are in the help's list of keys (and the log beside the
        # table on a wide terminal): the key bar keeps room for every language's words
        Binding("l", "show_log", N_("Log"), show=False),
        Binding("i", "statistics", N_("Stats"), show=False),
        Binding("m", "new_match", N_("New match")),
        Binding("t", "tutorial", N_("Tutorial")),
        Binding("g", "language", N_("Language")),
    ]
    AUTO_FOCUS = ""  # the cursor appears with the first arrow key, not at the start
    # Screen types these two as instance variables, so they cannot be ClassVar here.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (118, "-wide")]  # noqa: RUF012
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]  # noqa: RUF012

    def __init__(
        self, session: GameSession, settings: TableSettings, persistence: Persistence
    ) -> None:
        super().__init__()
        translate_bindings(self)
        self.session = session
        self.settings = settings
        self.persistence = persistence
        self.selected: str | None = None
        self.suggestion: Suggestion | None = None
        self.last_computer_move: Move | None = None
        self.computer_busy = False
        self.hint_busy = False
        self._generation = 0
        self._game_over_shown = False
        self._offered_next = False

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        opponent = self.session.opponent_name
        yield StatusBar(id="status")
        with Horizontal(id="body"):
            yield from compose_table(
                _("{name}'s hand", name=opponent), self.session.rules.center_stacks
            )
            yield MoveLog(id="log", focusable=False)
        yield Static(id="too-small")
        yield MessageLine(id="message")
        yield Footer(compact=True)  # the key bar fits 80 columns in every language

    def on_mount(self) -> None:
        self._check_size(self.app.size.width, self.app.size.height)
        self._rebuild_log()
        self.refresh_table()
        self._continue_play()

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    # ------------------------------------------------------------------ games and matches

    def _game_over(self) -> None:
        self.computer_busy = False
        self.refresh_table()
        self._keep(self.persistence.game_finished, self.session)
        self.query_one(MessageLine).say(_("The game is over: press n for the next game."))
        if not self._game_over_shown:
            self._game_over_shown = True
            self.app.push_screen(GameOverScreen(self.session), self._after_game_over)

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "quit":
            self.app.exit()
        elif choice == "next":
            self.action_next_game()
        elif choice == "replay":
            self.replay_game()

    def replay_game(self) -> None:
        """The game just finished, move by move, on the replay screen (``q`` comes back)."""
        from ...engine.record import GameRecord
        from ...replay import replay_frames
        from .replay import ReplayScreen

        names = (self.session.player_label, self.session.opponent_name)
        frames = replay_frames(GameRecord.from_game(self.session.game, names))
        self.app.push_screen(
            ReplayScreen(frames, names, seat=HUMAN, ascii_only=self.settings.ascii_only)
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """ "Next game" is offered (in the key bar too) only once the game is over; a hint
        and undo only while it goes on (which also leaves the key bar room for it)."""
        if action == "next_game":
            return self.session.game.is_over
        if action in ("hint", "undo"):
            return not self.session.game.is_over
        return True

    def action_next_game(self) -> None:
        session = self.session
        if not session.game.is_over:
            self.query_one(MessageLine).say(_("Finish this game first."), "error")
            return
        if session.match.is_over:
            self.session = session.rematch()
        else:
            session.next_game()
        self._generation += 1
        self._game_over_shown = False
        self.selected = None
        self.suggestion = None
        self.last_computer_move = None
        first = self.session.public_events()[:1]
        self._rebuild_log()
        self.refresh_table()
        if first and isinstance(first[0], GameDealt):
            number = self.session.game_number
            if first[0].first == HUMAN:
                dealt = _("Game {number} dealt. You start.", number=number)
            else:
                name = self.session.opponent_name
                dealt = _("Game {number} dealt. {name} starts.", number=number, name=name)
            self.query_one(MessageLine).say(dealt)
        self._continue_play()

    # ------------------------------------------------------------------ other screens

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_show_log(self) -> None:
        self.app.push_screen(LogScreen(self.query_one(MoveLog).entries))

    def action_new_match(self) -> None:
        session = self.session
        rules_name = next(
            (name for name, rules in PRESETS.items() if rules == session.rules), "standard"
        )
        in_progress = not session.match.is_over
        self.app.push_screen(
            NewMatchScreen(session.level, rules_name, match_in_progress=in_progress),
            self._start_new_match,
        )

    def _start_new_match(self, choice: tuple[str, Rules] | None) -> None:
        if choice is None:
            return
        level, rules = choice
        self._keep(self.persistence.abandon, self.session)
        session = GameSession.new(MatchSetup(rules=rules, level=level, player=self.session.player))
        self.app.switch_screen(GameScreen(session, self.settings, self.persistence))

    def action_tutorial(self) -> None:
        """The tutorial's lessons (see :mod:`.tutorial`); its practice game replaces this
        match on the table, which stays unfinished in the store, to be resumed later."""
        self.app.push_screen(TutorialScreen(self.persistence), self._after_tutorial)

    def _after_tutorial(self, choice: str | None) -> None:
        if choice != PRACTICE:
            return
        self._keep(self.persistence.save, self.session)
        setup = MatchSetup(PRACTICE_RULES, PRACTICE_LEVEL, PRACTICE_SEED, self.session.player)
        session = GameSession.new(setup)  # a seed makes it a practice match (session.py)
        self.app.switch_screen(GameScreen(session, self.settings, self.persistence))

    def action_statistics(self) -> None:
        try:
            stats = self.persistence.statistics()
        except StoreError as error:  # the database went away: say so, keep playing
            self.query_one(MessageLine).say(
                _("Statistics cannot be read: {error}", error=error), "error"
            )
            return
        self.app.push_screen(StatsScreen(stats, self.persistence.description))

    def action_language(self) -> None:
        """The language setting: the list of languages; the choice is kept and the table is
        drawn again in it."""
        self.app.push_screen(LanguageScreen(current_language()), self._language_chosen)

    def _language_chosen(self, language: str | None) -> None:
        if language is None or language == current_language():
            return
        chosen = apply_language(language)
        try:
            self.persistence.save_language(chosen)
        except StoreError as error:
            first_line = str(error).splitlines()[0] if str(error) else type(error).__name__
            self.query_one(MessageLine).say(
                _("The language could not be kept: {error}", error=first_line), "error"
            )
            return
        self._generation += 1  # the computer's turn, if any, starts again on the new screen
        self.app.switch_screen(GameScreen(self.session, self.settings, self.persistence))

    def action_quit_game(self) -> None:
        self._keep(self.persistence.save, self.session)
        self.app.exit()
