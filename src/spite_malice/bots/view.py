"""What the player to move knows, reduced to ranks: the input of every planning bot.

Suits never matter to the rules (R0.1), so a bot plans with ranks only. A :class:`TurnView`
is built from an :class:`~spite_malice.engine.Observation` (R6.3: a bot sees nothing else),
or, inside a bot's own private simulation, from a simulated game for whichever player is to
move there. Both constructions read only what that player may see; the simulated game itself
was sampled from an observation (see :mod:`.sampling`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..engine.cards import KING, RANK_OF, Card
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.observation import Observation
from ..engine.rules import HAND_SIZE
from ..engine.stacks import fits, ranks_to_reach, taken_by

Ranks = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TurnView:
    """The position of the player to move, in ranks (1..13, 13 = King).

    ``unseen[r]`` counts the cards of rank ``r`` this player cannot see: the stock, the
    face-down pay-off cards and the opponent's hand (card counting for the Hard level).
    """

    center: Ranks
    """The value of each center stack (0 = empty)."""
    hand: Ranks
    """Hand ranks, sorted."""
    side: tuple[Ranks, ...]
    """The player's side stacks, bottom to top."""
    payoff_top: int
    """The rank of the pay-off top."""
    payoff_left: int
    opp_top: int
    """The rank of the opponent's pay-off top (0 when their pile is empty)."""
    opp_payoff_left: int
    opp_side: tuple[Ranks, ...]
    unseen: Ranks
    """Index 0..13: unseen cards of each rank (index 0 unused)."""
    unseen_total: int
    stock_count: int
    king_can_start: bool
    opp_hand_count: int = HAND_SIZE
    """Cards in the opponent's hand: it draws the rest of five at the start of its turn."""
    refused: Ranks = ()
    """Center values the opponent left at the end of its last turn (the values at the start
    of this one): with its hand and side stacks it could not build any of them up to its
    pay-off card, or it would have played it. Empty when not known (see
    :func:`refusal_of`)."""
    quiet_turns: int = 0
    """Turns since either player last played a pay-off card (R3.1), counted from the game's
    moves (every turn but a winning one ends with a discard, R2.3); 0 when not known. A long
    run of them is a blockade: both players keep the center stacks away from the other."""


_rank_of = RANK_OF.__getitem__


def _ranks(cards: tuple[Card, ...] | list[Card]) -> Ranks:
    return tuple(map(_rank_of, cards))


def _unseen(visible: list[Card], decks: int) -> tuple[Ranks, int]:
    seen = Counter(map(_rank_of, visible))
    counts = (0, *(4 * decks - seen[rank] for rank in range(1, KING + 1)))
    return counts, sum(counts)


def view_from_observation(obs: Observation, refused: Ranks = ()) -> TurnView:
    """The view of ``obs.seat``, which must be the seat to move; ``refused`` as
    :attr:`TurnView.refused`."""
    me, opp = obs.me, obs.opponent
    unseen, total = _unseen(obs.visible_cards(), obs.rules.decks)
    return TurnView(
        center=tuple(len(stack) for stack in obs.center),
        hand=tuple(sorted(_ranks(obs.hand))),
        side=tuple(_ranks(pile) for pile in me.side),
        payoff_top=RANK_OF[me.payoff_top] if me.payoff_top is not None else 0,
        payoff_left=me.payoff_count,
        opp_top=RANK_OF[opp.payoff_top] if opp.payoff_top is not None else 0,
        opp_payoff_left=opp.payoff_count,
        opp_side=tuple(_ranks(pile) for pile in opp.side),
        unseen=unseen,
        unseen_total=total,
        stock_count=obs.stock_count,
        king_can_start=obs.rules.king_can_start_stack,
        opp_hand_count=opp.hand_count,
        refused=refused,
        quiet_turns=quiet_turns(obs.history),
    )


def quiet_turns(history: tuple[Move, ...]) -> int:
    """:attr:`TurnView.quiet_turns` from a game's moves: the discards since the last pay-off
    build (R2.3: each turn ends with one)."""
    turns = 0
    for move in reversed(history):
        if move.is_from_payoff:
            break
        if move.is_discard:
            turns += 1
    return turns


def view_from_game(game: Game, refused: Ranks = ()) -> TurnView:
    """The view of the player to move in a (simulated) game, reading only what they may see;
    ``refused`` as :attr:`TurnView.refused`.

    Faster than going through :meth:`Game.observation`; used inside bots' simulations only.
    """
    seat = game.to_move
    me, opp = game.players[seat], game.players[1 - seat]
    visible: list[Card] = list(me.hand)
    for player in game.players:
        if player.payoff:
            visible.append(player.payoff[-1])
        for pile in player.side:
            visible.extend(pile)
    for stack in game.center:
        visible.extend(stack)
    unseen, total = _unseen(visible, game.rules.decks)
    return TurnView(
        center=tuple(len(stack) for stack in game.center),
        hand=tuple(sorted(_ranks(me.hand))),
        side=tuple(_ranks(pile) for pile in me.side),
        payoff_top=RANK_OF[me.payoff[-1]] if me.payoff else 0,
        payoff_left=len(me.payoff),
        opp_top=RANK_OF[opp.payoff[-1]] if opp.payoff else 0,
        opp_payoff_left=len(opp.payoff),
        opp_side=tuple(_ranks(pile) for pile in opp.side),
        unseen=unseen,
        unseen_total=total,
        stock_count=len(game.stock),
        king_can_start=game.rules.king_can_start_stack,
        opp_hand_count=len(opp.hand),
        refused=refused,
    )


def side_supply(side: tuple[Ranks, ...]) -> set[int]:
    """Ranks a player can build from their side stacks in one turn without other help.

    The top of each stack is free; below it, a card is reachable in turn order only when the
    stack runs upward from its top (a top 6 over a 7 gives a 6 then a 7), the usual shape of a
    well-kept side stack.
    """
    supply: set[int] = set()
    for pile in side:
        if not pile:
            continue
        previous = pile[-1]
        supply.add(previous)
        for rank in reversed(pile[:-1]):
            if rank != previous + 1 or rank == KING:
                break
            supply.add(rank)
            previous = rank
    return supply


def draws_next_turn(hand_left: int) -> int:
    """Cards drawn at the start of the next turn (R2.1) when ``hand_left`` cards remain."""
    return max(0, HAND_SIZE - hand_left)


def can_reach_payoff(
    center: Ranks, target: int, hand: Ranks, side: tuple[Ranks, ...], king_can_start: bool
) -> bool:
    """Whether a player holding ``hand`` (ranks) with side stacks ``side`` can build one of
    the center stacks of values ``center`` up to ``target`` (its pay-off rank) and play it,
    Kings standing in for any rank (R3.2). Used to read the opponent's refusals."""
    if not target:
        return False
    if target == KING:
        return True  # a King plays on any stack (R3.2)
    supply = side_supply(side)
    for value in set(center):
        if target <= value:
            continue  # past a Queen and round again: too long a route to matter here
        left = list(hand)
        for rank in ranks_to_reach(value, target):
            if rank in supply:
                continue
            if rank in left:
                left.remove(rank)
            elif KING in left and fits(KING, taken_by(rank), king_can_start):
                left.remove(KING)
            else:
                break
        else:
            return True
    return False
