"""The table's piles as the game, the tutorial and the replay all lay them out: the
opponent's hand and piles, the center stacks and the stock, the player's piles, then the
hand (the widgets' ids are the ones the screens and the stylesheet know)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from ...engine.rules import HAND_SIZE, SIDE_STACKS
from ...i18n import _
from ..places import CENTER_KEYS, HAND_KEYS, PAYOFF_KEY, SIDE_KEYS, center_title, side_title
from ..widgets import PileView


def compose_table(
    opponent_hand: str,
    center_stacks: int,
    *,
    hand_label: str | None = None,
    interactive: bool = True,
) -> ComposeResult:
    """The ``#table`` column: ``opponent_hand`` labels the opponent's hand; ``center_stacks``
    center stacks (R1.3); ``hand_label`` the player's hand ("Your hand" when None). A table
    that is only watched (a replay) has ``interactive`` false: no pile takes a key."""

    def own(pile_id: str, title: str, key: str) -> PileView:
        if interactive:
            return PileView(pile_id, title, key=key)
        return PileView(pile_id, title, interactive=False)

    with Vertical(id="table"):
        with Horizontal(id="opp-hand-row"):
            yield Static(opponent_hand, id="opp-hand-label")
            yield PileView("opp-hand", "", interactive=False)
        with Horizontal(id="opponent", classes="player-row"):
            yield PileView("opp-payoff", _("Pay-off"), interactive=False)
            for i in range(SIDE_STACKS):
                yield PileView(f"opp-side-{i}", side_title(i), interactive=False)
        with Horizontal(id="center-row"):
            for i in range(center_stacks):
                yield own(f"center-{i}", center_title(i), CENTER_KEYS[i])
            yield PileView("stock", _("Stock"), interactive=False)
        with Horizontal(id="me", classes="player-row"):
            # TRANSLATORS: the title of the player's pay-off pile in the terminal, after its key
            # ("p Pay-off"): at most 8 cells, or it is cut at 80 columns
            yield own("payoff", _("Pay-off"), PAYOFF_KEY)
            for i in range(SIDE_STACKS):
                yield own(f"side-{i}", side_title(i), SIDE_KEYS[i])
        with Horizontal(id="hand-row"):
            # TRANSLATORS: the label left of the hand, on two short lines of 6 cells
            your_hand = _("Your\nhand")
            yield Static(your_hand if hand_label is None else hand_label, id="hand-label")
            for i in range(HAND_SIZE):
                yield own(f"hand-{i}", "", HAND_KEYS[i])
