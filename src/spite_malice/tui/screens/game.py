"""The table: both players' cards, the center, the log, and play by key or mouse.

A move is two picks: a source (your pay-off top ``p``, a hand card ``1``-``5``, a side stack
top ``a s d f``), then a target (a center stack ``z x c v``, or a side stack to discard on).
The legal targets of the picked card are highlighted; an illegal attempt is explained on the
message line in the engine's words. The computer's moves are computed in a worker thread and
shown one by one with a short pause.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import Worker, WorkerState, get_current_worker

from ...bots import Bot
from ...engine.cards import Card, card_str
from ...engine.errors import SpiteMaliceError
from ...engine.events import CardBuilt, CardDiscarded, Event, GameDealt, TurnEnded
from ...engine.moves import Move, parse_move
from ...engine.observation import Observation, PlayerView
from ...engine.rules import HAND_SIZE, PRESETS, SIDE_STACKS, Rules
from ...i18n import N_, NP_, _, current_language, ngettext
from ...store import StoreError
from ...table import computer
from ...table.computer import Suggestion
from ...tutorial import PRACTICE_LEVEL, PRACTICE_RULES, PRACTICE_SEED
from ..card_text import (
    DIM,
    back_chip,
    card_chip,
    card_label,
    card_words,
    cards_in_text,
    center_stack_lines,
    empty_chip,
    small_back,
)
from ..event_text import describe_event
from ..language import apply_language, translate_bindings
from ..persistence import Persistence
from ..places import (
    CENTER_KEYS,
    HAND_KEYS,
    PAYOFF_KEY,
    SIDE_KEYS,
    center_title,
    hand_source,
    keys_for,
    payoff_left,
    pile_source,
    pile_target,
    side_title,
    source_pile,
    target_pile,
)
from ..session import COMPUTER, HUMAN, GameSession, MatchSetup
from ..widgets import MessageLine, MoveLog, PileView, StatusBar
from .game_over import GameOverScreen
from .help import HelpScreen
from .language import LanguageScreen
from .log import LogScreen
from .new_match import NewMatchScreen
from .stats import StatsScreen
from .tutorial import PRACTICE, TutorialScreen

MIN_WIDTH = 80
MIN_HEIGHT = 24
NOTHING_TO_UNDO = N_("Nothing to undo: undo takes back your moves of this turn only.")


@dataclass(frozen=True, slots=True)
class TableSettings:
    """How the table looks and paces itself."""

    ascii_only: bool = False
    move_delay: float = 0.6
    """Seconds between two of the computer's moves, so each can be followed."""
    hint_seed: int = 0


def _pick_bindings() -> list[Binding]:
    # never shown in the key bar (show=False), so they need no words
    picks = [Binding(PAYOFF_KEY, "pick('payoff')", show=False)]
    picks += [Binding(k, f"pick('hand-{i}')", show=False) for i, k in enumerate(HAND_KEYS)]
    picks += [Binding(k, f"pick('side-{i}')", show=False) for i, k in enumerate(SIDE_KEYS)]
    picks += [Binding(k, f"pick('center-{i}')", show=False) for i, k in enumerate(CENTER_KEYS)]
    return picks


