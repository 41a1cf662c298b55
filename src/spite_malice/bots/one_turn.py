"""Frozen outside-style baselines: a one-turn planner that blocks, and the same that never does.

``make_bot("blocker-1")`` and ``make_bot("nonblocker-1")`` stand for the kind of opponent a
player meets outside this project: a simple planner that looks at its own turn only. Each
move it searches the builds it can make with the cards it sees (its hand, its side-stack tops,
its pay-off top) and

1. plays its pay-off card when some sequence of builds reaches it (R3.1), by the shortest
   such sequence that spends the fewest Kings;
2. otherwise picks where to end its turn among the positions its builds reach, then
   discards (R3.3) the card that keeps its side stacks in order, a King only when it holds
   nothing else.

``blocker-1`` builds only for a reason: its pay-off card, a hand emptied for five new cards
(R3.4(c)), or a block. It refuses to feed the opponent: an end of turn that leaves a center
stack the opponent's pay-off top fits on, directly or through the tops of its side stacks,
costs more than anything else, so it builds past such a stack when it can. Otherwise it keeps
its cards (and its Kings). Against it, games stall: the cards stay in hands and on side
stacks, no center stack completes to send its cards back to the stock, and the stock runs out
(R4.2).

``nonblocker-1`` never looks at the opponent and plays out every card it can: each hand card
and side-stack top built counts for it, a refill more, a King spent against.

Both are written for these baselines alone (they share no code with the levels' planner or
evaluation) and must never change: ``tests/bots/test_one_turn.py`` replays recorded games
move by move. They are deterministic and read only their seat's observation (R6.3).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.cards import KING, RANK_OF
from ..engine.moves import Move
from ..engine.observation import Observation
from ..engine.stacks import built, fits, needs
from .base import Bot

MAX_STATES = 4000
"""How many distinct positions one search expands before it stops looking further."""

CARD_FROM_HAND = 3.0
"""The value of a hand card built, for ``nonblocker-1`` (``blocker-1`` builds only for its
pay-off card, a refill or a block, and values a card built at nothing)."""
CARD_FROM_SIDE = 2.0
"""The value of a side-stack card built, for ``nonblocker-1``."""
REFILL = 30.0
"""The value of emptying the hand (R3.4(c): five new cards)."""
KING_SPENT = 8.0
"""The cost of a King built without reaching the pay-off card."""
FEED = 1000.0
"""What ``blocker-1`` pays for leaving the opponent's pay-off card a place to go."""


@dataclass(frozen=True, slots=True)
class _Position:
    center: tuple[int, ...]
    hand: tuple[int, ...]
    side: tuple[tuple[int, ...], ...]


def _fed(center: tuple[int, ...], opp_top: int, opp_side_tops: list[int]) -> bool:
    """Whether the opponent can play a pay-off card of ``opp_top`` on one of ``center``,
    using only the tops of its side stacks, each once (what this player can see of it)."""
    if opp_top == 0:
        return False
    if opp_top == KING:
        return True  # a King goes anywhere (R3.1, R3.2): no stack can refuse it
    for value in center:
        tops = list(opp_side_tops)
        while needs(value) != opp_top:
            if needs(value) in tops:
                tops.remove(needs(value))
            elif KING in tops:
                tops.remove(KING)
            else:
                break
            value = built(value)
        else:
            return True
    return False


def _discard_score(rank: int, top: int) -> float:
    """How well a discard of ``rank`` on a side stack whose top is ``top`` (0: empty) keeps
    the stack buildable later (one below the top or the same rank is best), high cards first."""
    if top == 0:
        score = 1.0
    elif rank == top - 1:
        score = 5.0
    elif rank == top:
        score = 4.0
    elif rank < top:
        score = 2.0 - 0.2 * (top - rank)
    else:
        score = -0.5 * (rank - top)
    return score + 0.1 * rank


