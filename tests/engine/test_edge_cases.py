"""The edge cases of issue 2, one test each, set up as positions in notation."""

from __future__ import annotations

from collections import Counter

import pytest

from spite_malice.bots.reference import reference_move
from spite_malice.engine import (
    JACK,
    RANK_OF,
    STOCK_EXHAUSTED,
    TURN_LIMIT,
    TURN_LIMIT_REACHED,
    WON,
    CardBuilt,
    CardsDrawn,
    Game,
    GameDealt,
    GameDrawn,
    GameOverError,
    GameWon,
    IllegalMoveError,
    Match,
    NotationError,
    PositionError,
    Rules,
    SpiteMaliceError,
    StackCompleted,
    parse_card,
)

from .helpers import assert_cards_conserved, cards, game, names, position, snapshot

TO_JACK = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS"
"""A center stack that needs a Queen."""


def test_r3_1_king_on_a_ten_is_a_jack() -> None:
    played = game(hands=("KH QH JD 9C 9D", "2D"), center=("AS 2S 3S 4S 5S 6S 7S 8S 9S TS",))
    played.play("HK-C1")
    assert played.center_value(0) == JACK
    legal = {str(m) for m in played.legal_moves()}
    assert "HQ-C1" in legal and "HJ-C1" not in legal


def test_r3_4_b_king_on_a_jack_completes_the_stack_and_the_slot_takes_an_ace_at_once() -> None:
    played = game(hands=("KH AD 5C 6C 7C", "2D"), center=("", TO_JACK), stock="2C 3C 4C")
    stock_before = list(played.stock)
    played.play("HK-C2")
    # All 12 cards, the King among them, went into the stock, and the stock was shuffled.
    completed = [e for e in played.events if isinstance(e, StackCompleted)]
    assert len(completed) == 1
    assert names(completed[0].cards) == TO_JACK + " KH"
    assert played.center[1] == []
    assert len(played.stock) == len(stock_before) + 12
    assert Counter(played.stock) == Counter(stock_before + cards(TO_JACK + " KH"))
    assert played.stock != stock_before + cards(TO_JACK + " KH")
    assert played.stock[: len(stock_before)] != stock_before
    # The same turn, the emptied slot takes an Ace.
    assert played.to_move == 0
    played.play("HA-C2")
    assert names(played.center[1]) == "AD"
    assert_cards_conserved(played)


def test_r3_4_b_the_completion_shuffle_is_seeded() -> None:
    stocks = []
    for _ in range(2):
        played = game(seed=99, hands=("KH AD", "2D"), center=(TO_JACK,))
        played.play("HK-C1")
        stocks.append(played.stock)
    assert stocks[0] == stocks[1]
    other = game(seed=100, hands=("KH AD", "2D"), center=(TO_JACK,))
    other.play("HK-C1")
    assert other.stock != stocks[0]


def test_r3_4_b_a_recycled_king_is_a_plain_wild_king_again() -> None:
    """The King that stood for a Queen, drawn again, may start a stack as an Ace."""
    for seed in range(100):
        played = game(seed=seed, hands=("KH", "2D"), center=(TO_JACK,), stock="", leftovers="side")
        played.play("HK-C1")  # completes; the stock is those 12 cards; the hand draws 5
        if parse_card("KH") in played.players[0].hand:
            break
    else:
        pytest.fail("the King was never among the five cards drawn")
    played.play("HK-C2")
    assert played.center_value(1) == 1


def test_r3_2_king_on_an_empty_stack_is_an_ace() -> None:
    played = game(hands=("KH 2C", "2D"))
    played.play("HK-C1")
    assert played.center_value(0) == 1
    assert isinstance(built := played.events[-1], CardBuilt)
    assert built.value == 1
    assert "KH as an Ace" in str(built)
    assert played.is_legal("H2-C1")


def test_r3_2_king_on_an_empty_stack_is_illegal_when_the_option_is_off() -> None:
    played = game(hands=("KH 2C", "2D"), rules=Rules(king_can_start_stack=False))
    before = snapshot(played)
    with pytest.raises(IllegalMoveError) as caught:
        played.play("HK-C1")
    assert str(caught.value) == (
        "illegal move 'HK-C1': a King may not start a center stack under these rules (R3.2)"
    )
    assert snapshot(played) == before


