"""R6.3: a bot's choice depends only on what its seat sees, never on hidden cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from spite_malice.bot_registry import make_bot
from spite_malice.bots import ExpertBot, reference_move
from spite_malice.bots.base import Bot
from spite_malice.engine import Game

LEVELS_UNDER_TEST = ("easy", "medium", "hard", "expert", "blocker-1", "nonblocker-1")


def make(level: str, seed: int) -> Bot:
    if level == "expert":
        return ExpertBot(seed, budget=60.0, max_samples=8)  # enough to let the search switch
    return make_bot(level, seed)


def midgame(seed: int, moves: int) -> Game:
    """A dealt game advanced by the reference policy (a greedy one that finishes games)."""
    game = Game.new(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.play(reference_move(game))
    assert not game.is_over
    return game


def with_hidden_cards_shuffled(game: Game, seed: int) -> dict[str, Any]:
    """The position of ``game`` with every card hidden from the seat to move dealt anew: the
    opponent's hand, both face-down pay-off piles and the stock (R6.2)."""
    position = game.to_position()
    me = position["to_move"]
    opp = position["players"][1 - me]
    hidden = list(opp["hand"]) + position["stock"]
    for player in position["players"]:
        hidden += player["payoff"][:-1]
    random.Random(seed).shuffle(hidden)
    at = 0

    def take(count: int) -> list[str]:
        nonlocal at
        cards = hidden[at : at + count]
        at += count
        return cards

    opp["hand"] = take(len(opp["hand"]))
    position["stock"] = take(len(position["stock"]))
    for player in position["players"]:
        player["payoff"] = take(len(player["payoff"]) - 1) + player["payoff"][-1:]
    assert at == len(hidden)
    return position


@pytest.mark.parametrize("level", LEVELS_UNDER_TEST)
@pytest.mark.parametrize(("deal", "moves"), [(3, 0), (4, 25), (5, 60), (6, 110)])
def test_choice_does_not_change_with_hidden_cards(level: str, deal: int, moves: int) -> None:
    game = midgame(deal, moves)
    positions = [game.to_position(), *(with_hidden_cards_shuffled(game, k) for k in (1, 2))]
    choices = []
    for position in positions:
        twin = Game.from_position(position, seed=99)
        observation = twin.observation(twin.to_move)
        bot = make(level, 17)
        bot.new_game(twin.to_move)
        choices.append(bot.choose(observation))
    assert choices[0] == choices[1] == choices[2]


def test_the_shuffled_twins_really_differ_only_in_hidden_cards() -> None:
    game = midgame(5, 60)
    twin = Game.from_position(with_hidden_cards_shuffled(game, 1), seed=99)
    original = Game.from_position(game.to_position(), seed=99)
    assert twin.stock != original.stock
    seat = original.to_move
    assert twin.observation(seat) == original.observation(seat)