class OneTurnBot(Bot):
    """The one-turn planner of ``blocker-1`` (``blocks=True``) and ``nonblocker-1``."""

    def __init__(self, seed: int | None = None, *, blocks: bool = True) -> None:
        super().__init__(seed)
        self.blocks = blocks
        self.name = "Blocker-1" if blocks else "Nonblocker-1"

    def choose(self, observation: Observation) -> Move:
        legal = observation.legal_moves
        move = self._plan(observation)
        return move if move in legal else legal[0]

    def _plan(self, obs: Observation) -> Move:
        king_can_start = obs.rules.king_can_start_stack
        me, opp = obs.me, obs.opponent
        payoff = RANK_OF[me.payoff_top] if me.payoff_top is not None else 0
        opp_top = RANK_OF[opp.payoff_top] if opp.payoff_top is not None else 0
        opp_tops = [RANK_OF[pile[-1]] for pile in opp.side if pile]
        start = _Position(
            tuple(len(stack) for stack in obs.center),
            tuple(sorted(RANK_OF[card] for card in obs.hand)),
            tuple(tuple(RANK_OF[card] for card in pile) for pile in me.side),
        )
        # breadth first: the first pay-off build found is one of the shortest routes to it
        frontier: list[tuple[_Position, tuple[Move, ...], int]] = [(start, (), 0)]
        seen = {(tuple(sorted(start.center)), start.hand, start.side)}
        best: tuple[float, tuple[Move, ...], _Position] | None = None
        goal: tuple[int, tuple[Move, ...]] | None = None
        expanded = 0
        while frontier and expanded < MAX_STATES:
            following: list[tuple[_Position, tuple[Move, ...], int]] = []
            for position, path, kings in frontier:
                expanded += 1
                if payoff:
                    for i, stack in enumerate(position.center):
                        if fits(payoff, stack, king_can_start):
                            if goal is None or kings < goal[0]:
                                goal = (kings, (*path, Move.build_from_payoff(i)))
                            break
                if goal is not None:
                    continue
                worth = self._end_value(start, position, kings, opp_top, opp_tops)
                if best is None or worth > best[0]:
                    best = (worth, path, position)
                for move, after, king in self._builds(position, king_can_start):
                    if not after.hand:  # R3.4(c): five unknown cards come; look again then
                        refill = self._end_value(start, after, kings + king, opp_top, opp_tops)
                        refill += REFILL
                        if best is None or refill > best[0]:
                            best = (refill, (*path, move), after)
                        continue
                    key = (tuple(sorted(after.center)), after.hand, after.side)
                    if key not in seen:
                        seen.add(key)
                        following.append((after, (*path, move), kings + king))
            if goal is not None:
                return goal[1][0]
            frontier = following
        assert best is not None  # the start position is always valued
        _, path, position = best
        if path:
            return path[0]
        return self._discard(position)

    def _end_value(
        self,
        start: _Position,
        position: _Position,
        kings: int,
        opp_top: int,
        opp_tops: list[int],
    ) -> float:
        hand_cards = len(start.hand) - len(position.hand)
        side_cards = sum(map(len, start.side)) - sum(map(len, position.side))
        value = -KING_SPENT * kings
        if self.blocks:
            if _fed(position.center, opp_top, opp_tops):
                value -= FEED
        else:
            value += CARD_FROM_HAND * hand_cards + CARD_FROM_SIDE * side_cards
        return value

    @staticmethod
    def _builds(position: _Position, king_can_start: bool) -> list[tuple[Move, _Position, int]]:
        """Every build from a side-stack top or the hand (R3.1), with the position after it
        and 1 when it spends a King."""
        out: list[tuple[Move, _Position, int]] = []
        center, hand, side = position.center, position.hand, position.side
        for s, pile in enumerate(side):
            if not pile:
                continue
            rank = pile[-1]
            rest = (*side[:s], pile[:-1], *side[s + 1 :])
            for i, value in enumerate(center):
                if fits(rank, value, king_can_start):
                    after = (*center[:i], built(value), *center[i + 1 :])
                    move = Move.build_from_side(s, i)
                    out.append((move, _Position(after, hand, rest), int(rank == KING)))
        for rank in sorted(set(hand)):
            i_hand = hand.index(rank)
            kept = hand[:i_hand] + hand[i_hand + 1 :]
            for i, value in enumerate(center):
                if fits(rank, value, king_can_start):
                    after = (*center[:i], built(value), *center[i + 1 :])
                    move = Move.build_from_hand(rank, i)
                    out.append((move, _Position(after, kept, side), int(rank == KING)))
        return out

    @staticmethod
    def _discard(position: _Position) -> Move:
        """R3.3: the best discard of ``position``, a King only from a hand of Kings."""
        ranks = sorted(set(position.hand))
        plain = [rank for rank in ranks if rank != KING] or ranks
        best: tuple[float, int, int] | None = None
        for rank in plain:
            for s, pile in enumerate(position.side):
                score = _discard_score(rank, pile[-1] if pile else 0)
                if best is None or score > best[0]:
                    best = (score, rank, s)
        assert best is not None  # a turn is planned only with a card in the hand
        return Move.discard(best[1], best[2])


def blocker_1(seed: int | None = None) -> OneTurnBot:
    """``blocker-1``: the one-turn planner that refuses to feed the opponent."""
    return OneTurnBot(seed, blocks=True)


def nonblocker_1(seed: int | None = None) -> OneTurnBot:
    """``nonblocker-1``: the same planner, blind to the opponent."""
    return OneTurnBot(seed, blocks=False)


__all__ = ["OneTurnBot", "blocker_1", "nonblocker_1"]
