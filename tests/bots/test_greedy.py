"""The greedy policy on an observation's JSON (bots/greedy.py)."""

from __future__ import annotations

from spite_malice.bots.greedy import greedy


def test_the_pay_off_card_goes_first_then_side_stacks() -> None:
    assert greedy({"legal_moves": ["H5-C1", "S2-C1", "P-C2", "H3-S1"]}) == "P-C2"
    assert greedy({"legal_moves": ["H5-C1", "S3-C2", "S2-C1", "H3-S1"]}) == "S2-C1"


def test_a_hand_build_comes_before_a_discard_and_a_king_last() -> None:
    assert greedy({"legal_moves": ["HK-C1", "H5-C2", "H3-S1"]}) == "H5-C2"
    assert greedy({"legal_moves": ["HK-C1", "H3-S1", "H9-S1", "HK-S1"]}) == "H9-S1"
    assert greedy({"legal_moves": ["HK-S1", "HK-S2"]}) == "HK-S2"
