"""Names that say one thing (issue 16, item 3): outcome reasons are an enum whose values
are the words stored records, the web protocol and the page carry; move predicates are
``is_``-named."""

from __future__ import annotations

import json

from spite_malice.bots import reference_move
from spite_malice.engine import (
    STOCK_EXHAUSTED,
    TURN_LIMIT_REACHED,
    WON,
    Game,
    GameRecord,
    Move,
    OutcomeReason,
)


def test_outcome_reasons_are_an_enum_with_the_stored_words() -> None:
    assert [reason.value for reason in OutcomeReason] == [
        "pay-off pile emptied",
        "stock exhausted",
        "safeguard: 1000 turns played",
    ]
    assert tuple(OutcomeReason) == (WON, STOCK_EXHAUSTED, TURN_LIMIT_REACHED)
    assert WON == "pay-off pile emptied" and json.dumps(WON) == '"pay-off pile emptied"'


def test_a_record_keeps_the_reason_s_words_and_reads_back_the_enum() -> None:
    game = Game.new(4)
    while not game.is_over:
        game.play(reference_move(game))
    assert game.outcome is not None and game.outcome.reason is OutcomeReason.WON
    text = GameRecord.from_game(game).dumps()
    assert '"reason": "pay-off pile emptied"' in text
    again = GameRecord.from_json(text)
    assert again.result is not None and again.result.reason is OutcomeReason.WON
    other = json.loads(text)
    other["result"]["reason"] = "resigned"  # a reason another layer gives stays text
    assert GameRecord.from_json(other).result.reason == "resigned"  # type: ignore[union-attr]


def test_move_predicates_are_is_named() -> None:
    move = Move.build_from_side(1, 0)
    assert move.is_from_side and not move.is_from_hand and not move.is_from_payoff
    assert not hasattr(move, "from_side")
