"""Breaking a blockade: the evaluation's terms for a game both players are stalling (R4.2)."""

from __future__ import annotations

from dataclasses import replace

from spite_malice.bots.baselines import Hard1Bot
from spite_malice.bots.blockade import Blockade
from spite_malice.bots.evaluation import HARD_WEIGHTS, AwareEvaluator
from spite_malice.bots.planning_bot import HARD, PlanningBot
from spite_malice.bots.view import quiet_turns, view_from_observation
from spite_malice.engine import Game, parse_move

from .positions import position


def moves(*texts: str) -> tuple:  # type: ignore[type-arg]
    return tuple(parse_move(text) for text in texts)


def test_quiet_turns_counts_the_discards_since_the_last_payoff_build() -> None:
    assert quiet_turns(()) == 0
    assert quiet_turns(moves("H5-S1", "H7-C1", "H9-S2")) == 2
    assert quiet_turns(moves("H5-S1", "P-C1", "H2-C2", "H9-S2", "HQ-S1")) == 2
    assert quiet_turns(moves("H5-S1", "H9-S2", "P-C2")) == 0


def test_danger_weight_shrinks_when_behind_only_with_its_own_weight() -> None:
    game = Game.from_position(
        position(
            payoffs=(["9C", "8C", "QC"], ["4H"]),  # three pay-off cards left against one
            hands=(["2H", "9D", "JD", "QD", "8D"], ["AH", "5D", "6D", "QC", "JC"]),
        ),
        seed=1,
    )
    view = replace(view_from_observation(game.observation(0)), stock_count=12)
    low = 1 - view.stock_count / 30
    shipped = AwareEvaluator(HARD_WEIGHTS).danger_weight(view)
    behind = replace(HARD_WEIGHTS, danger_low_stock_behind=20.0)
    assert AwareEvaluator(behind).danger_weight(view) == max(0.0, shipped - 20.0 * low)
    stalled = replace(view, quiet_turns=10)
    assert AwareEvaluator(HARD_WEIGHTS).danger_weight(stalled) == shipped
    breaking = AwareEvaluator(replace(HARD_WEIGHTS, danger_stalled=3.0, stall_grace=4.0))
    assert breaking.danger_weight(stalled) == max(0.0, shipped - 3.0 * 6)
    assert breaking.danger_weight(replace(view, quiet_turns=4)) == shipped


def test_a_completed_stack_is_worth_its_cards_back_in_the_stock_when_it_runs_low() -> None:
    # R3.4(b): the Queen completes center stack 1 and its twelve cards go back to the stock
    center = [["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"], [], []]
    game = Game.from_position(
        position(
            payoffs=(["9C", "8C"], ["4H", "5S"]),
            hands=(["QH", "9D", "JD", "8D", "7D"], ["AH", "5D", "6D", "QC", "JC"]),
            center=center,
        ),
        seed=1,
    )
    view = view_from_observation(game.observation(0))
    hand_after = (7, 8, 9, 11)
    weights = replace(HARD_WEIGHTS, stock_return=5.0, stock_return_from=200.0)
    keeping = AwareEvaluator(weights)
    keeping.begin(view)
    plain = AwareEvaluator(HARD_WEIGHTS)
    plain.begin(view)
    assert keeping.returned((0, 0, 0), hand_after, 0, view.payoff_left) == 12
    factor = 5.0 * (1 - view.stock_count / 200.0)
    assert keeping.return_weight(view) == factor
    for evaluator in (keeping, plain):
        evaluator.begin(view)
    after = (0, 0, 0)
    gained = keeping.state_value(after, hand_after, view.side, view.payoff_left, False)
    gained -= plain.state_value(after, hand_after, view.side, view.payoff_left, False)
    assert abs(gained - 12 * factor) < 1e-9
    # the plain path (extra) agrees with the one the planner takes
    keeping.begin(view)
    extra = keeping.extra(after, hand_after, view.side, view.payoff_left, False)
    plain.begin(view)
    extra -= plain.extra(after, hand_after, view.side, view.payoff_left, False)
    assert abs(extra - 12 * factor) < 1e-9
    # a build that completes nothing sends nothing back
    assert keeping.returned((11, 0, 0), view.hand, 0, view.payoff_left) == 0


