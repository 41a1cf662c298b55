"""Opponent modelling from refusals: what the opponent left on the center stacks at the end of
its turn says what its hand cannot do (it would have played its pay-off card, R3.1, R3.2).
Read from the observation only (R6.3)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from spite_malice.bots import ExpertBot, PlanningBot, reference_move
from spite_malice.bots.baselines import HARD_1_WEIGHTS
from spite_malice.bots.evaluation import AwareEvaluator
from spite_malice.bots.expert import EXPERT_SETTINGS
from spite_malice.bots.sampling import sample_game
from spite_malice.bots.view import can_reach_payoff, view_from_observation
from spite_malice.engine import RANK_OF, Game

from .positions import position

ACE, FIVE, SIX, SEVEN, KING = 1, 5, 6, 7, 13
NO_SIDE: tuple[tuple[int, ...], ...] = ((), (), (), ())


def test_can_reach_payoff() -> None:
    # pay-off 7 on a center at 5: a 6, a King as the 6, or a 6 on a side stack reaches it
    assert can_reach_payoff((FIVE,), SEVEN, (SIX,), NO_SIDE, False)
    assert can_reach_payoff((FIVE,), SEVEN, (KING,), NO_SIDE, False)
    assert can_reach_payoff((FIVE,), SEVEN, (), ((SIX,), (), (), ()), False)
    assert not can_reach_payoff((FIVE,), SEVEN, (2, 3, 8), NO_SIDE, False)
    assert can_reach_payoff((6,), SEVEN, (), NO_SIDE, False)  # the pay-off card itself fits
    assert not can_reach_payoff((8,), SEVEN, (SIX,), NO_SIDE, False)  # past it: not this turn
    assert can_reach_payoff((FIVE,), KING, (), NO_SIDE, False)  # a King plays anywhere
    # R3.2 option: a King may not start an empty stack unless the rules say so
    assert not can_reach_payoff((0,), 2, (KING,), NO_SIDE, False)
    assert can_reach_payoff((0,), 2, (KING,), NO_SIDE, True)
    assert can_reach_payoff((0,), 2, (ACE,), NO_SIDE, False)


def refusing_game() -> Game:
    """Seat 1 (pay-off 7) has just ended its turn, three cards in hand, with a center stack
    at 5: it held no 6 and no King. Seat 0 is to move; the history is not empty."""
    game = Game.from_position(
        position(
            payoffs=(["2C", "3C", "9D"], ["8S", "4S", "7H"]),
            hands=(["2H", "3H", "8H", "9H", "TH"], ["2D", "3D", "4D", "JD"]),
            center=[["AC", "2S", "3S", "4C", "5C"], [], []],
            to_move=1,
        ),
        seed=5,
    )
    game.play("HJ-S1")  # seat 1 discards: its turn ends with the 5 left for seat 0
    assert game.to_move == 0 and game.moves
    return game


def test_a_bot_reads_the_centers_left_at_the_start_of_its_turn() -> None:
    game = refusing_game()
    bot = PlanningBot(1)
    bot.new_game(0)
    bot.choose(game.observation(0))
    assert bot.refused == (5, 0, 0)
    first = Game.new(3)
    bot.new_game(first.to_move)
    bot.choose(first.observation(first.to_move))
    assert bot.refused == ()  # nothing was refused before the first move of a game


def test_refusals_lower_the_danger_of_a_stack_left_alone() -> None:
    observation = refusing_game().observation(0)
    plain = AwareEvaluator(replace(HARD_1_WEIGHTS))
    reading = AwareEvaluator(replace(HARD_1_WEIGHTS, refused_cards=0.0))
    plain.begin(view_from_observation(observation, (5, 0, 0)))
    reading.begin(view_from_observation(observation, (5, 0, 0)))
    # with the 5 left alone, only the two cards it draws (it holds three) can bring a 6 or
    # a King, not five unknown ones
    assert reading.danger((5, 0, 0)) < 0.6 * plain.danger((5, 0, 0))
    # a value it did not refuse keeps its danger
    assert reading.danger((4, 0, 0)) == pytest.approx(plain.danger((4, 0, 0)))
    # without refusals read, the evaluation is the plain one
    off = AwareEvaluator(HARD_1_WEIGHTS)
    off.begin(view_from_observation(observation, (5, 0, 0)))
    assert off.danger((5, 0, 0)) == plain.danger((5, 0, 0))


def test_sampled_hands_agree_with_the_refusal() -> None:
    observation = refusing_game().observation(0)
    rng = random.Random(7)
    for _ in range(40):
        world = sample_game(observation, rng, (5, 0, 0))
        ranks = [RANK_OF[card] for card in world.players[1].hand]
        assert SIX not in ranks and KING not in ranks
        assert len(world.players[1].hand) == 3
    plain = [sample_game(observation, rng) for _ in range(40)]
    assert any(
        SIX in [RANK_OF[c] for c in w.players[1].hand]
        or KING in [RANK_OF[c] for c in w.players[1].hand]
        for w in plain
    )


def shuffled_twin(game: Game, seed: int) -> Game:
    """``game`` with the cards hidden from the seat to move dealt anew, its history kept."""
    twin = game.copy()
    me, opp = twin.to_move, 1 - twin.to_move
    hidden = list(twin.players[opp].hand) + twin.stock
    for player in twin.players:
        hidden += player.payoff[:-1]
    random.Random(seed).shuffle(hidden)
    hand_count = len(twin.players[opp].hand)
    twin.players[opp].hand = hidden[:hand_count]
    at = hand_count
    twin.stock = hidden[at : at + len(twin.stock)]
    at += len(twin.stock)
    for player in twin.players:
        under = len(player.payoff) - 1
        player.payoff = hidden[at : at + under] + player.payoff[-1:]
        at += under
    assert twin.observation(me) == game.observation(me)
    return twin


@pytest.mark.parametrize(("deal", "moves"), [(4, 25), (5, 60), (6, 110)])
def test_refusal_reading_never_reads_hidden_cards(deal: int, moves: int) -> None:
    game = Game.new(deal)
    for _ in range(moves):
        game.play(reference_move(game))
    settings = replace(
        EXPERT_SETTINGS,
        own_weights=replace(EXPERT_SETTINGS.own_weights, refused_cards=0.0),
        refusals=True,
    )
    choices = []
    for twin in (game, shuffled_twin(game, 1), shuffled_twin(game, 2)):
        seat = twin.to_move
        hard = PlanningBot(3, weights=replace(HARD_1_WEIGHTS, refused_cards=0.0))
        expert = ExpertBot(3, 60.0, max_samples=8, settings=settings)
        row = []
        for bot in (hard, expert):
            bot.new_game(seat)
            row.append(bot.choose(twin.observation(seat)))
        choices.append(row)
    assert choices[0] == choices[1] == choices[2]
