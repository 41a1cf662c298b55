"""The analysis reasons as they were worded before issue 15 marked them for translation
(src/spite_malice/analysis/reasons.py at e30369d), kept as the oracle of the English that
players read: tests/analysis/test_reasons_i18n.py compares the marked code with it. One
change since: ranks are named in words, as the page and the tutorial name them ("the Seven",
a King "as a five"), where that code wrote digits ("the 7", "as a 5")."""
# mypy: ignore-errors

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rank_words import ENGLISH_NAMES as NAMES
from rank_words import ENGLISH_VALUES as VALUES
from spite_malice.bots.view import TurnView
from spite_malice.engine.cards import KING, QUEEN
from spite_malice.engine.moves import Move


def _name(rank: int) -> str:
    return NAMES[rank - 1]


def a_rank(value: int) -> str:
    """A value with its article, in words: "an Ace", "a five", "a Jack"."""
    return VALUES[value - 1]


def _at(value: int) -> str:
    """A center stack's value as in "left at a six", "left at a Jack", "left at an Ace"."""
    return a_rank(value)


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
        value = self.center[move.center] + 1
        self.center[move.center] = 0 if value == QUEEN else value  # R3.4(b)


def _played(view: TurnView, moves: Sequence[Move]) -> _Table:
    table = _Table.of(view)
    for move in moves:
        table.play(move)
    return table


def describe_moves(view: TurnView, moves: Sequence[Move]) -> str:
    """The moves in words: "your pay-off 4 on center 2, then discard the 9 onto side stack 1"."""
    table = _Table.of(view)
    parts: list[str] = []
    for move in moves:
        rank = table.card(move)
        if move.is_discard:
            parts.append(f"discard the {_name(rank)} onto side stack {move.side_target + 1}")
        else:
            value = table.center[move.center] + 1
            shown = f"King (as {a_rank(value)})" if rank == KING else _name(rank)
            if move.is_from_payoff:
                card = f"your pay-off {shown}" if rank else "your next pay-off card"
            elif move.is_from_hand:
                card = f"the {shown} from your hand"
            else:
                card = f"the {shown} from side stack {move.side_source + 1}"
            parts.append(f"{card} on center {move.center + 1}")
        table.play(move)
    if not parts:
        return "nothing"
    return ", then ".join(parts)


def _needed(view: TurnView, table: _Table, rank: int) -> bool:
    """Whether ``rank`` is a card the seat needs soon: it fits a center stack now, or it lies
    between a center stack and the pay-off card (on the way to it)."""
    if rank == KING or rank - 1 in table.center:
        return True
    top = view.payoff_top
    return top != KING and any(value < rank < top for value in table.center)


def _feeding(view: TurnView, table: _Table) -> int:
    """The center stack (0-based) left one below the opponent's pay-off card, or -1."""
    need = view.opp_top
    if not need or need == KING:
        return -1
    return table.center.index(need - 1) if need - 1 in table.center else -1


def why_better(view: TurnView, played: Sequence[Move], better: Sequence[Move]) -> str:
    """Why ``better`` beats ``played`` at this view, in one plain sentence."""
    mine = _played(view, played)
    theirs = _played(view, better)
    if theirs.payoff_builds > mine.payoff_builds:
        if theirs.payoff_builds >= view.payoff_left:
            return "You could have won the game with your last pay-off card."
        shown = "King" if theirs.payoff_rank == KING else _name(theirs.payoff_rank)
        return f"You could have played your pay-off card, the {shown}."
    fed = _feeding(view, mine)
    if fed >= 0 and _feeding(view, theirs) < 0:
        if mine.center[fed] == 0:
            return f"Center {fed + 1} was left empty, ready for your opponent's pay-off Ace."
        return (
            f"Center {fed + 1} was left at {_at(mine.center[fed])}, one below your "
            f"opponent's {_name(view.opp_top)}."
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
            buried = _name(hidden)
            return f"Your {_name(rank)} on side stack {side + 1} buried the {buried} you needed."
    if theirs.refilled and not mine.refilled:
        return "You could have emptied your hand and drawn five new cards."
    wasted = _wasted_king(view, played, better)
    if wasted:
        return wasted
    built_mine = sum(1 for m in played if m.is_build)
    built_theirs = sum(1 for m in better if m.is_build)
    if built_theirs > built_mine:
        extra = built_theirs - built_mine
        return f"You could have built {extra} more card{'s' if extra > 1 else ''} this turn."
    if mine.discard is not None and theirs.discard is not None and mine.discard != theirs.discard:
        (rank, side), (other, other_side) = mine.discard, theirs.discard
        if rank == other:
            return f"Side stack {other_side + 1} was a better place for your {_name(rank)}."
        return f"The {_name(other)} was a better card to discard than the {_name(rank)}."
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
            return f"Holding back the {words} played out better over the next turns."
    return "The better turn did better over the next turns on the deals looked at."


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
            value = table.center[move.center] + 1
            if value in table.hand:
                return (
                    f"You used a King as {a_rank(value)} while you held {a_rank(value)}; "
                    "a King is worth keeping for a card you lack."
                )
        table.play(move)
    return "Keeping your King for later was worth more than playing it now."


def _list(words: Sequence[str]) -> str:
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def describe_table(view: TurnView) -> str:
    """The seat's position in words: centers, its pay-off card, hand and side-stack tops, and
    the opponent's pay-off card."""
    centers = _list([_name(v) if v else "empty" for v in view.center])
    hand = _list([_name(r) for r in view.hand]) if view.hand else "no cards"
    tops = _list([_name(p[-1]) if p else "empty" for p in view.side])
    text = f"center stacks {centers}; "
    if view.payoff_top:
        text += f"your pay-off card the {_name(view.payoff_top)} ({view.payoff_left} left); "
    text += f"your hand {hand}; your side stacks {tops}"
    if view.opp_top:
        text += (
            f"; your opponent's pay-off card the {_name(view.opp_top)} "
            f"({view.opp_payoff_left} left)"
        )
    return text + "."
