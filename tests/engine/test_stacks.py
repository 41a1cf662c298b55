"""The rank-space rules of the center stacks (engine/stacks.py), named after the rules."""

from __future__ import annotations

from spite_malice.engine import KING, QUEEN
from spite_malice.engine.stacks import (
    COMPLETE,
    built,
    fit_masks,
    fits,
    lowest_fits,
    needs,
    ranks_to_reach,
    taken_by,
)


def test_r3_1_a_stack_takes_the_next_rank() -> None:
    assert [rank for rank in range(1, KING) if fits(rank, 4, False)] == [5]
    assert needs(4) == 5 and taken_by(5) == 4
    assert not fits(QUEEN, QUEEN, True)  # a stack of value 12 never stays on the table


def test_r3_2_a_king_fits_any_stack_but_an_empty_one_only_when_allowed() -> None:
    assert all(fits(KING, value, False) for value in range(1, COMPLETE))
    assert fits(KING, 0, True) and not fits(KING, 0, False)


def test_r3_4_b_the_build_that_reaches_a_queen_clears_the_stack() -> None:
    assert [built(value) for value in (0, 5, 10, 11)] == [1, 6, 11, 0]


def test_fit_masks_and_lowest_fits_agree_with_fits() -> None:
    for king_can_start in (False, True):
        for values in [(0, 0, 0), (3, 0, 11), (5, 5, 2, 0)]:
            masks = fit_masks(values, king_can_start)
            lowest = lowest_fits(values, king_can_start)
            for rank in range(1, KING + 1):
                taking = [i for i, v in enumerate(values) if fits(rank, v, king_can_start)]
                assert masks[rank] == sum(1 << i for i in taking)
                assert lowest[rank] == (taking[0] if taking else -1)


def test_routes_go_up_and_round_past_a_queen() -> None:
    assert ranks_to_reach(3, 7) == (4, 5, 6)
    assert ranks_to_reach(10, 2) == (11, 1)  # 11, then the stack completes; an Ace starts it
    assert ranks_to_reach(4, 5) == ()
