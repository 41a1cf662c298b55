"""The plain words of the analysis: moves, the table and the reasons, from the seat's view."""

from __future__ import annotations

from spite_malice.analysis import Settings, analyse_game, describe_moves, describe_table, why_better
from spite_malice.bots.view import TurnView, view_from_observation
from spite_malice.engine import Move, parse_move

from . import positions as P


def view_of(spec: dict[str, object]) -> TurnView:
    game = P.game(spec)
    return view_from_observation(game.observation(game.to_move))


def moves(*texts: str) -> list[Move]:
    return [parse_move(text) for text in texts]


def test_moves_and_table_in_words() -> None:
    view = view_of(P.buried_card())
    words = describe_moves(view, moves("HA-C2", "H2-C2", "H9-S3"))
    assert words == (
        "the Ace from your hand on center 2, then the 2 from your hand on center 2, "
        "then discard the 9 onto side stack 3"
    )
    assert describe_table(view) == (
        "center stacks 6, empty and 10; your pay-off card the 9 (5 left); your hand Ace, 2, "
        "3, 4 and 9; your side stacks Queen, 8, empty and empty; your opponent's pay-off card "
        "the Jack (5 left)."
    )


def test_a_king_is_named_with_the_value_it_takes_r3_1() -> None:
    view = view_of(
        P.position(
            payoffs=([*P.UNDER[:4], "9S"], [*P.UNDER[4:], "JC"]),
            hands=(["KD", "5C", "5D", "8C", "QS"], ["4S", "6C", "2D", "TH", "QC"]),
            center=[["AS", "2D", "3S", "4H"], [], []],
        )
    )
    assert describe_moves(view, moves("HK-C1")) == "the King (as a 5) from your hand on center 1"
    assert why_better(view, moves("HK-C1", "H8-S1"), moves("H5-C1", "H8-S1")) == (
        "You used a King as a 5 while you held a 5; a King is worth keeping for a card you lack."
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
    assert reason == "Side stack 3 was a better place for your 9."


def test_the_words_say_when_new_cards_came_mid_turn_r3_4() -> None:
    start = P.game(P.missed_payoff())
    report = analyse_game(start, ["P-C1", "H5-S1"], 0, settings=Settings(samples=2, horizon=0))
    first, second = report.turns[0].decisions
    assert (
        first.played_words == "your pay-off 3 on center 1 (then your next pay-off card turned up)"
    )
    assert second.played_words == "discard the 5 onto side stack 1"
    empty = P.position(
        payoffs=([*P.UNDER[:4], "QD"], [*P.UNDER[4:], "JC"]),
        hands=(["AS", "2S", "3S", "4S", "5S"], ["4D", "6C", "7D", "9H", "QC"]),
    )
    run = ["HA-C1", "H2-C1", "H3-C1", "H4-C1", "H5-C1"]
    report = analyse_game(P.game(empty), run, 0, settings=Settings(samples=2, horizon=0))
    assert (
        report.turns[0]
        .decisions[0]
        .played_words.endswith("the 5 from your hand on center 1 (then you drew five new cards)")
    )
