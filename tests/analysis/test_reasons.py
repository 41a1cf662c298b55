"""The plain words of the analysis: moves, the table and the reasons, from the seat's view."""

from __future__ import annotations

import re

from spite_malice.analysis import (
    DecisionReport,
    Report,
    Settings,
    TurnReport,
    analyse_game,
    describe_moves,
    describe_table,
    why_better,
)
from spite_malice.bots.view import TurnView, view_from_observation
from spite_malice.engine import Move, parse_move

from . import positions as P
from .test_analysis import NOTATION


def view_of(spec: dict[str, object]) -> TurnView:
    game = P.game(spec)
    return view_from_observation(game.observation(game.to_move))


def moves(*texts: str) -> list[Move]:
    return [parse_move(text) for text in texts]


def test_moves_and_table_in_words() -> None:
    view = view_of(P.buried_card())
    words = describe_moves(view, moves("HA-C2", "H2-C2", "H9-S3"))
    assert words == (
        "the Ace from your hand on center 2, then the Two from your hand on center 2, "
        "then discard the Nine onto side stack 3"
    )
    assert describe_table(view) == (
        "center stacks Six, empty and Ten; your pay-off card the Nine (5 left); your hand Ace, "
        "Two, Three, Four and Nine; your side stacks Queen, Eight, empty and empty; your "
        "opponent's pay-off card the Jack (5 left)."
    )


def test_a_king_is_named_with_the_value_it_takes_r3_1() -> None:
    view = view_of(
        P.position(
            payoffs=([*P.UNDER[:4], "9S"], [*P.UNDER[4:], "JC"]),
            hands=(["KD", "5C", "5D", "8C", "QS"], ["4S", "6C", "2D", "TH", "QC"]),
            center=[["AS", "2D", "3S", "4H"], [], []],
        )
    )
    assert describe_moves(view, moves("HK-C1")) == (
        "the King (as a five) from your hand on center 1"
    )
    assert why_better(view, moves("HK-C1", "H8-S1"), moves("H5-C1", "H8-S1")) == (
        "You used a King as a five while you held a five; a King is worth keeping for a card "
        "you lack."
    )


def test_winning_and_refilling_reasons_r3_4() -> None:
    last = P.position(
        payoffs=(["3S"], [*P.UNDER[4:], "JC"]),
        hands=(["5S", "8D", "9C", "JH", "QS"], ["4S", "6C", "7D", "9H", "QC"]),
        center=[["AS", "2D"], [], []],
    )
    assert why_better(view_of(last), moves("H9-S1"), moves("P-C1")) == (
        "You could have won the game with your last pay-off card."
    )
    empty = P.position(
        payoffs=([*P.UNDER[:4], "QD"], [*P.UNDER[4:], "JC"]),
        hands=(["AS", "2S", "3S", "4S", "5S"], ["4D", "6C", "7D", "9H", "QC"]),
    )
    run = ("HA-C1", "H2-C1", "H3-C1", "H4-C1")
    assert why_better(view_of(empty), moves(*run, "H5-S1"), moves(*run, "H5-C1")) == (
        "You could have emptied your hand and drawn five new cards."
    )


def test_a_discard_that_buries_nothing_needed_is_not_called_burying() -> None:
    view = view_of(P.buried_card())
    builds = ("HA-C2", "H2-C2", "H3-C2", "H4-C2")
    # the 9 on the Queen covers a card no center stack is near
    reason = why_better(view, moves(*builds, "H9-S1"), moves(*builds, "H9-S3"))
    assert "buried" not in reason
    assert reason == "Side stack 3 was a better place for your Nine."


def test_the_words_say_when_new_cards_came_mid_turn_r3_4() -> None:
    start = P.game(P.missed_payoff())
    report = analyse_game(start, ["P-C1", "H5-S1"], 0, settings=Settings(samples=2, horizon=0))
    first, second = report.turns[0].decisions
    assert (
        first.played_words
        == "your pay-off Three on center 1 (then your next pay-off card turned up)"
    )
    assert second.played_words == "discard the Five onto side stack 1"
    empty = P.position(
        payoffs=([*P.UNDER[:4], "QD"], [*P.UNDER[4:], "JC"]),
        hands=(["AS", "2S", "3S", "4S", "5S"], ["4D", "6C", "7D", "9H", "QC"]),
    )
    run = ["HA-C1", "H2-C1", "H3-C1", "H4-C1", "H5-C1"]
    report = analyse_game(P.game(empty), run, 0, settings=Settings(samples=2, horizon=0))
    assert (
        report.turns[0]
        .decisions[0]
        .played_words.endswith("the Five from your hand on center 1 (then you drew five new cards)")
    )


def _turn(turn: int, lost: float, edge: float | None = 0.0) -> TurnReport:
    decision = DecisionReport(
        turn=turn,
        player_turn=(turn + 1) // 2,
        moves_before=2 * turn,
        position={},
        table="center stacks empty, empty and empty.",
        played=("H9-S1",),
        played_words="discard the Nine onto side stack 1",
        better=("P-C1",) if lost else ("H9-S1",),
        better_plan=("P-C1",) if lost else ("H9-S1",),
        better_words=(
            "your pay-off Ace on center 1" if lost else "discard the Nine onto side stack 1"
        ),
        lost=lost,
        difference=lost,
        error=0.1 if lost else 0.0,
        edge=edge,
        alternatives=2,
        samples=64 if edge is not None else 0,
        reason="You could have played your pay-off card, the Ace." if lost else "",
    )
    return TurnReport(turn, (decision,))


def test_the_summary_orders_the_worst_turns_and_lists_the_others() -> None:
    turns = (
        _turn(1, 0.0, 0.8),
        _turn(3, 0.5, -0.5),
        _turn(5, 1.5, -1.5),
        _turn(7, 0.2, -0.2),
        _turn(9, 0.7, -0.7),
        _turn(11, 0.0, None),
    )
    report = Report(0, ("Ann", "Bo"), Settings(), turns)
    assert [t.turn for t in report.worst] == [5, 9, 3]
    assert report.best is not None and report.best.turn == 1
    assert report.total_lost == 2.9
    text = report.to_text()
    # turns are the seat's own (the game's turns 5, 9 and 3 are seat 0's 3rd, 5th and 2nd)
    assert "Better turns were found for 4 of your 6 turns." in text
    assert "Your three costliest turns:" in text
    assert text.index("1. Your turn 3\n") < text.index("2. Your turn 5\n")
    assert text.index("2. Your turn 5\n") < text.index("3. Your turn 2\n")
    # whole pay-off cards only: 1.5 is about 2, 0.7 about 1, 0.5 less than one
    first, second, third = (text.split(f"{k}. Your turn ")[1].splitlines()[1] for k in (1, 2, 3))
    assert "about 2 pay-off cards on your opponent" in first
    assert "about 1 pay-off card on your opponent" in second
    assert "less than one pay-off card" in third
    assert "Your other turns that could have gone better: 4." in text
    assert "Your best turn: your turn 1." in text
    assert "You found a better turn than any" in text
    assert not re.search(r"\d[.,]\d", text)  # never a fraction
    assert "expected" not in text
    assert not NOTATION.search(text)


def test_a_seat_without_a_turn_gets_one_sentence() -> None:
    report = Report(1, ("Ann", "Bo"), Settings(), ())
    assert report.to_text() == "Bo has no turn in this game yet, so there is nothing to look at."
    assert report.best is None and report.worst == () and report.total_lost == 0
