"""The planner's results stay exactly the same when it is made faster.

``golden_plans.json`` holds the plans of a few fixed positions as the straightforward planner
and evaluations found them (before any caching), values written as ``float.hex`` so that a
change in the last bit shows. The evaluations are those of the frozen baselines (``hard-1``,
``expert-1``), whose play must not change. Regenerate it only for a deliberate change:
``python -m tests.bots.test_planning_golden``.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from spite_malice.bots import reference_move
from spite_malice.bots.baselines import EXPERT_1_WEIGHTS as EXPERT_WEIGHTS
from spite_malice.bots.baselines import HARD_1_WEIGHTS
from spite_malice.bots.evaluation import (
    AwareEvaluator,
    ProgressEvaluator,
    has_rank_odds,
    reach_odds,
)
from spite_malice.bots.planning import Evaluator, best_plan, plan_turn
from spite_malice.bots.view import (
    Ranks,
    TurnView,
    side_supply,
    view_from_game,
    view_from_observation,
)
from spite_malice.engine import Game, Move, Rules
from spite_malice.engine.cards import KING, QUEEN
from spite_malice.engine.rules import HAND_SIZE

GOLDEN = Path(__file__).with_name("golden_plans.json")

POSITIONS = (
    (Rules.STANDARD, 1, 28),
    (Rules.STANDARD, 1, 37),
    (Rules.STANDARD, 1, 120),
    (Rules.STANDARD, 3, 108),
    (Rules.STANDARD, 5, 94),
    (Rules.QUICK, 1, 115),
    (Rules(decks=3, center_stacks=4), 2, 66),
    (Rules(decks=3, center_stacks=4), 5, 94),
    (Rules(payoff_size=5, king_can_start_stack=False), 4, 38),
    (Rules(payoff_size=5, king_can_start_stack=False), 5, 31),
)
"""(rules, deal, moves played by the reference policy) for each position."""

TOP = 8
"""How many of each position's best plans the golden file spells out; a digest covers all."""


def evaluators() -> dict[str, Evaluator]:
    return {
        "medium": ProgressEvaluator(),
        "hard": AwareEvaluator(HARD_1_WEIGHTS),
        "expert": AwareEvaluator(EXPERT_WEIGHTS),
    }


def views() -> list[TurnView]:
    out = []
    for rules, seed, moves in POSITIONS:
        game = Game.new(seed, rules)
        for _ in range(moves):
            if game.is_over:
                break
            game.play(reference_move(game))
        out.append(view_from_observation(game.observation(game.to_move)))
    return out


def summary(view: TurnView, evaluator: Evaluator, max_states: int) -> dict[str, Any]:
    plans = [
        f"{' '.join(str(m) for m in plan.moves)}|{plan.commit}|{plan.value.hex()}|{plan.ending}"
        for plan in plan_turn(view, evaluator, max_states=max_states)
    ]
    digest = hashlib.sha256("\n".join(plans).encode()).hexdigest()
    return {"count": len(plans), "sha256": digest, "best": plans[:TOP]}


def all_summaries() -> dict[str, Any]:
    """The golden data, worked out with the planner as it is now. One evaluator of each kind
    plans every position in turn, as a bot does, so what it remembers must not leak."""
    made = evaluators()
    out: dict[str, Any] = {}
    for index, view in enumerate(views()):
        for name, evaluator in made.items():
            for max_states in (1500, 40):
                out[f"{index}/{name}/{max_states}"] = summary(view, evaluator, max_states)
    return out


def test_plans_are_bit_for_bit_the_golden_ones() -> None:
    golden = json.loads(GOLDEN.read_text())
    assert all_summaries() == golden


@pytest.mark.parametrize("name", ["medium", "hard", "expert"])
def test_best_plan_is_the_first_of_plan_turn(name: str) -> None:
    evaluator = evaluators()[name]
    for view in views():
        for max_states in (1500, 200, 5):
            assert (
                best_plan(view, evaluator, max_states=max_states)
                == (plan_turn(view, evaluator, max_states=max_states)[0])
            )