@pytest.mark.parametrize("last", ["QD", "KD"])
def test_r3_4_a_the_last_payoff_card_wins_even_when_it_completes_a_stack(last: str) -> None:
    played = game(
        payoffs=(last, "QH 5D 6D"),
        hands=("9H 9C", "2D"),
        center=(TO_JACK,),
        stock="2C 3C",
    )
    stock_before = list(played.stock)
    played.play("P-C1")
    assert played.outcome is not None
    assert (played.outcome.winner, played.outcome.points, played.outcome.reason) == (0, 3, WON)
    # Nothing else happens: no recycling, no card turned up, no draw.
    assert [type(e).__name__ for e in played.events] == ["CardBuilt", "GameWon"]
    assert len(played.center[0]) == 12
    assert played.stock == stock_before
    assert_cards_conserved(played)
    with pytest.raises(GameOverError):
        played.play("H9-S1")


def test_r3_4_bc_last_hand_card_completes_a_stack_with_an_empty_stock_recycles_then_refills() -> (
    None
):
    played = game(hands=("QH", "2D"), center=(TO_JACK,), stock="", leftovers="side")
    assert played.stock == []
    played.play("HQ-C1")
    assert not played.is_over
    assert played.to_move == 0
    assert [type(e).__name__ for e in played.events] == [
        "CardBuilt",
        "StackCompleted",
        "CardsDrawn",
    ]
    assert len(played.players[0].hand) == 5
    assert len(played.stock) == 12 - 5
    assert Counter(played.players[0].hand + played.stock) == Counter(cards(TO_JACK + " QH"))
    assert played.legal_moves()
    assert_cards_conserved(played)


def test_r4_2_last_hand_card_onto_a_stack_that_does_not_complete_with_an_empty_stock_draws() -> (
    None
):
    played = game(hands=("5H", "2D"), center=("AS 2S 3S 4S",), stock="", leftovers="side")
    played.play("H5-C1")
    assert played.outcome is not None
    assert played.outcome.is_draw
    assert played.outcome.reason == STOCK_EXHAUSTED
    assert played.events[-1] == GameDrawn(STOCK_EXHAUSTED)
    assert played.legal_moves() == []


def test_r4_2_a_start_of_turn_refill_that_needs_3_cards_from_a_stock_of_2_draws() -> None:
    played = game(hands=("9H", "2D 3D"), stock="2C 3C", leftovers="side")
    played.play("H9-S1")
    assert played.outcome is not None
    assert played.outcome.reason == STOCK_EXHAUSTED
    assert played.outcome.winner is None
    # The two cards there were are drawn; the third is missing and the game ends at once.
    assert played.events[-2:] == [
        CardsDrawn(1, 2, tuple(cards("3C 2C"))),
        GameDrawn(STOCK_EXHAUSTED),
    ]
    assert played.stock == []
    assert_cards_conserved(played)


def test_r4_2_a_refill_that_exactly_empties_the_stock_goes_on() -> None:
    played = game(hands=("9H", "2D 3D"), stock="2C 3C 4C", leftovers="side")
    played.play("H9-S1")
    assert not played.is_over
    assert played.stock == []
    assert len(played.players[1].hand) == 5


def test_r3_1_all_center_stacks_busy_no_ace_until_one_completes() -> None:
    played = game(
        payoffs=("QS AC", "QH"),
        hands=("AH QH KD 9C 9D", "2D"),
        sides=(("AD",), ()),
        center=(TO_JACK, "AS", "AC 2C"),
    )
    legal = {str(m) for m in played.legal_moves()}
    assert not {m for m in legal if m.startswith(("HA-C", "P-C", "S1-C"))}
    for move, reason in (
        ("HA-C1", "center 1 needs a Queen"),
        ("HA-C2", "center 2 needs a 2"),
        ("P-C3", "center 3 needs a 3"),
        ("S1-C2", "center 2 needs a 2"),
    ):
        with pytest.raises(IllegalMoveError, match=reason):
            played.play(move)
    # A King fits a busy stack, but as the next value, never as an Ace.
    played.play("HK-C2")
    assert played.center_value(1) == 2
    # Completing center 1 frees a slot, and the Aces go on at once.
    played.play("HQ-C1")
    assert played.center[0] == []
    played.play("HA-C1")
    assert not played.is_legal("S1-C1")  # center 1 now needs a 2
    assert names(played.center[0]) == "AH"


def test_r3_5_no_move_from_a_payoff_pile_to_a_side_stack() -> None:
    played = game(payoffs=("QS 9D", "QH"), hands=("2C", "2D"))
    before = snapshot(played)
    with pytest.raises(IllegalMoveError) as caught:
        played.play("P-S3")
    assert str(caught.value).startswith("illegal move 'P-S3': ")
    assert "pay-off" in caught.value.reason
    assert snapshot(played) == before


