"""Hints: the best turn for the seat to move, as moves and a reason a player understands.

A hint sees what the player sees and nothing more (R6.3): it is the whole-turn plan of the
Hard level (:mod:`.planning` with :class:`~.evaluation.AwareEvaluator`), computed from the
player's observation in milliseconds, deterministic, and explained by the same things that
chose it. The moves run to the end of the turn: a discard or a win. Two
things are unknown when the hint is given, and the hint says so: the pay-off card turned up
after a pay-off build (R3.4(a)) may change the best way on, and a hand emptied by builds
draws five new cards (R3.4(c)), after which the hint ends and a new one can be asked for.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.cards import KING
from ..engine.moves import Move
from ..engine.observation import Observation
from ..engine.stacks import built, needs
from ..i18n import _, ngettext
from ..i18n.cards import a_value_word, rank_name
from .evaluation import AwareEvaluator
from .planning import Ending, Plan, plan_turn, replay_ranks
from .view import TurnView, view_from_observation


@dataclass(frozen=True, slots=True)
class Hint:
    """The recommended rest of the turn and why."""

    moves: tuple[Move, ...]
    """Builds, then a discard or the winning build (or the build that empties the hand)."""
    reason: str

    def __str__(self) -> str:
        return f"{' '.join(str(m) for m in self.moves)}: {self.reason}"


def hint(observation: Observation, seed: int = 0) -> Hint:
    """The best turn for ``observation.seat``, which must be the seat to move.

    ``seed`` is part of the interface for hints that sample; this one is deterministic and the
    same position always gets the same hint."""
    if not observation.is_my_turn:
        raise ValueError("a hint is for the seat to move, and it is not this seat's turn")
    view = view_from_observation(observation)
    plan = plan_turn(view, AwareEvaluator())[0]
    return Hint(plan.moves, explain(view, plan))


def join_clauses(clauses: list[str]) -> str:
    """Clauses of one reason joined in the current language ("a; b; c")."""
    text = clauses[0] if clauses else ""
    for clause in clauses[1:]:
        # TRANSLATORS: two clauses of a hint's reason, joined (a third joins the same way).
        # Each clause says what the suggested turn does ("plays your pay-off Seven"); the page
        # shows the reason after its own "This ..." and each clause after "; " with "it ...",
        # so keep "; " between the clauses.
        text = _("{first}; {second}", first=text, second=clause)
    return text


def _and(items: list[str]) -> str:
    """Items joined by "and" ("an Ace and a two") in the current language."""
    text = items[0]
    for item in items[1:]:
        text = _("{first} and {second}", first=text, second=item)
    return text


def explain(view: TurnView, plan: Plan) -> str:
    """A short reason for ``plan`` in the player's words, in the current language: whole
    clauses (one message each), joined by :func:`join_clauses`. Each clause says what the
    turn does, its subject left out ("plays your pay-off Seven"): front ends put "This" (or
    "it") before it, in their language. Ranks are named in words, as the page and the
    tutorial name them: "the Seven" (:func:`rank_name`), a King "as a five"
    (:func:`a_value_word`), never as digits."""
    center = list(view.center)
    hand = list(view.hand)
    clauses: list[str] = []
    kings_as: list[int] = []
    payoff_clause = ""
    builds = 0
    for move in plan.moves:
        if move.is_discard:
            break
        builds += 1
        value = needs(center[move.center])  # the rank the card stands for (R3.1)
        if move.is_from_payoff:
            rank = view.payoff_top
            payoff_clause = _payoff_clause(rank, value, kings_as, plan.ending is Ending.WIN)
            kings_as = []
        else:
            rank = move.hand_rank if move.is_from_hand else view.side[move.side_source][-1]
            if move.is_from_hand:
                hand.remove(rank)
            if rank == KING and not payoff_clause:
                kings_as.append(value)
        center[move.center] = built(center[move.center])
    if payoff_clause:
        clauses.append(payoff_clause)
    if plan.ending is Ending.REFILL:
        clauses.append(_("empties your hand so you draw five new cards; ask again after"))
    danger = _danger_clause(view, center)
    if danger:
        clauses.append(danger)
    last = plan.moves[-1]
    if last.is_discard and len(clauses) < 2:
        side = replay_ranks(view, plan.moves[:-1])[2]
        clauses.append(_discard_clause(side, last, builds, bool(payoff_clause)))
    return join_clauses(clauses)


def _payoff_clause(rank: int, value: int, kings_as: list[int], wins: bool) -> str:
    """The pay-off build of the turn (a King standing for ``value``), and the Kings built
    before it, standing for ``kings_as``."""
    # TRANSLATORS: a King built as another rank (R3.1), e.g. "King (as a five)"
    card = _("King (as {a_rank})", a_rank=a_value_word(value)) if rank == KING else rank_name(rank)
    if kings_as:
        ranks = _and([a_value_word(v) for v in kings_as])
        if wins:
            return _(
                "wins the game with your last pay-off card, the {card}, using the King as {ranks}",
                card=card,
                ranks=ranks,
            )
        return _("plays your pay-off {card}, using the King as {ranks}", card=card, ranks=ranks)
    if wins:
        return _("wins the game with your last pay-off card, the {card}", card=card)
    return _("plays your pay-off {card}", card=card)


def _danger_clause(view: TurnView, center: list[int]) -> str:
    """Say how the turn keeps the opponent from its pay-off card, when it does."""
    need = view.opp_top
    if not need or need == KING:
        return ""
    below = need - 1
    if below in center:
        return ""
    if below in view.center:
        i = view.center.index(below)
        if center[i] != below:
            return _(
                "blocks center {center}, which was ready for the {rank} your opponent needs",
                center=i + 1,
                rank=rank_name(need),
            )
    # a center one card short of the danger, when the player held that card and kept it back
    mine = set(view.hand) | {pile[-1] for pile in view.side if pile}
    if below in mine:
        for i, value in enumerate(center):
            if value == below - 1:
                return _(
                    "keeps center {center} away from the {rank} your opponent needs",
                    center=i + 1,
                    rank=rank_name(need),
                )
    return ""


def _discard_clause(
    side: tuple[tuple[int, ...], ...], move: Move, builds: int, played_payoff: bool
) -> str:
    """The turn's discard, after its builds when it made some and played no pay-off card."""
    pile = side[move.side_target]
    fields = {"rank": rank_name(move.hand_rank), "side": move.side_target + 1}
    built_first = builds > 0 and not played_payoff
    if not pile:
        if built_first:
            return ngettext(
                "builds {n} card, then discards the {rank} onto empty side stack {side}",
                "builds {n} cards, then discards the {rank} onto empty side stack {side}",
                builds,
                **fields,
            )
        return _("discards the {rank} onto empty side stack {side}", **fields)
    # "in order": one below the top, as a center stack will take them; a card on one of its
    # own rank (a Jack on a Jack) is no order, and is said plainly.
    if move.hand_rank == pile[-1] - 1:
        top = rank_name(pile[-1])
        if built_first:
            return ngettext(
                "builds {n} card, then discards the {rank} onto the {top} on side stack "
                "{side}, in order",
                "builds {n} cards, then discards the {rank} onto the {top} on side stack "
                "{side}, in order",
                builds,
                top=top,
                **fields,
            )
        return _(
            "discards the {rank} onto the {top} on side stack {side}, in order", top=top, **fields
        )
    if built_first:
        return ngettext(
            "builds {n} card, then discards the {rank} onto side stack {side}",
            "builds {n} cards, then discards the {rank} onto side stack {side}",
            builds,
            **fields,
        )
    return _("discards the {rank} onto side stack {side}", **fields)
