"""A hint's discard clause says "in order" only for a card one below the side stack's top
(as a center stack will take them back, R3.5); a card on one of its own rank, a Jack on a
Jack, is said plainly."""

from __future__ import annotations

from spite_malice.bots.hints import _discard_clause
from spite_malice.engine.moves import parse_move

JACK, QUEEN = 11, 12


def test_a_jack_on_a_jack_is_not_in_order() -> None:
    side = ((JACK,), (), (), ())
    said = _discard_clause(side, parse_move("HJ-S1"), builds=0, played_payoff=False)
    assert "in order" not in said
    assert said == "discards the Jack onto side stack 1"


def test_a_jack_on_a_queen_is_in_order() -> None:
    side = ((QUEEN,), (), (), ())
    said = _discard_clause(side, parse_move("HJ-S1"), builds=0, played_payoff=False)
    assert said == "discards the Jack onto the Queen on side stack 1, in order"
