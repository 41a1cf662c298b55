"""Opponent modelling from discards: the card the opponent discarded at the end of its turn
(R3.3) says which cards its kept hand does not hold, if it discards as its model does. Read
from the observation only (R6.3)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from spite_malice.arena.games import bot_seed
from spite_malice.bots import ExpertBot, PlanningBot, reference_move
from spite_malice.bots.evaluation import HARD_WEIGHTS
from spite_malice.bots.expert import EXPERT_SETTINGS
from spite_malice.bots.sampling import discard_check, sample_game, unseen_cards
from spite_malice.engine import RANK_OF, Game

from .positions import position
from .test_refusals import shuffled_twin

QUEEN, KING = 12, 13


def discarding_game() -> Game:
    """Seat 1 has just discarded a Jack onto an empty side stack, keeping a 2, a 3 and a 4
    (a Queen would have been the better discard there: the higher card, R3.3)."""
    game = Game.from_position(
        position(
            payoffs=(["2C", "3C", "9D"], ["8S", "4S", "7H"]),
            hands=(["AH", "3H", "8H", "9H", "TH"], ["2D", "3D", "4D", "JD"]),
            center=[["AC", "2S", "3S", "4C", "5C"], [], []],
            to_move=1,
        ),
        seed=5,
    )
    game.play("HJ-S1")
    assert game.to_move == 0
    return game


def test_a_hand_that_held_a_better_discard_is_refused() -> None:
    observation = discarding_game().observation(0)
    check = discard_check(observation, HARD_WEIGHTS)
    assert check is not None
    assert check((2, 3, 4))  # the hand it kept
    assert check((2, 3, KING))  # a King is the worst discard of all: it may have kept one
    assert not check((2, 3, QUEEN))
    rng = random.Random(7)
    for _ in range(40):
        world = sample_game(observation, rng, (), check)
        assert check(tuple(sorted(RANK_OF[c] for c in world.players[1].hand)))
    plain = [sample_game(observation, rng) for _ in range(40)]
    assert any(not check(tuple(RANK_OF[c] for c in w.players[1].hand)) for w in plain)


def test_nothing_is_read_without_the_opponent_discard_last() -> None:
    game = discarding_game()
    assert discard_check(Game.new(3).observation(0), HARD_WEIGHTS) is None  # no move yet
    game.play(next(m for m in game.legal_moves() if not m.is_discard))  # our own build
    assert discard_check(game.observation(0), HARD_WEIGHTS) is None


@pytest.mark.parametrize("deal", [42000, 42001])
def test_the_hand_hard_kept_always_agrees_with_its_discard(deal: int) -> None:
    game = Game.new(deal, recording=False)
    bots = [PlanningBot(bot_seed(deal, "A")), PlanningBot(bot_seed(deal, "B"))]
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    rng = random.Random(deal)
    turns = read = refused = 0
    turn = -1
    while game.outcome is None:
        seat = game.to_move
        observation = game.observation(seat)
        if game.turn != turn:
            turn = game.turn
            turns += 1
            check = discard_check(observation, HARD_WEIGHTS)
            if check is not None:
                read += 1
                kept = tuple(RANK_OF[c] for c in game.players[1 - seat].hand)
                assert check(kept), (turn, kept, observation.history[-1])
                unseen = [RANK_OF[c] for c in unseen_cards(observation)]
                dealt = rng.sample(unseen, len(kept))
                refused += not check(tuple(dealt))
        game.apply(bots[seat].choose(observation))
    assert read > turns / 2  # most discards say something
    assert refused > read / 5  # and what they say rules out many hands


@pytest.mark.parametrize(("deal", "moves"), [(4, 25), (5, 60), (6, 110)])
def test_discard_reading_never_reads_hidden_cards(deal: int, moves: int) -> None:
    game = Game.new(deal)
    for _ in range(moves):
        game.play(reference_move(game))
    settings = replace(EXPERT_SETTINGS, discard_reading=True)
    choices = []
    for twin in (game, shuffled_twin(game, 1), shuffled_twin(game, 2)):
        seat = twin.to_move
        expert = ExpertBot(3, 60.0, max_samples=8, settings=settings)
        expert.new_game(seat)
        choices.append(expert.choose(twin.observation(seat)))
    assert choices[0] == choices[1] == choices[2]
