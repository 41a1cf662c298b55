"""The help screen: the rules in short, and the keys."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from ...i18n import N_, _
from ..language import translate_bindings

# TRANSLATORS: the terminal's help screen, in Markdown: keep the keys in `backticks` as they
# are, and the table's | separators
HELP_TEXT = N_("""\
# Spite & Malice

## Goal
Be the first to get rid of your **pay-off pile**. The winner scores one point for each card
left in the other player's pay-off pile; the first to **50 points** wins the match.

## The table
- Each player has a **pay-off pile** (only its top card is face up), a **hand** of up to
  five cards and **four side stacks**, fanned so every card shows.
- In the middle are the **center stacks**, shared by both players, and the **stock**.

## A turn
1. Your hand is filled up to five cards from the stock.
2. **Build** as often as you like: move a card onto a center stack from the top of your
   pay-off pile, from your hand, or from the top of a side stack. A center stack starts with
   an Ace and goes up one rank at a time: A, 2, 3 ... J, Q.
3. End the turn by **discarding** one hand card onto one of your side stacks (any card, any
   side stack).

## Special cards and events
- **Kings are wild**: a King goes on any center stack and stands for the card the stack
  needs (a King on a 10 is a Jack). The table shows what each King stands for (`K=J`).
- A center stack that reaches a **Queen** is complete: its cards are shuffled into the stock
  and the place is free again.
- Empty your hand while building and you draw five more cards at once, and go on.
- Emptying your pay-off pile wins at once. If the stock runs out, the game is drawn.
- Never allowed: moving a card between side stacks, putting a pay-off card anywhere but on
  a center stack, taking a card back into your hand.

## Keys
| Key | What it does |
|---|---|
| `p` | pick your pay-off top card |
| `1`-`5` | pick a card of your hand |
| `a` `s` `d` `f` | pick the top of side stack 1-4; with a hand card picked: discard there |
| `z` `x` `c` (`v`) | build the picked card on center stack 1-3 (4) |
| `Esc` | drop the picked card |
| arrows, `Tab` | move a cursor over your places; `Enter` or `Space` picks the one under it |
| `h` | hint: a good move is highlighted (the game then counts as assisted) |
| `u` or `Ctrl+Z` | undo your last move of this turn (the game then counts as assisted) |
| `n` | next game, once a game is over |
| `l` | the whole move log |
| `i` | your statistics per level (the same as in the browser game) |
| `m` | a new match: choose the level and the rules |
| `t` | the tutorial: eight short lessons, then a practice game against Easy |
| `g` | the language of the game (the terminal's own at first); it is kept |
| `?` or `F1` | this help |
| `q` | save and quit; the match goes on at the next start |

The mouse works too: click a card, then the place it goes to. Picked cards are outlined in
yellow, the places they may go to in green, a hint in magenta, and the computer's last move in
blue.
""")


class AsciiMarkdown(Markdown):
    """Markdown with ASCII bullets, for ``--ascii`` (Textual's are Unicode)."""

    BULLETS = ["* ", "- ", "+ "]  # noqa: RUF012  # Textual's class attribute, a list


class HelpScreen(ModalScreen[None]):
    """The rules and keys; Esc, ? or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q,f1", "close", N_("Close"))
    ]

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            ascii_only = self.app.has_class("-ascii")
            yield (AsciiMarkdown if ascii_only else Markdown)(_(HELP_TEXT))

    def on_mount(self) -> None:
        self.query_one("#help-box").border_title = _("Help (Esc closes)")

    def action_close(self) -> None:
        self.dismiss(None)
