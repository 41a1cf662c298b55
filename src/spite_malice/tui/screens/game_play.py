"""Playing at the table: picking a card and its place, the computer's turn in a worker
thread, hints and undo (the second layer of :class:`~.game.GameScreen`, above the drawing of
:mod:`.game_table`)."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual import work
from textual.worker import Worker, WorkerState, get_current_worker

from ...bots import Bot
from ...engine.cards import Card, card_str
from ...engine.errors import SpiteMaliceError
from ...engine.events import CardBuilt, CardDiscarded
from ...engine.moves import Move, parse_move
from ...engine.observation import Observation
from ...i18n import N_, _, ngettext
from ...store import StoreError
from ...table import computer
from ...table.computer import Suggestion
from ..card_text import (
    card_label,
    cards_in_text,
)
from ..places import (
    CENTER_KEYS,
    SIDE_KEYS,
    hand_source,
    keys_for,
    pile_target,
)
from ..session import COMPUTER, HUMAN, GameSession
from ..widgets import MessageLine, PileView
from .game_table import TableScreen

NOTHING_TO_UNDO = N_("Nothing to undo: undo takes back your moves of this turn only.")


class PlayScreen(TableScreen):
    """The table played: picks, moves, the computer's turns, hints and undo."""

    # ------------------------------------------------------------------ picking

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

    def _game_over(self) -> None:
        """What the screen does when a game ends (:class:`~.game.GameScreen` shows the end)."""
        raise NotImplementedError

    def _keep(self, action: Callable[[GameSession], None], session: GameSession) -> None:
        """Save through storage; a database error is shown and play goes on."""
        try:
            action(session)
        except StoreError as error:  # the store's own errors: show, keep playing
            first_line = str(error).splitlines()[0] if str(error) else type(error).__name__
            self.query_one(MessageLine).say(
                _("Could not save the game: {error}", error=first_line), "error"
            )
