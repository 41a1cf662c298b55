"""R6: the observation's JSON made straight from the game (``observation_json``, what the
server sends) is exactly ``observe(game, seat).to_json()``, at every ply of whole games, for
both seats and several rules."""

from __future__ import annotations

import random

import pytest

from spite_malice.engine.errors import ArgumentError
from spite_malice.engine.game import Game
from spite_malice.engine.observation import observation_json, observe
from spite_malice.engine.rules import Rules

RULES = [
    Rules.STANDARD,
    Rules.from_json({"payoff_size": 5}),
    Rules.from_json({"payoff_size": 10, "center_stacks": 4, "king_can_start_stack": False}),
]


@pytest.mark.parametrize("rules", RULES, ids=["standard", "payoff5", "center4"])
def test_the_observation_json_is_the_engines_at_every_ply(rules: Rules) -> None:
    chooser = random.Random(7)
    for seed in range(6):
        game = Game.new(seed, rules)
        for _ply in range(400):
            for seat in (0, 1):
                assert observation_json(game, seat) == observe(game, seat).to_json()
            if game.is_over:
                break
            game.apply(chooser.choice(list(game.legal_moves())))
        assert game.is_over or len(game.moves) >= 400


def test_the_rules_json_handed_out_is_a_copy() -> None:
    game = Game.new(3, RULES[1])
    first = observation_json(game, 0)
    first["rules"]["payoff_size"] = 99  # a caller changing its state changes no other
    assert observation_json(game, 0)["rules"] == {"payoff_size": 5}


@pytest.mark.parametrize("seat", [2, -1, True, 1.0, "1", None])
def test_a_seat_other_than_0_or_1_is_refused_by_both(seat: object) -> None:
    game = Game.new(3)
    for made in (observe, observation_json):
        with pytest.raises(ArgumentError, match="seat must be 0 or 1"):
            made(game, seat)  # type: ignore[arg-type]