def test_the_stock_is_kept_alive_only_when_not_behind() -> None:
    game = Game.from_position(
        position(
            payoffs=(["9C", "8C", "QC"], ["4H", "5S"]),
            hands=(["2H", "9D", "JD", "QD", "8D"], ["AH", "5D", "6D", "QC", "JC"]),
        ),
        seed=1,
    )
    behind = replace(view_from_observation(game.observation(0)), stock_count=15)
    weights = replace(HARD_WEIGHTS, stock_return=5.0)
    level = AwareEvaluator(weights)
    assert level.return_weight(behind) == 0.0
    even = replace(behind, payoff_left=2)
    assert level.return_weight(even) == weights.stock_return * 0.5
    assert level.return_weight(replace(even, stock_count=40)) == 0.0
    assert AwareEvaluator(HARD_WEIGHTS).return_weight(even) == 0.0  # off in every level


def _opening() -> Game:
    """Hard (seat 0) can reach its pay-off 4 with a King, its 2 and a King (R3.1, R3.2), but
    the stack would then be left at 4, just below the opponent's pay-off 5."""
    return Game.from_position(
        position(
            payoffs=(["9C", "8C", "4C"], ["7H", "8S", "5H"]),
            hands=(["2H", "6D", "6S", "KD", "KS"], ["9D", "TD", "JD", "QC", "JC"]),
        ),
        seed=1,
    )


def test_a_position_counts_as_stalled_after_quiet_turns_with_a_low_stock() -> None:
    view = view_from_observation(_opening().observation(0))
    blockade = Blockade(quiet_turns=4, stock_below=30)
    assert not blockade.applies(replace(view, quiet_turns=4, stock_count=30))
    assert not blockade.applies(replace(view, quiet_turns=3, stock_count=29))
    assert blockade.applies(replace(view, quiet_turns=4, stock_count=29))


def test_hard_plays_a_stalled_position_with_the_blockade_weights() -> None:
    observation = _opening().observation(0)
    assert PlanningBot(1, HARD).plan(observation) == [parse_move("H6-S1")]  # it blocks
    pressing = Blockade(quiet_turns=0, stock_below=200, weights=replace(HARD_WEIGHTS, danger=0))
    expected = list(moves("HK-C1", "H2-C1", "HK-C1", "P-C1"))
    assert PlanningBot(1, HARD, blockade=pressing).plan(observation) == expected
    # not stalled: the level's own evaluation
    later = Blockade(quiet_turns=1, stock_below=200, weights=pressing.weights)
    assert PlanningBot(1, HARD, blockade=later).plan(observation) == [parse_move("H6-S1")]


def test_a_stalled_position_is_searched_in_sampled_games() -> None:
    observation = _opening().observation(0)
    # a budget the samples reach on any machine (the search stops at them)
    searching = Blockade(quiet_turns=0, stock_below=200, samples=8, budget=600.0)
    bot = PlanningBot(1, HARD, blockade=searching)
    assert bot.search is not None
    plan = bot.plan(observation)
    assert bot.search.searcher.last_samples == 8
    assert plan[0] in observation.legal_moves
    narrow = PlanningBot(1, HARD, blockade=replace(searching, candidates=4, discards=0))
    assert narrow.search is not None
    assert narrow.search.searcher.candidates == 4
    assert narrow.search.searcher.settings.discards == 0
    assert narrow.search.searcher.settings.own_weights == HARD.weights
    quiet = PlanningBot(1, HARD, blockade=replace(searching, quiet_turns=1))
    assert quiet.search is not None
    quiet.plan(observation)
    assert quiet.search.searcher.last_samples == 0  # not stalled: never searched


def test_the_frozen_baseline_has_no_blockade() -> None:
    assert Hard1Bot(1).blockade is None
    assert PlanningBot(1, HARD, weights=HARD_WEIGHTS).blockade is None