def test_an_evaluator_remembers_nothing_from_one_view_to_the_next() -> None:
    positions = views()
    used = AwareEvaluator(HARD_1_WEIGHTS)
    for view in [*positions, *reversed(positions)]:
        assert plan_turn(view, used) == plan_turn(view, AwareEvaluator(HARD_1_WEIGHTS))


def test_sampled_views_plan_the_same_with_a_used_or_a_fresh_evaluator() -> None:
    game = Game.new(11)
    for _ in range(80):
        game.play(reference_move(game))
    used = AwareEvaluator(EXPERT_WEIGHTS)
    rng = random.Random(3)
    for _ in range(40):  # the views a rollout meets: both seats, turn after turn
        view = view_from_game(game)
        assert plan_turn(view, used, max_states=200) == plan_turn(
            view, AwareEvaluator(EXPERT_WEIGHTS), max_states=200
        )
        if game.is_over:
            break
        legal = game.legal_moves()
        game.play(reference_move(game) if rng.random() < 0.8 else rng.choice(legal))


def straightforward_reach_odds(
    value: int,
    target: int,
    known: list[int],
    known_kings: int,
    odds: tuple[float, ...],
    king_odds: float,
) -> float:
    """:func:`reach_odds` as first written, with a list of known ranks and no route table."""
    if target == 0:
        return 0.0
    if target == KING:
        return 1.0
    if value + 1 == target:
        return 1.0
    needed: range | list[int]
    if target > value + 1:
        needed = range(value + 1, target)
    else:
        needed = [*range(value + 1, QUEEN), *range(1, target)]
    if len(needed) > 6:
        return 0.0
    chance = 1.0
    kings = known_kings
    spare_king = king_odds
    for rank in needed:
        if rank in known:
            continue
        if kings:
            kings -= 1
            continue
        p = odds[rank]
        chance *= p + (1.0 - p) * spare_king
        spare_king *= 0.35
        if chance < 0.005:
            return 0.0
    return chance


def test_reach_odds_is_the_straightforward_sum_bit_for_bit() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        value, target = rng.randrange(QUEEN), rng.randrange(14)
        known = rng.sample(range(1, 14), rng.randrange(6))
        kings = rng.randrange(3)
        odds = tuple(rng.random() for _ in range(14))
        king_odds = rng.random()
        expected = straightforward_reach_odds(value, target, known, kings, odds, king_odds)
        assert reach_odds(value, target, known, kings, odds, king_odds).hex() == expected.hex()


def straightforward_odds_table(unseen: Ranks, total: int, cards: int) -> tuple[float, ...]:
    return tuple(has_rank_odds(unseen[r], total, cards) for r in range(14))


def straightforward_state_value(
    view: TurnView,
    evaluator: ProgressEvaluator,
    center: Ranks,
    hand: Ranks,
    side: tuple[Ranks, ...],
    payoff_left: int,
    refill: bool,
) -> float:
    """``state_value`` as first written: everything worked out afresh for every state."""
    w = evaluator.weights
    played = view.payoff_left - payoff_left
    value = w.payoff * played
    value += w.hand_card * (len(view.hand) - len(hand))
    start_side = sum(len(pile) for pile in view.side)
    value += w.side_card * (start_side - sum(len(pile) for pile in side))
    start_kings = view.hand.count(KING) + sum(pile.count(KING) for pile in view.side)
    kings = start_kings - hand.count(KING) - sum(pile.count(KING) for pile in side)
    if kings:
        value -= kings * (w.king_used_for_payoff if played else w.king_used)
    if refill:
        value += w.refill
    if not isinstance(evaluator, AwareEvaluator):
        return value + 0.0
    unseen, total = view.unseen, view.unseen_total
    opp_odds = straightforward_odds_table(unseen, total, HAND_SIZE)
    supply = sorted(side_supply(view.opp_side))
    danger = [
        straightforward_reach_odds(v, view.opp_top, supply, 0, opp_odds, opp_odds[KING])
        for v in range(QUEEN)
    ]
    safe = 1.0
    for v in center:
        safe *= 1.0 - danger[v]
    extra = -(w.danger * (1.0 - safe))
    if payoff_left == view.payoff_left and view.payoff_top:
        draws = min(HAND_SIZE, HAND_SIZE if refill else HAND_SIZE - len(hand) + 1)
        known = list(hand)
        known.extend(side_supply(side))
        odds = straightforward_odds_table(unseen, total, draws)
        best = 0.0
        for v in center:
            chance = straightforward_reach_odds(
                v, view.payoff_top, known, known.count(KING), odds, odds[KING]
            )
            if chance > best:
                best = chance
        extra += w.own_chance * best
    if w.empty_side_kept:
        extra += w.empty_side_kept * sum(1 for pile in side if not pile)
    return value + extra


