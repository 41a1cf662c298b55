"""The tutorial in the terminal: the list of lessons, one lesson on a small table, and the
offer made at the first start.

The lessons themselves (deals, goals, explanations) live in :mod:`spite_malice.tutorial`;
these screens only draw a :class:`~spite_malice.tutorial.LessonRun` and pass it the moves
picked with the table's keys (``p``, ``1``-``5``, ``a s d f``, then ``z x c`` or a side
stack; ``h`` shows a move that does the step). Finished lessons are kept through the
game's :class:`Persistence`.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static

from ...engine.cards import RANK_OF, Card
from ...engine.rules import HAND_SIZE
from ...i18n import N_, _, ngettext
from ...store import StoreError
from ...tutorial import LESSONS, Lesson, LessonRun, Progress
from ..card_text import (
    DIM,
    back_chip,
    card_chip,
    card_label,
    center_stack_lines,
    empty_chip,
    small_back,
)
from ..language import translate_bindings
from ..persistence import Persistence
from ..places import (
    CENTER_KEYS,
    HAND_KEYS,
    PAYOFF_KEY,
    SIDE_KEYS,
    hand_source,
    keys_for,
    payoff_left,
    pile_source,
    pile_target,
    place_name,
    source_pile,
    target_pile,
)
from ..widgets import MessageLine, PileView
from .table_layout import compose_table

PRACTICE = "practice"
"""What the lesson list is dismissed with when the player starts the practice game."""

_CSS = """
#lesson-text {
    height: auto;
    max-height: 9;
    padding: 0 1;
    border: round $primary 50%;
}
#tutorial-box, #tutorial-offer-box {
    width: 76;
    height: auto;
    border: round $primary;
    padding: 1 2;
    background: $panel;
}
TutorialScreen, TutorialOfferScreen {
    align: center middle;
}
#lesson-title {
    height: 1;
    padding: 0 1;
    text-style: bold;
}
#lesson-intro {
    height: auto;
    padding: 0 1;
    color: $text-muted;
}
LessonScreen.-short #lesson-intro, LessonScreen.-short #opp-hand-row {
    display: none;
}
LessonScreen.-short #lesson-text {
    border: none;
    max-height: 5;
}
LessonScreen.-short #opponent {
    height: 3;
    min-height: 3;
}
"""


def _keep(persistence: Persistence, progress: Progress) -> str | None:
    """Store the progress; a sentence saying why it could not be kept, else None."""
    try:
        persistence.save_tutorial_progress(progress)
    except StoreError as error:
        first_line = str(error).splitlines()[0] if str(error) else type(error).__name__
        return _("Your progress could not be kept: {error}", error=first_line)
    return None


def _progress(persistence: Persistence) -> Progress:
    try:
        return persistence.tutorial_progress()
    except StoreError:
        return Progress()


class TutorialOfferScreen(ModalScreen[bool]):
    """Shown once, at the first start: take the tutorial (True) or play at once (False)."""

    CSS = _CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t,enter", "choose(True)", N_("Tutorial")),
        Binding("escape,q", "choose(False)", N_("Play now")),
    ]

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(id="tutorial-offer-box"):
            yield Static(
                _(
                    "New to Spite & Malice? The tutorial has eight short lessons on small "
                    "hand-made deals, and a practice game against Easy at the end.\n\n"
                    "Press t or Enter for the tutorial, Esc to play now. The tutorial is always "
                    "there with the t key."
                ),
                id="tutorial-offer-text",
            )

    def on_mount(self) -> None:
        self.query_one("#tutorial-offer-box").border_title = _("Welcome")

    def action_choose(self, take: bool) -> None:
        self.dismiss(take)


class TutorialScreen(ModalScreen[str | None]):
    """The lessons with their progress: a number opens one, Enter the next one not done,
    ``g`` starts the practice game against Easy (dismissed with :data:`PRACTICE`)."""

    CSS = _CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(str(i), f"open({i - 1})", show=False) for i in range(1, len(LESSONS) + 1)],
        Binding("enter", "open_next", N_("Next lesson")),
        Binding("g", "practice", N_("Practice game")),
        Binding("escape,q", "close", N_("Back to the game")),
    ]

    def __init__(self, persistence: Persistence) -> None:
        super().__init__()
        translate_bindings(self)
        self.persistence = persistence
        self.progress = _progress(persistence)

    def compose(self) -> ComposeResult:
        with Vertical(id="tutorial-box"):
            yield Static(id="tutorial-list")
            yield MessageLine(id="tutorial-message")

    def on_mount(self) -> None:
        self.query_one("#tutorial-box").border_title = _("Tutorial")
        self.show_list()

    def show_list(self) -> None:
        self.progress = _progress(self.persistence)
        text = Text()
        for number, lesson in enumerate(LESSONS, start=1):
            done = self.progress.is_finished(lesson.key)
            text.append(f" {number} ", style="bold reverse")
            # TRANSLATORS: before a finished lesson's title in the list of lessons
            title = _("[done] {title}", title=lesson.title) if done else lesson.title
            text.append(f" {title}\n", style=DIM if done else "")
        text.append(" g ", style="bold reverse")
        text.append(" " + _("A short practice game against Easy") + "\n")
        text.append(
            "\n" + _("Press a number for a lesson, Enter for the next one, Esc to go back."),
            style=DIM,
        )
        self.query_one("#tutorial-list", Static).update(text)

    def action_open(self, index: int) -> None:
        self.app.push_screen(
            LessonScreen(LESSONS[index], self.persistence),
            lambda result: self._after_lesson(index, result),
        )

    def _after_lesson(self, index: int, result: str | None) -> None:
        self.show_list()
        if result != "next":
            return
        if index + 1 < len(LESSONS):
            self.action_open(index + 1)
        else:
            self.query_one(MessageLine).say(
                _("That was the last lesson. Press g for a short practice game against Easy.")
            )

    def action_open_next(self) -> None:
        key = self.progress.next_lesson(tuple(lesson.key for lesson in LESSONS))
        if key is None:
            self.query_one(MessageLine).say(
                _(
                    "Every lesson is done: press g for the practice game, or a number to go "
                    "over a lesson again."
                )
            )
            return
        self.action_open(next(i for i, lesson in enumerate(LESSONS) if lesson.key == key))

    def action_practice(self) -> None:
        self.dismiss(PRACTICE)

    def action_close(self) -> None:
        self.dismiss(None)


class LessonScreen(Screen[str | None]):
    """One lesson on the table: what to do above it, the answer to each move below it.
    Dismissed with ``next`` when the learner asks for the next lesson."""

    CSS = _CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(PAYOFF_KEY, "pick('payoff')", show=False),
        *[Binding(k, f"pick('hand-{i}')", show=False) for i, k in enumerate(HAND_KEYS)],
        *[Binding(k, f"pick('side-{i}')", show=False) for i, k in enumerate(SIDE_KEYS)],
        *[Binding(k, f"pick('center-{i}')", show=False) for i, k in enumerate(CENTER_KEYS)],
        Binding("escape", "cancel", N_("Drop the card / back")),
        Binding("h", "show_me", N_("Show me")),
        Binding("n", "next_lesson", N_("Next lesson")),
        Binding("r", "restart", N_("Start again")),
        Binding("b", "back", N_("Lessons")),
    ]
    AUTO_FOCUS = ""  # as at the game's table: the cursor appears with the first arrow key
    # a short terminal (under 34 lines) drops the lesson's intro and squeezes the opponent
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]  # noqa: RUF012

    def __init__(self, lesson: Lesson, persistence: Persistence) -> None:
        super().__init__()
        translate_bindings(self)
        self.lesson = lesson
        self.persistence = persistence
        self.run = LessonRun(lesson)
        self.selected: str | None = None
        self.shown: tuple[str, str] | None = None
        """The piles of the move "show me" outlines (source, target), until the next move."""

    @property
    def number(self) -> int:
        return LESSONS.index(self.lesson) + 1

    def compose(self) -> ComposeResult:
        title = _(
            "Lesson {number} of {count}: {title}",
            number=self.number,
            count=len(LESSONS),
            title=self.lesson.title,
        )
        yield Static(title, id="lesson-title")
        yield Static(self.lesson.intro, id="lesson-intro")
        yield Static(id="lesson-text")
        yield from compose_table(_("Opponent's hand"), self.run.game.rules.center_stacks)
        yield MessageLine(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_table()
        self.query_one(MessageLine).say(
            _("Pick a card (p 1-5 a s d f), then its place (z x c, or a s d f to discard).")
        )

    # ------------------------------------------------------------------ drawing

    @property
    def ascii_only(self) -> bool:
        return self.app.has_class("-ascii")

    def hand(self) -> list[Card]:
        """The learner's hand as shown: by rank, then suit (as at the game's table)."""
        return sorted(self.run.game.players[0].hand, key=lambda card: (RANK_OF[card], card))

    def refresh_table(self) -> None:
        """Draw the lesson's text and the table as the learner sees it (seat 0's view)."""
        run = self.run
        text = Text()
        if run.is_finished:
            text.append(run.instruction, style="bold")
            if self.number < len(LESSONS):
                keys = _("n: next lesson   r: start again   b: the lessons")
            else:
                keys = _("n: the practice game   r: start again   b: the lessons")
            text.append("\n" + keys, style=DIM)
        else:
            step = _(
                "Step {number} of {count}:", number=run.index + 1, count=len(self.lesson.steps)
            )
            text.append(step + " ", style="bold")
            text.append(run.instruction)
        self.query_one("#lesson-text", Static).update(text)
        observation = run.game.observation(0)
        ascii_only = self.ascii_only
        for prefix, view in (("opp-", observation.players[1]), ("", observation.players[0])):
            top = view.payoff_top
            chip = (
                empty_chip(ascii_only=ascii_only)
                if top is None
                else card_chip(top, ascii_only=ascii_only)
            )
            self._pile(f"{prefix}payoff").show([chip], payoff_left(view.payoff_count))
            for i, pile in enumerate(view.side):
                lines = [card_chip(card, ascii_only=ascii_only) for card in pile]
                self._pile(f"{prefix}side-{i}").show(
                    lines or [empty_chip(ascii_only=ascii_only)], f"{len(pile)}" if pile else ""
                )
        count = observation.players[1].hand_count
        backs = Text(" ").join(small_back(ascii_only=ascii_only) for _ in range(count))
        self._pile("opp-hand").show([backs])
        takes, left = observation.center_takes, observation.center_left
        for i, stack in enumerate(observation.center):
            self._pile(f"center-{i}").show(
                center_stack_lines(stack, takes[i], left[i], ascii_only=ascii_only),
                ngettext("{n} card", "{n} cards", len(stack)) if stack else "",
            )
        stock = observation.stock_count
        chip = back_chip(ascii_only=ascii_only) if stock else empty_chip(ascii_only=ascii_only)
        self._pile("stock").show([chip], f"{stock}")
        hand = self.hand()
        for i in range(HAND_SIZE):
            chips = [card_chip(hand[i], ascii_only=ascii_only)] if i < len(hand) else []
            self._pile(f"hand-{i}").show(chips or [empty_chip(ascii_only=ascii_only)])
        self._highlight()

    def _pile(self, pile_id: str) -> PileView:
        return self.query_one(f"#{pile_id}", PileView)

    def _highlight(self) -> None:
        source = self._source_of(self.selected)
        targets: set[str] = set()
        if source is not None:
            for move in self.run.legal_moves():
                move_source, _sep, target = move.notation.partition("-")
                if move_source == source:
                    targets.add(target_pile(target))
        shown = set(self.shown or ())
        for view in self.query(PileView):
            view.set_class(view.pile_id == self.selected, "-selected")
            view.set_class(view.pile_id in targets, "-target")
            view.set_class(view.pile_id in shown, "-hinted")

    # ------------------------------------------------------------------ picking

    def _source_of(self, pile_id: str | None) -> str | None:
        if pile_id is None:
            return None
        player = self.run.game.players[0]
        return pile_source(pile_id, player.payoff, player.side, self.hand())

    def action_pick(self, pile_id: str) -> None:
        self.pick(pile_id)

    def on_pile_view_picked(self, message: PileView.Picked) -> None:
        self.pick(message.pile_id)

    def pick(self, pile_id: str) -> None:
        """A pile picked by key or click: a card to move, or where the picked card goes."""
        message = self.query_one(MessageLine)
        if self.run.is_finished:
            message.say(_("This lesson is done: press n for the next one, r to start again."))
            return
        kind = pile_id.partition("-")[0]
        if kind == "center" and int(pile_id.partition("-")[2]) >= len(self.run.game.center):
            count = len(self.run.game.center)
            message.say(
                ngettext(
                    "There is only {n} center stack.", "There are only {n} center stacks.", count
                ),
                "error",
            )
            return
        selected = self._source_of(self.selected)
        if selected is None or pile_id == self.selected:
            if pile_id == self.selected:
                self.action_cancel()
                return
            self._pick_source(pile_id)
            return
        if kind in ("payoff", "hand") or (
            kind == "side" and not selected.startswith("H") and self._source_of(pile_id)
        ):
            self._pick_source(pile_id)
            return
        target = pile_target(pile_id)
        assert target is not None  # a center or a side stack: the only other piles
        self.selected = None
        self.shown = None
        attempt = self.run.attempt(f"{selected}-{target}")
        if attempt.accepted:
            message.say(attempt.text or _("Good."))
            if self.run.is_finished:
                self._finished()
        else:
            message.say(attempt.text, "error")
        self.refresh_table()

    def _pick_source(self, pile_id: str) -> None:
        message = self.query_one(MessageLine)
        source = self._source_of(pile_id)
        if source is None:
            kind = pile_id.partition("-")[0]
            if kind == "center":
                message.say(_("Pick a card first (p, 1-5, a s d f), then the stack."), "error")
            elif kind == "hand":
                message.say(_("Your hand has no card there."), "error")
            else:
                message.say(_("There is no card on {place}.", place=place_name(pile_id)), "error")
            return
        self.selected = pile_id
        card = self._card(source)
        label = card_label(card, ascii_only=self.ascii_only)
        if source.startswith("H"):
            said = _(
                "{card} picked: now a center stack (z x c), or discard it on a s d f "
                "(Esc: drop it).",
                card=label,
            )
        else:
            said = _("{card} picked: now a center stack (z x c) (Esc: drop it).", card=label)
        message.say(said)
        self._highlight()

    def _card(self, source: str) -> Card:
        player = self.run.game.players[0]
        if source == "P":
            return player.payoff[-1]
        if source.startswith("S"):
            return player.side[int(source[1:]) - 1][-1]
        return next(card for card in self.hand() if hand_source(card) == source)

    def _finished(self) -> None:
        progress = _progress(self.persistence).with_finished(self.lesson.key)
        failure = _keep(self.persistence, progress)
        if failure is not None:
            self.query_one(MessageLine).say(failure, "error")

    # ------------------------------------------------------------------ other keys

    def action_cancel(self) -> None:
        if self.selected is None:
            self.dismiss(None)
            return
        self.selected = None
        self._highlight()
        self.query_one(MessageLine).say(_("Dropped. Pick a card."))

    def action_show_me(self) -> None:
        """Outline a move that does the step and say it in words (with its keys)."""
        shown = self.run.show_me()
        if shown is None:
            self.query_one(MessageLine).say(_("This lesson is done: press n for the next one."))
            return
        move, text = shown
        source, _sep, target = move.notation.partition("-")
        source_id = source_pile(source, self.hand())
        assert source_id is not None  # the move is legal, so its card is there
        self.shown = (source_id, target_pile(target))
        first, second = keys_for(move, self.hand())
        keys = _("Keys: {first} then {second}.", first=first, second=second)
        self.query_one(MessageLine).say(f"{text} {keys}", "hint")
        self._highlight()

    def action_restart(self) -> None:
        self.run = LessonRun(self.lesson)
        self.selected = None
        self.shown = None
        self.refresh_table()
        self.query_one(MessageLine).say(_("The lesson starts again."))

    def action_back(self) -> None:
        self.dismiss(None)

    def action_next_lesson(self) -> None:
        if not self.run.is_finished:
            self.query_one(MessageLine).say(
                _("Finish this lesson first (b: the lessons)."), "error"
            )
            return
        self.dismiss("next")