class GameScreen(Screen[None]):
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
            with Vertical(id="table"):
                with Horizontal(id="opp-hand-row"):
                    yield Static(_("{name}'s hand", name=opponent), id="opp-hand-label")
                    yield PileView("opp-hand", "", interactive=False)
                with Horizontal(id="opponent", classes="player-row"):
                    yield PileView("opp-payoff", _("Pay-off"), interactive=False)
                    for i in range(SIDE_STACKS):
                        yield PileView(f"opp-side-{i}", side_title(i), interactive=False)
                with Horizontal(id="center-row"):
                    for i in range(self.session.rules.center_stacks):
                        yield PileView(f"center-{i}", center_title(i), key=CENTER_KEYS[i])
                    yield PileView("stock", _("Stock"), interactive=False)
                with Horizontal(id="me", classes="player-row"):
                    yield PileView("payoff", _("Pay-off"), key=PAYOFF_KEY)
                    for i in range(SIDE_STACKS):
                        yield PileView(f"side-{i}", side_title(i), key=SIDE_KEYS[i])
                with Horizontal(id="hand-row"):
                    # TRANSLATORS: the label left of the hand, on two short lines of 6 cells
                    yield Static(_("Your\nhand"), id="hand-label")
                    for i in range(HAND_SIZE):
                        yield PileView(f"hand-{i}", "", key=HAND_KEYS[i])
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

    def _check_size(self, width: int, height: int) -> None:
        too_small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.set_class(too_small, "-too-small")
        if too_small:
            self.query_one("#too-small", Static).update(
                _(
                    "This terminal is {width}x{height}; the table needs at least "
                    "{min_width}x{min_height}.\nMake the window larger or the font smaller:\n"
                    "the game goes on where it was.",
                    width=width,
                    height=height,
                    min_width=MIN_WIDTH,
                    min_height=MIN_HEIGHT,
                )
            )

    def _pile(self, pile_id: str) -> PileView:
        return self.query_one(f"#{pile_id}", PileView)

    # ------------------------------------------------------------------ drawing

    def refresh_table(self) -> None:
        """Show the game as it stands: every pile, the status line and the highlights."""
        session = self.session
        observation = session.observation(HUMAN)
        ascii_only = self.settings.ascii_only
        self._show_player("opp-", observation.players[COMPUTER])
        self._show_player("", observation.players[HUMAN])
        opponent_hand = observation.players[COMPUTER].hand_count
        backs = Text(" ").join(small_back(ascii_only=ascii_only) for _ in range(opponent_hand))
        backs.append("  " + ngettext("{n} card", "{n} cards", opponent_hand), style=DIM)
        self._pile("opp-hand").show([backs])
        takes, left = observation.center_takes, observation.center_left
        for i, stack in enumerate(observation.center):
            value = len(stack)
            self._pile(f"center-{i}").show(
                center_stack_lines(stack, takes[i], left[i], ascii_only=ascii_only),
                ngettext("{n} card", "{n} cards", value) if value else "",
            )
        stock = observation.stock_count
        self._pile("stock").show(
            [back_chip(ascii_only=ascii_only) if stock else empty_chip(ascii_only=ascii_only)],
            f"{stock}",
        )
        hand = session.hand()
        for i in range(HAND_SIZE):
            pile = self._pile(f"hand-{i}")
            if i < len(hand):
                pile.show([card_chip(hand[i], ascii_only=ascii_only)])
                pile.tooltip = card_words(hand[i])
            else:
                pile.show([empty_chip(ascii_only=ascii_only)])
                pile.tooltip = None
        self._show_status(observation)
        self._show_highlights()
        if self._offered_next != session.game.is_over:
            self._offered_next = session.game.is_over
            self.refresh_bindings()  # "Next game" comes and goes in the key bar

    def _show_player(self, prefix: str, view: PlayerView) -> None:
        ascii_only = self.settings.ascii_only
        top = view.payoff_top
        chip = (
            empty_chip(ascii_only=ascii_only)
            if top is None
            else card_chip(top, ascii_only=ascii_only)
        )
        self._pile(f"{prefix}payoff").show([chip], payoff_left(view.payoff_count))
        self._pile(f"{prefix}payoff").tooltip = None if top is None else card_words(top)
        for i, pile in enumerate(view.side):
            lines = [card_chip(card, ascii_only=ascii_only) for card in pile]
            self._pile(f"{prefix}side-{i}").show(
                lines or [empty_chip(ascii_only=ascii_only)], f"{len(pile)}" if pile else ""
            )

    def _show_status(self, observation: Observation) -> None:
        session = self.session
        game = session.game
        if game.is_over:
            whose = _("game over")
        elif game.to_move == HUMAN:
            whose = _("your turn")
        else:
            whose = _("{name} to play", name=session.opponent_name)
        self.query_one(StatusBar).show(
            player=session.player_label,
            opponent=session.opponent_name,
            score=(session.match.score[0], session.match.score[1]),
            target=session.rules.match_target,
            game_number=session.game_number,
            turn=observation.turn,
            whose_turn=whose,
            mine=game.to_move == HUMAN and not game.is_over,
            assisted=session.is_assisted,
            daily=session.table.meta.daily is not None,
        )

    def _pile_for_source(self, source: str, *, seat: int = HUMAN) -> str | None:
        return source_pile(source, self.session.hand(), seat=seat)

    def _show_highlights(self) -> None:
        session = self.session
        marks: dict[str, set[str]] = {
            "-selected": set(),
            "-target": set(),
            "-playable": set(),
            "-hinted": set(),
            "-last": set(),
        }
        source = self._source_of(self.selected) if self.selected else None
        if source is not None and self.selected is not None:
            marks["-selected"].add(self.selected)
            marks["-target"] = {target_pile(t) for t in session.targets(source)}
        elif session.is_human_turn and not self.computer_busy:
            for playable in session.sources(builds_only=True):
                pile = self._pile_for_source(playable)
                if pile is not None:
                    marks["-playable"].add(pile)
        if self.suggestion is not None and self.suggestion.moves:
            first = self.suggestion.moves[0].notation.partition("-")
            hinted_source = self._pile_for_source(first[0])
            if hinted_source is not None:
                marks["-hinted"].add(hinted_source)
            marks["-hinted"].add(target_pile(first[2]))
        last = self.last_computer_move
        if last is not None:
            from_, _sep, to = last.notation.partition("-")
            marks["-last"].add(target_pile(to, seat=COMPUTER))
            computer_source = self._pile_for_source(from_, seat=COMPUTER)
            if computer_source is not None:
                marks["-last"].add(computer_source)
        for view in self.query(PileView):
            for name, piles in marks.items():
                view.set_class(view.pile_id in piles, name)

    # ------------------------------------------------------------------ the log

    def _log_line(self, event: Event) -> Text:
        line = cards_in_text(self._describe(event), ascii_only=self.settings.ascii_only)
        if isinstance(event, TurnEnded):
            line.stylize("dim")
        elif getattr(event, "player", HUMAN) == COMPUTER:
            line.stylize("italic")
        return line

    def _describe(self, event: Event) -> str:
        names = (self.session.player_label, self.session.opponent_name)
        return describe_event(event, names, you=HUMAN)

    def _rebuild_log(self) -> None:
        self.query_one(MoveLog).replace(
            [self._log_line(event) for event in self.session.public_events()]
        )

    def _log(self, played_events: list[Event]) -> None:
        log = self.query_one(MoveLog)
        for event in played_events:
            log.add(self._log_line(event))

    # ------------------------------------------------------------------ picking

    def _source_of(self, pile_id: str | None) -> str | None:
        """The move source a pile stands for (``P``, ``H7``, ``S2``), None when it has none."""
        if pile_id is None:
            return None
        player = self.session.game.players[HUMAN]
        return pile_source(pile_id, player.payoff, player.side, self.session.hand())

    def action_pick(self, pile_id: str) -> None:
        self.pick(pile_id)

    def on_pile_view_picked(self, message: PileView.Picked) -> None:
        self.pick(message.pile_id)

    def pick(self, pile_id: str) -> None:
        """A key press or click on a pile: pick a source, or a target for the picked source."""
        session = self.session
        message = self.query_one(MessageLine)
        if session.game.is_over:
            message.say(_("The game is over: press n for the next game."), "error")
            return
        if not session.is_human_turn or self.computer_busy:
            message.say(_("Wait: it is {name}'s turn.", name=session.opponent_name), "error")
            return
        kind, _sep, number = pile_id.partition("-")
        if kind == "center" and int(number) >= session.rules.center_stacks:
            count = session.rules.center_stacks
            message.say(
                ngettext(
                    "There is only {n} center stack.", "There are only {n} center stacks.", count
                ),
                "error",
            )
            return
        if self.selected is None:
            self._pick_source(pile_id)
            return
        if pile_id == self.selected:
            self.action_cancel()
            return
        selected_source = self._source_of(self.selected)
        if kind in ("payoff", "hand") or (
            kind == "side"
            and selected_source is not None
            and not selected_source.startswith("H")
            and self._source_of(pile_id) is not None
        ):
            self._pick_source(pile_id)
            return
        self._try_move(f"{selected_source}-{pile_target(pile_id)}")

    def _pick_source(self, pile_id: str) -> None:
        message = self.query_one(MessageLine)
        kind = pile_id.partition("-")[0]
        if kind == "center":
            message.say(
                _("Pick a card first (p, 1-5, a s d f), then the center stack to build on."),
                "error",
            )
            return
        source = self._source_of(pile_id)
        if source is None:
            number = int(pile_id.partition("-")[2] or 0) + 1
            if kind == "hand":
                message.say(_("Your hand has no card {number}.", number=number), "error")
            elif kind == "side":
                message.say(_("There is no card on side stack {number}.", number=number), "error")
            else:
                message.say(_("Your pay-off pile is empty."), "error")
            return
        self.selected = pile_id
        self._show_highlights()
        card = self._card_at(source)
        label = card_label(card, ascii_only=self.settings.ascii_only)
        targets = self.session.targets(source)
        builds = sorted(t for t in targets if t.startswith("C"))
        where = " ".join(CENTER_KEYS[int(t[1:]) - 1] for t in builds)
        sides = " ".join(SIDE_KEYS)
        if source.startswith("H"):
            if builds:
                text = _(
                    "{card} from your hand: build on {centers}, or discard on {sides} "
                    "(Esc: drop it).",
                    card=label,
                    centers=where,
                    sides=sides,
                )
            else:
                text = _(
                    "{card} from your hand: discard on {sides} (Esc: drop it).",
                    card=label,
                    sides=sides,
                )
        elif source == "P":
            if builds:
                text = _(
                    "{card} from your pay-off: build it on {centers} (Esc: drop it).",
                    card=label,
                    centers=where,
                )
            else:
                text = _(
                    "{card} from your pay-off cannot be built now: no center stack takes it.",
                    card=label,
                )
        else:
            side = int(source[1:])
            if builds:
                text = _(
                    "{card} from side stack {side}: build it on {centers} (Esc: drop it).",
                    card=label,
                    side=side,
                    centers=where,
                )
            else:
                text = _(
                    "{card} from side stack {side} cannot be built now: no center stack takes it.",
                    card=label,
                    side=side,
                )
        message.say(text)

    def _card_at(self, source: str) -> Card:
        player = self.session.game.players[HUMAN]
        if source == "P":
            return player.payoff[-1]
        if source.startswith("S"):
            return player.side[int(source[1:]) - 1][-1]
        return next(card for card in self.session.hand() if hand_source(card) == source)

    def action_cancel(self) -> None:
        if self.selected is not None:
            self.selected = None
            self._show_highlights()
            self._prompt()

    def _try_move(self, notation: str) -> None:
        try:
            played = self.session.play(parse_move(notation))
        except SpiteMaliceError as error:
            reason = str(getattr(error, "reason", str(error))).rstrip(".")
            self.query_one(MessageLine).say(
                _("Not allowed ({move}): {reason}.", move=notation, reason=reason), "error"
            )
            return
        self.selected = None
        self.suggestion = self._rest_of_hint(played.move)
        self.last_computer_move = None
        self._log(played.events)
        self.refresh_table()
        self._continue_play()

    def _rest_of_hint(self, played: Move) -> Suggestion | None:
        """After the hinted move, the hint's next move stays outlined while it is still legal."""
        hinted = self.suggestion
        if hinted is None or hinted.moves[0] is not played or len(hinted.moves) < 2:
            return None
        rest = hinted.moves[1:]
        return Suggestion(rest, hinted.reason) if rest[0] in self.session.legal_moves() else None

    def _prompt(self) -> None:
        session = self.session
        message = self.query_one(MessageLine)
        if session.game.is_over:
            message.say(_("The game is over: press n for the next game."))
        elif session.is_human_turn:
            message.say(
                _("Your turn: pick a card (p 1-5 a s d f), then a place (z x c / a s d f).")
            )

    def _continue_play(self) -> None:
        """After a change: end the game, start the computer or prompt the person; save."""
        session = self.session
        if session.game.is_over:
            self._game_over()  # saves the finished game
            return
        if session.is_computer_turn:
            self._start_computer()
        else:
            if self.last_computer_move is None:
                self._prompt()
            self.refresh_table()
        self._keep(self.persistence.save, session)

    # ------------------------------------------------------------------ the computer

    def _start_computer(self) -> None:
        self.computer_busy = True
        self.selected = None
        self.refresh_table()
        self.query_one(MessageLine).say(_("{name} is thinking...", name=self.session.opponent_name))
        self._computer_turn(self._generation, self.session.bot)

    @work(thread=True, exclusive=True, group="computer", exit_on_error=False)
    def _computer_turn(self, generation: int, bot: Bot) -> None:
        """The computer's whole turn, one move at a time; runs in a worker thread. Only the
        bot's thinking happens here: the game is read and changed on the app's thread."""
        worker = get_current_worker()
        delay = self.settings.move_delay
        while not worker.is_cancelled:
            observation = self.app.call_from_thread(self._computer_observation, generation)
            if observation is None:
                return
            move = computer.choose(bot, observation)
            if worker.is_cancelled:
                return
            more = self.app.call_from_thread(self._computer_played, generation, move)
            if not more:
                return
            if delay > 0:
                time.sleep(delay)

    def _computer_observation(self, generation: int) -> Observation | None:
        if generation != self._generation or not self.session.is_computer_turn:
            return None
        return self.session.observation(COMPUTER)

    def _computer_played(self, generation: int, move: Move) -> bool:
        """Show one computer move; returns whether the computer goes on playing."""
        if generation != self._generation or not self.session.is_computer_turn:
            return False
        played = self.session.play_computer(move)
        self.last_computer_move = move
        self._log(played.events)
        said = next((e for e in played.events if isinstance(e, CardBuilt | CardDiscarded)), None)
        if said is not None:
            line = cards_in_text(self._describe(said), ascii_only=self.settings.ascii_only)
            if self.session.is_human_turn:
                line.append(". ")
                line.append(_("Your turn."), style="bold")
            self.query_one(MessageLine).say(line)
        if self.session.is_computer_turn:
            self.refresh_table()
            return True
        self.computer_busy = False
        self.refresh_table()
        self._continue_play()
        return False

    # ------------------------------------------------------------------ hint and undo

    def action_hint(self) -> None:
        session = self.session
        message = self.query_one(MessageLine)
        if not session.is_human_turn or self.computer_busy:
            message.say(_("A hint is for your own turn."), "error")
            return
        if self.hint_busy:
            return
        self.hint_busy = True
        message.say(_("Looking for a good move..."), "hint")
        self._find_hint(self._generation, session.observation(HUMAN))

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def _find_hint(self, generation: int, observation: Observation) -> None:
        suggestion = computer.suggest(observation, seed=self.settings.hint_seed)
        self.app.call_from_thread(self._show_hint, generation, observation, suggestion)

    def _show_hint(self, generation: int, observation: Observation, suggestion: Suggestion) -> None:
        self.hint_busy = False
        if generation != self._generation or observation.history != tuple(self.session.game.moves):
            return
        self.session.mark_assisted()
        self.suggestion = suggestion
        self.selected = None
        move = self.move_words(suggestion.moves[0])
        text = cards_in_text(_("Hint: {move}.", move=move), ascii_only=self.settings.ascii_only)
        if suggestion.reason:
            reason = suggestion.reason.rstrip(".")
            text.append(f" {reason[:1].upper()}{reason[1:]}.")
        self.query_one(MessageLine).say(text, "hint")
        self.refresh_table()

    def move_words(self, move: Move) -> str:
        """A move of the person in words, with the keys that make it, cards in notation (for
        :func:`cards_in_text`): ``5S from your hand on center 1 (keys 1 z)``."""
        source, _sep, target = move.notation.partition("-")
        card = card_str(self._card_at(source))
        first, second = keys_for(move, self.session.hand())
        number = int(target[1:])
        if target.startswith("C"):
            if source == "P":
                return _(
                    "{card} from your pay-off on center {center} (keys {first} {second})",
                    card=card,
                    center=number,
                    first=first,
                    second=second,
                )
            if source.startswith("S"):
                return _(
                    "{card} from side stack {side} on center {center} (keys {first} {second})",
                    card=card,
                    side=source[1:],
                    center=number,
                    first=first,
                    second=second,
                )
            return _(
                "{card} from your hand on center {center} (keys {first} {second})",
                card=card,
                center=number,
                first=first,
                second=second,
            )
        return _(
            "{card} from your hand as a discard on side stack {side} (keys {first} {second})",
            card=card,
            side=number,
            first=first,
            second=second,
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker that failed must not leave the table waiting for it."""
        if event.state != WorkerState.ERROR:
            return
        error = event.worker.error
        message = self.query_one(MessageLine)
        if event.worker.group == "hint":
            self.hint_busy = False
            message.say(_("No hint this time: {error}", error=error), "error")
        elif event.worker.group == "computer":
            self.computer_busy = False
            message.say(
                _("{name} failed: {error}", name=self.session.opponent_name, error=error), "error"
            )
            self.refresh_table()

    def action_undo(self) -> None:
        session = self.session
        message = self.query_one(MessageLine)
        if self.computer_busy:
            message.say(_(NOTHING_TO_UNDO), "error")
            return
        barrier = session.undo_barrier
        if barrier is not None:
            message.say(barrier, "error")
            return
        if not session.can_undo:
            message.say(_(NOTHING_TO_UNDO), "error")
            return
        taken = session.undo()
        self._generation += 1
        self.selected = None
        self.suggestion = None
        self._rebuild_log()
        self.refresh_table()
        self._keep(self.persistence.save, session)
        message.say(_("Took back {move}. This game now counts as assisted.", move=taken.notation))

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

    def _keep(self, action: Callable[[GameSession], None], session: GameSession) -> None:
        """Save through storage; a database error is shown and play goes on."""
        try:
            action(session)
        except StoreError as error:  # the store's own errors: show, keep playing
            first_line = str(error).splitlines()[0] if str(error) else type(error).__name__
            self.query_one(MessageLine).say(
                _("Could not save the game: {error}", error=first_line), "error"
            )

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