def straightforward_best_discard(
    view: TurnView,
    evaluator: ProgressEvaluator,
    center: Ranks,
    hand: Ranks,
    side: tuple[Ranks, ...],
) -> tuple[float, Move]:
    """``best_discard`` as first written, asking about the center stacks at every discard."""
    aware = isinstance(evaluator, AwareEvaluator)
    tops: list[int] = []
    stacks: list[int] = []
    for s, pile in enumerate(side):
        top = pile[-1] if pile else 0
        if top not in tops:
            tops.append(top)
            stacks.append(s)
    best_value = -1e18
    best_rank = best_stack = 0
    for rank in sorted(set(hand)):
        for top, s in zip(tops, stacks, strict=True):
            score = evaluator.base_discard_score(rank, top)
            if rank > top:
                buries = aware and top and (top == view.payoff_top or top - 1 in center)
                score += -6.0 if buries else 0.0
            if score > best_value:
                best_value = score
                best_rank, best_stack = rank, s
    return best_value, Move.discard(best_rank, best_stack)


def random_states(view: TurnView, rng: random.Random, count: int) -> list[tuple[Any, ...]]:
    """States of the turn of ``view`` as the planner could meet them, or near enough: made
    from a few centers, hands and side stacks, as the planner's states share them, with
    hands that differ by a King; side tops are often the cards the center stacks or the
    pay-off need next, which a discard should not bury."""
    centers = [tuple(rng.randrange(QUEEN) for _ in view.center) for _ in range(4)]
    hands: list[Ranks] = []
    for _ in range(4):
        hand = sorted(rng.randint(1, KING) for _ in range(rng.randrange(5)))
        hands += [tuple(hand), tuple(sorted([*hand, KING]))]
    sides: list[tuple[Ranks, ...]] = []
    for _ in range(4):
        needed = [value + 1 for value in rng.choice(centers)] + [view.payoff_top or 1]
        side = []
        for _ in view.side:
            pile = [rng.randint(1, KING) for _ in range(rng.choice((0, 0, 1, 2, 4)))]
            if pile and rng.random() < 0.6:
                pile[-1] = rng.choice(needed)
            side.append(tuple(pile))
        sides.append(tuple(side))
    return [
        (
            rng.choice(centers),
            rng.choice(hands),
            rng.choice(sides),
            view.payoff_left - rng.choice((0, 0, 1)),
        )
        for _ in range(count)
    ]


@pytest.mark.parametrize("name", ["medium", "hard", "expert"])
def test_remembered_evaluation_is_the_straightforward_one_bit_for_bit(name: str) -> None:
    evaluator = evaluators()[name]
    assert isinstance(evaluator, ProgressEvaluator)
    rng = random.Random(name)
    for view in views():
        evaluator.begin(view)
        states = random_states(view, rng, 150)
        for center, hand, side, payoff_left in states * 2:  # again, from what it remembers
            refill = not hand and rng.random() < 0.7
            got = evaluator.state_value(center, hand, side, payoff_left, refill)
            want = straightforward_state_value(
                view, evaluator, center, hand, side, payoff_left, refill
            )
            assert got.hex() == want.hex()
            if hand:
                value, move = evaluator.best_discard(center, hand, side)
                want_value, want_move = straightforward_best_discard(
                    view, evaluator, center, hand, side
                )
                assert (value.hex(), move) == (want_value.hex(), want_move)


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(all_summaries(), indent=1) + "\n")
