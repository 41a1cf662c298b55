"""Plain words for a choice: its moves as a player says them, and why another one was better.

Players read sentences, never notation: "the Seven from your hand on center 1", "your Nine on
side stack 2 buried the Eight you needed", "center 3 was left at a six, one below your
opponent's Seven". Ranks are named in words as the page and the tutorial name them (a rank's
name, a value with its article), never as digits. The reasons compare what two choices leave
on the table, from the seat's view only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..bots.view import TurnView
from ..engine.cards import KING
from ..engine.moves import Move
from ..engine.stacks import built, needs, taken_by
from ..i18n import _, ngettext, pgettext
from ..i18n.cards import a_value_word, rank_name


def _name(rank: int) -> str:
    """A rank's name in the current language ("Seven", "Jack"), as the page names it."""
    return rank_name(rank)


def _at(value: int) -> str:
    """A center stack's value as in "left at a six", "left at a Jack", "left at an Ace"."""
    return a_value_word(value)


def _shown(rank: int, value: int) -> str:
    """A card built, by its rank; a King with the rank it stands for (R3.1)."""
    if rank == KING:
        # TRANSLATORS: a King built as another rank (R3.1), e.g. "King (as a five)"
        return _("King (as {a_rank})", a_rank=a_value_word(value))
    return _name(rank)


@dataclass(slots=True)
class _Table:
    """The seat's cards in ranks while a choice is played out, with what happened on the way."""

    center: list[int]
    hand: list[int]
    side: list[list[int]]
    payoff_top: int
    payoff_builds: int = 0
    payoff_rank: int = 0
    """The rank of the pay-off card built (the first one: after it the next is unknown)."""
    refilled: bool = False
    discard: tuple[int, int] | None = None
    """(rank, side stack) of the discard."""
    buried: int = 0
    """The rank of the side-stack top the discard covered (0 when it covered nothing)."""
    built: list[int] = field(default_factory=list)
    """The ranks built, in order (a King as a King)."""

    @classmethod
    def of(cls, view: TurnView) -> _Table:
        return cls(
            list(view.center), list(view.hand), [list(p) for p in view.side], view.payoff_top
        )

    def card(self, move: Move) -> int:
        """The rank of the card ``move`` moves, before it is moved."""
        if move.is_from_payoff:
            return self.payoff_top
        if move.is_from_hand:
            return move.hand_rank
        return self.side[move.side_source][-1]

    def play(self, move: Move) -> None:
        rank = self.card(move)
        if move.is_build:
            self.built.append(rank)
        if move.is_discard:
            pile = self.side[move.side_target]
            self.buried = pile[-1] if pile else 0
            pile.append(rank)
            self.hand.remove(rank)
            self.discard = (rank, move.side_target)
            return
        if move.is_from_payoff:
            if not self.payoff_builds:
                self.payoff_rank = rank
            self.payoff_builds += 1
            self.payoff_top = 0  # R3.4(a): the next one is not known yet
        elif move.is_from_hand:
            self.hand.remove(rank)
            self.refilled = not self.hand  # R3.4(c)
        else:
            self.side[move.side_source].pop()
        self.center[move.center] = built(self.center[move.center])  # R3.1, R3.4(b)


def _played(view: TurnView, moves: Sequence[Move]) -> _Table:
    table = _Table.of(view)
    for move in moves:
        table.play(move)
    return table


def describe_moves(view: TurnView, moves: Sequence[Move], skip: int = 0) -> str:
    """The moves in words: "your pay-off Four on center 2, then discard the Nine onto side stack 1"
    (the first ``skip`` moves are played but not told: the rest of a plan)."""
    table = _Table.of(view)
    parts: list[str] = []
    for index, move in enumerate(moves):
        if index >= skip:
            parts.append(_move_words(table, move))
        table.play(move)
    if not parts:
        return pgettext("moves", "nothing")
    text = parts[0]
    for part in parts[1:]:
        # TRANSLATORS: two moves of a turn, one after the other
        text = _("{first}, then {second}", first=text, second=part)
    return text


def _move_words(table: _Table, move: Move) -> str:
    """One move in words, before it is played on ``table``."""
    rank = table.card(move)
    side = move.side_target + 1 if move.is_discard else move.side_source + 1
    if move.is_discard:
        return _("discard the {rank} onto side stack {side}", rank=_name(rank), side=side)
    center = move.center + 1
    if move.is_from_payoff and not rank:
        return _("your next pay-off card on center {center}", center=center)
    card = _shown(rank, needs(table.center[move.center]))
    if move.is_from_payoff:
        return _("your pay-off {card} on center {center}", card=card, center=center)
    if move.is_from_hand:
        return _("the {card} from your hand on center {center}", card=card, center=center)
    return _(
        "the {card} from side stack {side} on center {center}",
        card=card,
        side=side,
        center=center,
    )


def _needed(view: TurnView, table: _Table, rank: int) -> bool:
    """Whether ``rank`` is a card the seat needs soon: it fits a center stack now, or it lies
    between a center stack and the pay-off card (on the way to it)."""
    if rank == KING or taken_by(rank) in table.center:
        return True
    top = view.payoff_top
    return top != KING and any(value < rank < top for value in table.center)


def _feeding(view: TurnView, table: _Table) -> int:
    """The center stack (0-based) left one below the opponent's pay-off card, or -1."""
    need = view.opp_top
    if not need or need == KING:
        return -1
    value = taken_by(need)
    return table.center.index(value) if value in table.center else -1