def test_r3_5_no_move_between_side_stacks() -> None:
    played = game(hands=("2C", "2D"), sides=(("9D", "8D"), ()))
    before = snapshot(played)
    with pytest.raises(IllegalMoveError) as caught:
        played.play("S2-S1")
    assert str(caught.value).startswith("illegal move 'S2-S1': ")
    assert "side stack" in caught.value.reason
    assert snapshot(played) == before


@pytest.mark.parametrize("text", ["C1-C2", "C1-S1", "C2-H", "c3-s4"])
def test_r3_5_no_move_off_a_center_stack_the_notation_has_none(text: str) -> None:
    played = game(hands=("2C", "2D"), center=("AS", "AD", "AH"))
    before = snapshot(played)
    with pytest.raises(NotationError) as caught:
        played.play(text)
    assert repr(text) in str(caught.value)
    assert "unknown source" in str(caught.value)
    assert snapshot(played) == before


def test_r1_4_equal_payoff_tops_reshuffle_deterministically() -> None:
    seed = next(s for s in range(500) if _reshuffles(Game.new(seed=s)))
    games = [Game.new(seed=seed) for _ in range(3)]
    assert games[0].to_position() == games[1].to_position() == games[2].to_position()
    assert _reshuffles(games[0]) == _reshuffles(games[2]) > 0
    tops = [RANK_OF[p.payoff[-1]] for p in games[0].players]
    assert tops[0] != tops[1]
    assert games[0].to_move == (0 if tops[0] > tops[1] else 1)


def _reshuffles(dealt: Game) -> int:
    event = dealt.events[0]
    assert isinstance(event, GameDealt)
    return event.reshuffles


def test_r4_1_the_score_is_the_opponents_payoff_count_including_its_top_card() -> None:
    for count in (1, 5, 20):
        opponent = " ".join(
            ["QH"] + [f"{r}D" for r in "23456789TJQKA"] + ["5C", "6C", "7C", "8C", "9C", "TC"]
        )
        opponent = " ".join(opponent.split()[:count])
        played = game(payoffs=("AH", opponent), hands=("9H", "2D"))
        played.play("P-C1")
        assert played.outcome is not None
        assert played.outcome.points == count
        assert played.events[-1] == GameWon(0, count)


def test_r5_1_a_match_ends_at_50_or_more() -> None:
    match = Match(Rules.QUICK, seed=3)
    for score, over in (([49, 0], False), ([0, 49], False), ([50, 0], True), ([12, 63], True)):
        match.score[:] = score
        assert match.is_over is over
        assert match.winner == (score.index(max(score)) if over else None)
    # A real match: it ends with the first game that takes a player to 50 or more.
    match = Match(Rules.QUICK, seed=4)
    games = 0
    while not match.is_over:
        before = list(match.score)
        assert max(before) < 50
        played = match.next_game(recording=False)
        while not played.is_over:
            played.apply(reference_move(played))
        match.book()
        games += 1
    assert max(match.score) >= 50 and max(before) < 50
    assert games == len(match.records) > 1
    with pytest.raises(SpiteMaliceError, match="the match is over"):
        match.next_game()


def test_r5_1_option_match_target() -> None:
    match = Match(Rules(payoff_size=10, match_target=5), seed=5)
    while not match.is_over:
        played = match.next_game(recording=False)
        while not played.is_over:
            played.apply(reference_move(played))
        match.book()
        if not match.is_over:
            assert max(match.score) < 5
    assert max(match.score) >= 5


def test_r4_3_the_1000_turn_safeguard() -> None:
    assert TURN_LIMIT == 1000
    nearly = game(hands=("9H 9C", "2D 3D 4D 5D"), turn=999)
    nearly.play("H9-S1")
    assert not nearly.is_over
    assert nearly.turn == 1000
    assert nearly.to_position()["turn"] == 1000
    nearly.play("H2-S1")
    assert nearly.outcome is not None
    assert nearly.outcome.reason == TURN_LIMIT_REACHED
    assert nearly.outcome.is_draw
    # Builds during the last turn are still allowed; only its discard ends the game.
    last = game(hands=("AH 9C", "2D 3D 4D 5D"), turn=1000)
    last.play("HA-C1")
    assert not last.is_over
    last.play("H9-S1")
    assert last.outcome is not None and last.outcome.reason == TURN_LIMIT_REACHED
    with pytest.raises(PositionError, match="turn must be a whole number from 1 to 1000"):
        Game.from_position(position(hands=("9H", "2D"), turn=1001))


def test_r4_3_the_turn_survives_a_save_and_load() -> None:
    played = game(hands=("9H 9C", "2D 3D 4D 5D"), turn=500)
    played.play("H9-S1")
    again = Game.from_position(played.to_position())
    assert again.turn == 501
