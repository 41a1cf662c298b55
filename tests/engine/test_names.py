"""Names that say one thing (issue 16, item 3): outcome reasons, event kinds, a built card's
source and what a reshuffle shuffles are enums whose values are the words stored records,
the web protocol and the page carry; move predicates are ``is_``-named."""

from __future__ import annotations

import hashlib
import json

from spite_malice.bots import reference_move
from spite_malice.engine import (
    STOCK_EXHAUSTED,
    TURN_LIMIT_REACHED,
    WON,
    BuildSource,
    CardBuilt,
    CardDiscarded,
    CardsDrawn,
    EventKind,
    Game,
    GameDealt,
    GameDrawn,
    GameRecord,
    GameWon,
    Move,
    OutcomeReason,
    PayoffTurned,
    Rules,
    StackCompleted,
    TurnEnded,
)
from spite_malice.engine.chance import Piles, Reshuffle

from .golden import GOLDEN


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


# The JSON (web-protocol.md 4.4, both seats' views) and the reprs of every event of each
# golden game, as digests, written by the code before kinds became enums (main at f03f62c):
# the enums must leave both the same text.
_EVENTS_BEFORE_ENUMS = {
    "alternate_forced_first": ("78209026c28adc68", "6963550461289d7f"),
    "drawn_stock_exhausted": ("2bf6b2d757380f48", "1fe2f7ba95384f92"),
    "drawn_turn_limit": ("1a0654228e62a691", "bd142d716b9113d1"),
    "quick_win_with_kings": ("89fbd28292950eb5", "774d425752715955"),
    "standard_tie_reshuffle_win": ("b05b3a791447e311", "1f0a6d6f003f6aa5"),
    "three_decks_four_centers_no_king_start": ("95123bf4213a4002", "5d83ba9bfc31133d"),
    "unfinished": ("167f4aaea8cd7b92", "0dbd5a23cd0df5d9"),
}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def test_event_kinds_and_build_sources_are_enums_with_the_protocol_s_words() -> None:
    from spite_malice.table.event_json import event_to_json

    assert [kind.value for kind in EventKind] == [
        "dealt",
        "built",
        "discarded",
        "cards_drawn",
        "payoff_turned",
        "stack_completed",
        "turn_ended",
        "game_won",
        "game_drawn",
    ]
    assert [source.value for source in BuildSource] == ["P", "H", "S1", "S2", "S3", "S4"]
    one_of_each = [
        GameDealt(0, 1),
        CardBuilt(0, BuildSource.SIDE_2, 12, 1, 3),
        CardDiscarded(1, 5, 3),
        CardsDrawn(0, 2, (1, 2)),
        PayoffTurned(1, 7),
        StackCompleted(0, tuple(range(12)), 40),
        TurnEnded(1, 9),
        GameWon(0, 4),
        GameDrawn(STOCK_EXHAUSTED),
    ]
    assert [event.kind for event in one_of_each] == list(EventKind)
    for event in one_of_each:  # each event's kind is the word the web protocol writes
        assert event_to_json(event)["kind"] == event.kind
    built = event_to_json(one_of_each[1])
    assert json.dumps(built["source"]) == '"S2"' and built["text"].endswith(
        "side stack 2 on center 2"
    )
    assert repr(one_of_each[1]) == "CardBuilt(player=0, source='S2', card=12, center=1, value=3)"


def test_a_game_s_events_read_as_before_the_enums() -> None:
    from spite_malice.table.event_json import public_events

    seen = {}
    for path in sorted(GOLDEN.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        record = GameRecord.from_json(path.read_text(encoding="utf-8"))
        game = Game.new(record.seed, record.rules, first=record.first)
        for move in record.moves:
            game.play(move)
        built = [event for event in game.events if isinstance(event, CardBuilt)]
        assert built and all(type(event.source) is BuildSource for event in built)
        text = json.dumps([public_events(game.events, seat) for seat in (0, 1)])
        seen[path.stem] = (_digest(text), _digest(repr(game.events)))
    assert seen == _EVENTS_BEFORE_ENUMS


def test_what_a_reshuffle_shuffles_is_an_enum_that_reads_as_before() -> None:
    assert [piles.value for piles in Piles] == ["payoffs", "stock"]
    assert repr(Reshuffle(Piles.PAYOFFS)) == "Reshuffle(piles='payoffs', added=())"
    assert Reshuffle(Piles.STOCK, (3,)) == Reshuffle("stock", (3,))  # type: ignore[arg-type]
    game = Game.undealt(Rules(payoff_size=5))
    deck = list(range(52)) * 2
    deck[9], deck[17] = deck[17], deck[9]  # the pay-off tops (R1.2) 5S and 5H: a tie (R1.4)
    game.deal(deck)
    assert game.chance == [Reshuffle(Piles.PAYOFFS)]
    assert game.chance[0].piles is Piles.PAYOFFS  # type: ignore[union-attr]


def test_a_drawn_game_s_event_carries_the_outcome_reason() -> None:
    record = GameRecord.from_json((GOLDEN / "drawn_stock_exhausted.json").read_text("utf-8"))
    game = Game.new(record.seed, record.rules, first=record.first)
    for move in record.moves:
        game.play(move)
    last = game.events[-1]
    assert isinstance(last, GameDrawn) and last.reason is OutcomeReason.STOCK_EXHAUSTED
