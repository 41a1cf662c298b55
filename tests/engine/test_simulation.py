"""Bounded simulations: thousands of self-play games with greedy policies, checking the
invariants and that wins, draws, completed stacks and mid-turn refills all happen.

The counts asserted are deliberately loose (each thing happens at least a few times), so the
tests hold for any correct engine; the games are fixed by their seeds, so they never flake.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable

from spite_malice.bots.reference import reference_move
from spite_malice.engine import (
    STOCK_EXHAUSTED,
    TURN_LIMIT,
    TURN_LIMIT_REACHED,
    WON,
    CardBuilt,
    CardDiscarded,
    CardsDrawn,
    Event,
    Game,
    GameDealt,
    GameDrawn,
    GameRecord,
    GameWon,
    Move,
    PayoffTurned,
    Rules,
    StackCompleted,
    TurnEnded,
)

from .helpers import assert_cards_conserved, check_invariants, stall_move

Policy = Callable[[Game], Move]


def _mixed(seed: int, greedy: float) -> Policy:
    """The reference move with probability ``greedy``, otherwise a random legal move."""
    rng = random.Random(seed)

    def policy(played: Game) -> Move:
        if rng.random() < greedy:
            return reference_move(played)
        return rng.choice(played.legal_moves())

    return policy


def _check_log(played: Game) -> Counter[str]:
    """Check one finished game's event log against its state; count what happened."""
    events: list[Event] = played.events
    seen: Counter[str] = Counter()
    assert isinstance(events[0], GameDealt)
    assert events[0].first == played.first
    assert sum(isinstance(e, (CardBuilt, CardDiscarded)) for e in events) == len(played.moves)
    turns = [e for e in events if isinstance(e, TurnEnded)]
    assert [e.turn for e in turns] == list(range(1, len(turns) + 1))
    assert all(e.player == (events[0].first + e.turn - 1) % 2 for e in turns)
    last = events[-1]
    assert played.outcome is not None
    if played.outcome.winner is None:
        assert last == GameDrawn(played.outcome.reason)
        seen["draw: " + played.outcome.reason] += 1
    else:
        assert last == GameWon(played.outcome.winner, played.outcome.points)
        assert not played.players[played.outcome.winner].payoff
        assert played.outcome.points == len(played.players[1 - played.outcome.winner].payoff)
        seen["win"] += 1
    for before, event in itertools.pairwise(events):
        if isinstance(event, StackCompleted):
            assert len(event.cards) == 12
            assert isinstance(before, (CardBuilt, PayoffTurned))
            seen["stack completed"] += 1
        if isinstance(event, CardsDrawn):
            assert event.count == len(event.cards)
            if isinstance(before, TurnEnded):
                seen["turn refill"] += 1
            else:  # R3.4(c): the hand emptied by a build
                assert isinstance(before, (CardBuilt, StackCompleted))
                assert event.count == 5 or isinstance(last, GameDrawn)
                seen["mid-turn refill"] += 1
        if isinstance(event, CardBuilt) and event.card % 13 == 12:
            seen["king built"] += 1
    return seen


def _simulate(rules: Rules, games: int, policy_for: Callable[[int], Policy]) -> Counter[str]:
    seen: Counter[str] = Counter()
    for seed in range(games):
        played = Game.new(seed=seed, rules=rules)
        policy = policy_for(seed)
        if seed < 20:  # the full invariants after every move, for the first few games
            while not played.is_over:
                played.apply(policy(played))
                check_invariants(played)
        else:
            while not played.is_over:
                played.apply(policy(played))
        assert_cards_conserved(played)
        seen += _check_log(played)
    return seen


def test_2000_quick_games_with_a_half_greedy_policy() -> None:
    seen = _simulate(Rules.QUICK, 2000, lambda seed: _mixed(seed, 0.5))
    assert seen["win"] + sum(v for k, v in seen.items() if k.startswith("draw")) == 2000
    for what in ("win", "draw: " + STOCK_EXHAUSTED, "stack completed", "mid-turn refill"):
        assert seen[what] >= 5, (what, seen)


def test_standard_games_with_the_reference_policy_and_a_sloppier_one() -> None:
    seen = _simulate(Rules.STANDARD, 200, lambda seed: reference_move)
    assert seen["win"] == 200  # the pure reference policy wins every one of these
    seen = _simulate(Rules(payoff_size=30), 300, lambda seed: _mixed(seed, 0.8))
    for what in ("win", "draw: " + STOCK_EXHAUSTED, "stack completed", "mid-turn refill"):
        assert seen[what] >= 5, (what, seen)


def test_variants_three_decks_four_center_stacks_and_no_king_start() -> None:
    for rules in (
        Rules(decks=3, center_stacks=4),
        Rules(king_can_start_stack=False, payoff_size=15),
    ):
        seen = _simulate(rules, 150, lambda seed: _mixed(seed, 0.8))
        assert seen["win"] >= 5 and seen["stack completed"] >= 5, (rules, seen)


def test_whole_games_played_to_the_1000_turn_limit() -> None:
    """The stalling policy never builds from its pay-off pile; many of its games hit R4.3."""
    limited = 0
    for seed in range(12):
        played = Game.new(seed=seed, rules=Rules.STANDARD)
        while not played.is_over:
            played.apply(stall_move(played))
        assert_cards_conserved(played)
        seen = _check_log(played)
        assert played.outcome is not None
        if played.outcome.reason == TURN_LIMIT_REACHED:
            limited += 1
            assert played.turn == TURN_LIMIT
            assert sum(isinstance(e, TurnEnded) for e in played.events) == TURN_LIMIT
            assert seen["stack completed"] > 0  # the stock lasted because stacks recycled
            record = GameRecord.from_game(played)
            assert record.replay(recording=False).outcome == played.outcome
        else:
            assert played.outcome.reason in (STOCK_EXHAUSTED, WON)
    assert limited >= 2, limited
