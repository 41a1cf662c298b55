"""The table's drawing: every pile, the status line, the highlights and the move log, from
the session as it stands (the first layer of :class:`~.game.GameScreen`)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.screen import Screen
from textual.widgets import Static

from ...engine.events import Event, TurnEnded
from ...engine.moves import Move
from ...engine.observation import Observation, PlayerView
from ...engine.rules import HAND_SIZE
from ...i18n import _, ngettext
from ...table.computer import Suggestion
from ..card_text import (
    DIM,
    back_chip,
    card_chip,
    card_words,
    cards_in_text,
    center_stack_lines,
    empty_chip,
    small_back,
)
from ..event_text import describe_event
from ..persistence import Persistence
from ..places import (
    payoff_left,
    pile_source,
    source_pile,
    target_pile,
)
from ..session import COMPUTER, HUMAN, GameSession
from ..widgets import MoveLog, PileView, StatusBar

MIN_WIDTH = 80
MIN_HEIGHT = 24


@dataclass(frozen=True, slots=True)
class TableSettings:
    """How the table looks and paces itself."""

    ascii_only: bool = False
    move_delay: float = 0.6
    """Seconds between two of the computer's moves, so each can be followed."""
    hint_seed: int = 0


class TableScreen(Screen[None]):
    """The table drawn: what every other layer of the game screen shows on."""

    session: GameSession
    settings: TableSettings
    persistence: Persistence
    selected: str | None
    """The picked pile, if any."""
    suggestion: Suggestion | None
    last_computer_move: Move | None
    computer_busy: bool
    hint_busy: bool
    _generation: int
    _offered_next: bool

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

    def _source_of(self, pile_id: str | None) -> str | None:
        """The move source a pile stands for (``P``, ``H7``, ``S2``), None when it has none."""
        if pile_id is None:
            return None
        player = self.session.game.players[HUMAN]
        return pile_source(pile_id, player.payoff, player.side, self.session.hand())
