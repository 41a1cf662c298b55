"""The shared action mapping (moves <-> 0..143, cards <-> 0..51) and first-fit through it."""

from __future__ import annotations

import random

import pytest

from spite_malice.bots import reference_move
from spite_malice.engine import ALL_MOVES, Game, NotationError, Rules
from spite_malice.research.actions import (
    NUM_ACTIONS,
    action_to_move,
    action_to_notation,
    actions_to_mask,
    card_to_outcome,
    first_fit_action,
    game_first_fit_action,
    legal_actions,
    move_to_action,
    notation_to_action,
    outcome_to_card,
)


def test_every_action_round_trips_through_notation() -> None:
    assert NUM_ACTIONS == len(ALL_MOVES) == 144
    for action in range(NUM_ACTIONS):
        text = action_to_notation(action)
        assert notation_to_action(text) == action
        assert notation_to_action(text.lower()) == action
        assert move_to_action(action_to_move(action)) == action


@pytest.mark.parametrize(
    ("text", "action"),
    [("P-C1", 0), ("P-C3", 2), ("HA-C1", 8), ("H7-C1", 56), ("HK-S1", 108), ("S1-C1", 112)],
)
def test_documented_examples(text: str, action: int) -> None:
    assert notation_to_action(text) == action
    assert action_to_notation(action) == text


def test_bad_input_is_refused() -> None:
    with pytest.raises(NotationError):
        notation_to_action("H7-C9")
    with pytest.raises(ValueError):
        action_to_move(144)


def test_card_outcomes_are_faces() -> None:
    assert card_to_outcome("AS") == 0
    assert card_to_outcome("7H") == 19
    assert outcome_to_card(51) == "KC"
    assert all(card_to_outcome(outcome_to_card(face)) == face for face in range(52))


def test_mask_marks_the_legal_actions() -> None:
    game = Game.new(7)
    legal = legal_actions(game)
    mask = actions_to_mask(legal)
    assert [i for i, bit in enumerate(mask) if bit] == legal
    assert legal == sorted(move.index for move in game.legal_moves())


@pytest.mark.parametrize("rules", [Rules.STANDARD, Rules(center_stacks=4, payoff_size=8)])
def test_first_fit_through_the_mapping_is_the_reference_policy(rules: Rules) -> None:
    positions = 0
    for seed in range(25):
        game = Game.new(seed, rules, recording=False)
        while not game.is_over:
            move = reference_move(game)
            assert game_first_fit_action(game) == move.index
            game.apply(move)
            positions += 1
    assert positions > 1000


def test_first_fit_discards_to_the_first_empty_side_stack() -> None:
    # Only discards are legal: 3 and 9 in hand; side stack 1 is full, 2 is empty.
    legal = sorted(rank * 8 + 4 + side for rank in (3, 9) for side in range(4))
    assert action_to_notation(first_fit_action(legal, (False, True, True, True))) == "H9-S2"
    assert action_to_notation(first_fit_action(legal, (False, False, False, False))) == "H9-S1"
    kings_only = [13 * 8 + 4 + side for side in range(4)]
    assert action_to_notation(first_fit_action(kings_only, (True,) * 4)) == "HK-S1"


def _first_fit_by_scanning(legal: list[int], side_empty: tuple[bool, ...]) -> int:
    """first_fit_action as first written: one pass over the actions (the specification)."""
    first_hand_build = side_build = -1
    discard_rank = 0
    for action in legal:
        target = action % 8
        if action < 8:
            if target < 4:
                return action
            continue
        if action >= 112:
            if target < 4:
                side_build = action
                break
            continue
        if target < 4:
            if first_hand_build < 0:
                first_hand_build = action
        elif action // 8 != 13:
            discard_rank = action // 8
    if side_build >= 0:
        return side_build
    if first_hand_build >= 0:
        return first_hand_build
    side = next((number for number, empty in enumerate(side_empty) if empty), 0)
    return (discard_rank or 13) * 8 + 4 + side


def test_first_fit_equals_one_pass_over_any_ascending_actions() -> None:
    rng = random.Random(4)
    for _ in range(20_000):
        size = rng.choice((0, 1, 2, 4, 8, 16, 32, 64))
        pool = rng.choice((range(144), range(4, 144), range(8, 112), range(100, 144)))
        legal = sorted(rng.sample(pool, min(size, len(pool))))
        side_empty = tuple(rng.random() < 0.3 for _ in range(4))
        assert first_fit_action(legal, side_empty) == _first_fit_by_scanning(legal, side_empty)