def why_better(view: TurnView, played: Sequence[Move], better: Sequence[Move]) -> str:
    """Why ``better`` beats ``played`` at this view, in one plain sentence."""
    mine = _played(view, played)
    theirs = _played(view, better)
    if theirs.payoff_builds > mine.payoff_builds:
        if theirs.payoff_builds >= view.payoff_left:
            return _("You could have won the game with your last pay-off card.")
        return _(
            "You could have played your pay-off card, the {rank}.",
            rank=_name(theirs.payoff_rank),
        )
    fed = _feeding(view, mine)
    if fed >= 0 and _feeding(view, theirs) < 0:
        if mine.center[fed] == 0:
            return _(
                "Center {center} was left empty, ready for your opponent's pay-off Ace.",
                center=fed + 1,
            )
        return _(
            "Center {center} was left at {value}, one below your opponent's {rank}.",
            center=fed + 1,
            value=_at(mine.center[fed]),
            rank=_name(view.opp_top),
        )
    if mine.discard is not None and mine.buried:
        rank, side = mine.discard
        hidden = mine.buried
        covered_too = (
            theirs.discard is not None
            and theirs.discard[1] == side
            and theirs.buried == hidden
            and theirs.discard[0] not in (hidden, hidden - 1)
        )
        if rank not in (hidden, hidden - 1) and not covered_too and _needed(view, mine, hidden):
            return _(
                "Your {rank} on side stack {side} buried the {buried} you needed.",
                rank=_name(rank),
                side=side + 1,
                buried=_name(hidden),
            )
    if theirs.refilled and not mine.refilled:
        return _("You could have emptied your hand and drawn five new cards.")
    wasted = _wasted_king(view, played, better)
    if wasted:
        return wasted
    built_mine = sum(1 for m in played if m.is_build)
    built_theirs = sum(1 for m in better if m.is_build)
    if built_theirs > built_mine:
        return ngettext(
            "You could have built {n} more card this turn.",
            "You could have built {n} more cards this turn.",
            built_theirs - built_mine,
        )
    if mine.discard is not None and theirs.discard is not None and mine.discard != theirs.discard:
        (rank, side), (other, other_side) = mine.discard, theirs.discard
        if rank == other:
            return _(
                "Side stack {side} was a better place for your {rank}.",
                side=other_side + 1,
                rank=_name(rank),
            )
        return _(
            "The {better} was a better card to discard than the {rank}.",
            better=_name(other),
            rank=_name(rank),
        )
    if built_theirs < built_mine:
        left = list(theirs.built)
        kept = []
        for rank in mine.built:
            if rank in left:
                left.remove(rank)
            else:
                kept.append(rank)
        if kept:
            words = _list([_name(r) for r in sorted(set(kept))])
            return _("Holding back the {ranks} played out better over the next turns.", ranks=words)
    return _("The better turn did better over the next turns on the deals looked at.")


def _wasted_king(view: TurnView, played: Sequence[Move], better: Sequence[Move]) -> str:
    """A sentence when ``played`` built a King from the hand as a rank the hand also held and
    ``better`` did not spend that King."""
    kings_mine = sum(1 for m in played if m.hand_rank == KING and m.is_build)
    kings_theirs = sum(1 for m in better if m.hand_rank == KING and m.is_build)
    if kings_mine <= kings_theirs:
        return ""
    table = _Table.of(view)
    for move in played:
        if move.is_build and move.hand_rank == KING:
            value = needs(table.center[move.center])
            if value in table.hand:
                return _(
                    "You used a King as {a_rank} while you held {a_rank}; "
                    "a King is worth keeping for a card you lack.",
                    a_rank=a_value_word(value),
                )
        table.play(move)
    return _("Keeping your King for later was worth more than playing it now.")


def _list(words: Sequence[str]) -> str:
    """Words as a list in the current language: "Seven", "Seven and Nine", "Seven, Eight and
    Nine"."""
    text = words[0]
    for word in words[1:-1]:
        # TRANSLATORS: the items of a list but its last, e.g. "Seven, Eight" in "Seven, Eight
        # and Nine"
        text = _("{first}, {second}", first=text, second=word)
    if len(words) > 1:
        text = _("{first} and {second}", first=text, second=words[-1])
    return text


def describe_table(view: TurnView) -> str:
    """The seat's position in words: centers, its pay-off card, hand and side-stack tops, and
    the opponent's pay-off card."""
    empty = pgettext("stack", "empty")
    centers = _list([_name(v) if v else empty for v in view.center])
    hand = _list([_name(r) for r in view.hand]) if view.hand else _("no cards")
    tops = _list([_name(p[-1]) if p else empty for p in view.side])
    parts = [_("center stacks {centers}", centers=centers)]
    if view.payoff_top:
        parts.append(
            _(
                "your pay-off card the {rank} ({left} left)",
                rank=_name(view.payoff_top),
                left=view.payoff_left,
            )
        )
    parts.append(_("your hand {hand}", hand=hand))
    parts.append(_("your side stacks {tops}", tops=tops))
    if view.opp_top:
        parts.append(
            _(
                "your opponent's pay-off card the {rank} ({left} left)",
                rank=_name(view.opp_top),
                left=view.opp_payoff_left,
            )
        )
    text = parts[0]
    for part in parts[1:]:
        # TRANSLATORS: two parts of a description of the table, joined (as in a hint's reason)
        text = _("{first}; {second}", first=text, second=part)
    return text + "."
