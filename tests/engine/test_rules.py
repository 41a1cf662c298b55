"""One test (or a few) per section of rules.md, R0 to R6, named after the rule it checks."""

from __future__ import annotations

from collections import Counter

import pytest

from spite_malice.engine import (
    ACE,
    JACK,
    KING,
    QUEEN,
    RANK_OF,
    STOCK_EXHAUSTED,
    TURN_LIMIT_REACHED,
    WON,
    CardBuilt,
    CardDiscarded,
    CardsDrawn,
    Game,
    GameDealt,
    GameDrawn,
    GameOverError,
    GameWon,
    IllegalMoveError,
    Match,
    NotationError,
    PayoffTurned,
    Rules,
    StackCompleted,
    TurnEnded,
    parse_card,
    public_event,
)
from spite_malice.engine.rules import FIRST_PLAYER_RULES

from .helpers import all_cards, assert_cards_conserved, cards, game, names

# ----------------------------------------------------------------------------- R0 cards


def test_r0_1_two_decks_of_52_make_104_cards_every_face_twice() -> None:
    dealt = Game.new(seed=1)
    assert len(all_cards(dealt)) == 104
    assert Counter(all_cards(dealt)) == Counter({face: 2 for face in range(52)})


def test_r0_2_ranks_ace_is_one_queen_is_twelve_king_is_wild() -> None:
    assert [RANK_OF[parse_card(r + "S")] for r in "A23456789TJQK"] == list(range(1, 14))
    assert (ACE, JACK, QUEEN, KING) == (1, 11, 12, 13)
    # Suits never matter: every suit of a rank builds the same way.
    for suit in "SHDC":
        played = game(hands=(f"3{suit} 9C 9D 9H 9S", "2D"), center=("AS 2S",))
        played.play("H3-C1")
        assert played.center_value(0) == 3


def test_r0_2_option_three_decks_make_156_cards_every_face_three_times() -> None:
    rules = Rules(decks=3)
    dealt = Game.new(seed=2, rules=rules)
    assert Counter(all_cards(dealt)) == Counter({face: 3 for face in range(52)})
    assert len(dealt.stock) == 156 - 2 * 20 - 2 * 5
    for decks in (1, 4):
        with pytest.raises(ValueError, match="decks must be 2 or 3"):
            Rules(decks=decks)


# ----------------------------------------------------------------------------- R1 set-up


def test_r1_1_the_shuffle_is_seeded_and_the_seed_recorded() -> None:
    first = Game.new(seed=12345)
    again = Game.new(seed=12345)
    other = Game.new(seed=12346)
    assert first.seed == 12345
    assert first.to_position() == again.to_position()
    assert first.to_position() != other.to_position()
    unseeded = Game.new()
    assert isinstance(unseeded.seed, int)
    assert Game.new(seed=unseeded.seed).to_position() == unseeded.to_position()


def test_r1_1_deals_vary_over_seeds() -> None:
    """A uniform shuffle puts every face on the pay-off top of some deal (weak but cheap)."""
    tops = {RANK_OF[Game.new(seed=s).players[0].payoff[-1]] for s in range(300)}
    assert tops == set(range(1, 14))


@pytest.mark.parametrize(
    ("rules", "payoff", "stock"),
    [
        (Rules.STANDARD, 20, 54),
        (Rules.QUICK, 10, 74),
        (Rules(payoff_size=5), 5, 84),
        (Rules(payoff_size=30), 30, 34),
        (Rules(decks=3, payoff_size=30), 30, 86),
    ],
)
def test_r1_2_payoff_piles_hands_of_five_and_the_stock(
    rules: Rules, payoff: int, stock: int
) -> None:
    dealt = Game.new(seed=3, rules=rules)
    for player in dealt.players:
        assert len(player.payoff) == payoff
        assert len(player.hand) == 5
    assert len(dealt.stock) == stock
    assert_cards_conserved(dealt)


@pytest.mark.parametrize("size", [4, 31, 0])
def test_r1_2_option_payoff_size_is_5_to_30(size: int) -> None:
    with pytest.raises(ValueError, match="payoff_size must be 5 to 30"):
        Rules(payoff_size=size)


def test_r1_2_only_the_payoff_top_is_face_up() -> None:
    dealt = Game.new(seed=4)
    view = dealt.observation(0)
    assert view.players[1].payoff_top == dealt.players[1].payoff[-1]
    assert view.players[1].payoff_count == 20
    assert set(view.visible_cards()) <= set(dealt.players[0].hand) | {
        dealt.players[0].payoff[-1],
        dealt.players[1].payoff[-1],
    }


@pytest.mark.parametrize("centers", [3, 4])
def test_r1_3_four_side_stacks_each_and_three_or_four_center_stacks_all_empty(
    centers: int,
) -> None:
    dealt = Game.new(seed=5, rules=Rules(center_stacks=centers))
    assert dealt.center == [[] for _ in range(centers)]
    for player in dealt.players:
        assert player.side == [[], [], [], []]
    with pytest.raises(ValueError, match="center_stacks must be 3 or 4"):
        Rules(center_stacks=5)


def test_r1_4_the_higher_payoff_top_starts_ace_low_king_high() -> None:
    kings_seen = 0
    for seed in range(400):
        dealt = Game.new(seed=seed)
        tops = [RANK_OF[p.payoff[-1]] for p in dealt.players]
        assert tops[0] != tops[1]
        assert dealt.to_move == dealt.first == (0 if tops[0] > tops[1] else 1)
        kings_seen += KING in tops
    assert kings_seen > 0  # a King on top beat a Queen or lower, so K ranks highest


def test_r1_4_equal_payoff_tops_reshuffle_deterministically() -> None:
    """A tie reshuffles both pay-off piles with the seeded generator until the tops differ."""
    tied = [s for s in range(200) if _dealt(Game.new(seed=s)).reshuffles]
    assert len(tied) >= 5  # about one deal in thirteen ties
    for seed in tied[:5]:
        dealt = Game.new(seed=seed)
        again = Game.new(seed=seed)
        assert again.to_position() == dealt.to_position()
        assert _dealt(again) == _dealt(dealt)
        tops = [RANK_OF[p.payoff[-1]] for p in dealt.players]
        assert tops[0] != tops[1]
        assert dealt.to_move == (0 if tops[0] > tops[1] else 1)
        assert_cards_conserved(dealt)
        # The reshuffle happened with the game's generator: with first forced (as a match
        # does for its alternate and loser rules) the very same cards are dealt.
        other = 1 - dealt.to_move
        forced = Game.new(seed=seed, first=other)
        assert forced.to_position()["players"] == dealt.to_position()["players"]
        assert forced.to_move == other


def test_r1_4_option_first_player_rules() -> None:
    for rule in FIRST_PLAYER_RULES:
        assert Rules(first_player=rule).first_player == rule
    with pytest.raises(ValueError, match="first_player must be one of"):
        Rules(first_player="youngest")  # type: ignore[arg-type]
    # Matches apply the alternate and loser rules: see test_records.py.


def _dealt(dealt: Game) -> GameDealt:
    event = dealt.events[0]
    assert isinstance(event, GameDealt)
    return event


# ----------------------------------------------------------------------------- R2 the turn


def test_r2_1_refill_draws_from_the_top_of_the_stock_until_the_hand_holds_five() -> None:
    played = game(hands=("9H", "2D 3D"), stock="4C 5C 6C 7C")
    played.play("H9-S1")
    # The last card of the stock list is its top: 7C, then 6C, then 5C are drawn.
    assert names(played.players[1].hand) == "2D 3D 7C 6C 5C"
    assert names(played.stock[-1:]) == "4C"
    assert played.events[-1] == CardsDrawn(1, 3, tuple(cards("7C 6C 5C")))


def test_r2_1_a_full_hand_draws_nothing() -> None:
    played = game(hands=("9H", "2D 3D 4D 5D 6D"), stock="4C")
    before = len(played.stock)
    played.play("H9-S1")
    assert len(played.stock) == before
    assert not any(isinstance(e, CardsDrawn) for e in played.events)


def test_r2_1_a_new_game_starts_with_full_hands_and_no_draw() -> None:
    dealt = Game.new(seed=6)
    assert all(len(p.hand) == 5 for p in dealt.players)
    assert len(dealt.legal_moves()) > 0


def test_r2_2_any_number_of_builds_in_any_order_then_the_same_player_goes_on() -> None:
    played = game(
        payoffs=("QS 3H", "QH"),
        hands=("AS 2S AC 5D 9D", "2D"),
        sides=(("AD",), ()),
        center=("", "", ""),
    )
    for move in ("HA-C1", "H2-C1", "P-C1", "S1-C2", "HA-C3"):
        played.play(move)
        assert played.to_move == 0
        assert played.turn == 1
    assert [played.center_value(i) for i in range(3)] == [3, 1, 1]
    assert sum(isinstance(e, CardBuilt) for e in played.events) == 5


def test_r2_2_no_build_at_all_is_fine() -> None:
    played = game(hands=("AS 2S 3S 4S 5S", "2D"))
    assert played.is_legal("HA-C1")
    played.play("H5-S1")
    assert played.to_move == 1
    assert played.center == [[], [], []]


def test_r2_3_exactly_one_discard_ends_the_turn() -> None:
    played = game(hands=("9H 8H", "2D 3D 4D 5D"), turn=7)
    played.play("H9-S2")
    assert played.to_move == 1
    assert played.turn == 8
    assert names(played.players[0].side[1]) == "9H"
    assert played.events[-3:-1] == [CardDiscarded(0, parse_card("9H"), 1), TurnEnded(0, 7)]
    assert played.events[-1] == CardsDrawn(1, 1, (played.players[1].hand[-1],))  # R2.1
    # The hand still holds the 8, but the turn is over: player 2 moves now.
    assert not played.is_legal("H8-S1")


def test_r2_3_there_is_no_pass() -> None:
    played = game(hands=("9H", "2D"))
    for text in ("pass", "P", "-", "H9"):
        with pytest.raises(NotationError):
            played.play(text)
    # Every move of the move space is a build or a discard: a turn can only end by a discard.
    dealt = Game.new(seed=7)
    while not dealt.is_over:
        legal = dealt.legal_moves()
        assert legal and any(m.is_discard for m in legal)
        dealt.apply(next(m for m in legal if m.is_discard))


def test_r2_4_emptying_the_payoff_pile_wins_at_once_without_a_discard() -> None:
    played = game(payoffs=("AH", "QH 5D 6D"), hands=("9H 9D 9C 9S 8H", "2D"))
    played.play("P-C1")
    assert played.is_over
    assert played.winner == 0
    assert not any(isinstance(e, (CardDiscarded, TurnEnded)) for e in played.events)
    assert played.legal_moves() == []


# ----------------------------------------------------------------------------- R3 moves


def test_r3_1_build_from_the_payoff_top_the_hand_or_a_side_stack_top() -> None:
    played = game(
        payoffs=("QS 5H 3H", "QH"),
        hands=("AC 4C 9D 9H 9S", "2D"),
        sides=(("6D 2D", "", "QC 5C"), ()),
    )
    played.play("HA-C2")  # hand
    played.play("S1-C2")  # side stack 1's top, the 2D
    played.play("P-C2")  # pay-off top, the 3H; the 5H turns up
    played.play("H4-C2")
    played.play("P-C2")  # the 5H
    assert names(played.center[1]) == "AC 2D 3H 4C 5H"
    assert names(played.players[0].side[0]) == "6D"
    built = [e for e in played.events if isinstance(e, CardBuilt)]
    assert [e.source for e in built] == ["H", "S1", "P", "H", "P"]
    assert [e.value for e in built] == [1, 2, 3, 4, 5]
    # Only a card of the next rank fits; 5C on side stack 3 is one too low for the 6 needed.
    with pytest.raises(IllegalMoveError, match="center 2 needs a 6"):
        played.play("S3-C2")


def test_r3_1_an_empty_center_stack_takes_only_an_ace() -> None:
    played = game(hands=("2C 3C 4C 5C AC", "2D"))
    assert [str(m) for m in played.legal_moves() if m.is_build] == ["HA-C1", "HA-C2", "HA-C3"]
    with pytest.raises(IllegalMoveError, match="center 1 needs an Ace"):
        played.play("H2-C1")


@pytest.mark.parametrize("value", range(0, 12))
def test_r3_1_a_king_is_legal_on_any_center_stack_and_takes_the_value_needed(value: int) -> None:
    stack = " ".join(f"{r}S" for r in "A23456789TJ"[:value])
    played = game(hands=("KH 9C 9D", "2D"), center=(stack,))
    played.play("HK-C1")
    built = next(e for e in played.events if isinstance(e, CardBuilt))
    assert built.value == value + 1
    if value + 1 < QUEEN:
        assert played.center_value(0) == value + 1


def test_r3_1_king_on_ten_is_a_jack() -> None:
    played = game(hands=("KH QH JH 9C 9D", "2D"), center=("AS 2S 3S 4S 5S 6S 7S 8S 9S TS",))
    played.play("HK-C1")
    assert played.center_value(0) == JACK
    assert isinstance(built := played.events[-1], CardBuilt)
    assert built.value == JACK
    assert "KH as a Jack" in str(built)
    assert not played.is_legal("HJ-C1")
    with pytest.raises(IllegalMoveError, match="center 1 needs a Queen"):
        played.play("HJ-C1")
    played.play("HQ-C1")  # a Queen on the King-Jack completes the stack
    assert played.center[0] == []


def test_r3_2_a_king_may_start_an_empty_stack_as_an_ace() -> None:
    played = game(hands=("KH 2C 9C 9D 9H", "2D"))
    played.play("HK-C3")
    assert played.center_value(2) == ACE
    played.play("H2-C3")
    assert names(played.center[2]) == "KH 2C"


def test_r3_2_option_off_a_king_may_not_start_a_stack() -> None:
    rules = Rules(king_can_start_stack=False)
    played = game(
        rules=rules,
        payoffs=("QS KD", "QH"),
        hands=("KH 2C 9C 9D AH", "2D"),
        sides=(("KC",), ()),
        center=("", "AS"),
    )
    legal = {str(m) for m in played.legal_moves()}
    assert legal >= {"HK-C2", "P-C2", "S1-C2", "HA-C1", "HA-C3"}
    assert not legal & {"HK-C1", "HK-C3", "P-C1", "P-C3", "S1-C1", "S1-C3"}
    for move in ("HK-C1", "P-C3", "S1-C1"):
        with pytest.raises(IllegalMoveError, match=r"may not start a center stack.*\(R3\.2\)"):
            played.play(move)


def test_r3_3_discard_any_hand_card_onto_any_side_stack_kings_included() -> None:
    played = game(hands=("KH AS", "2D 3D 4D 5D 6D"), sides=(("QC", "2C", "", "9S"), ()))
    legal = {str(m) for m in played.legal_moves()}
    # Builds are possible, yet every discard is allowed too.
    assert "HA-C1" in legal
    assert {f"H{r}-S{s}" for r in "AK" for s in range(1, 5)} <= legal
    played.play("HK-S4")  # a King onto a 9: side stacks take anything
    assert names(played.players[0].side[3]) == "9S KH"
    assert played.to_move == 1


def test_r3_3_discard_needs_the_card_in_the_hand() -> None:
    played = game(hands=("KH AS", "2D"))
    with pytest.raises(IllegalMoveError, match="there is no 7 in your hand"):
        played.play("H7-S1")


def test_r3_4_a_after_a_payoff_build_the_next_card_is_turned_up() -> None:
    played = game(payoffs=("QS 7D AD", "QH"), hands=("9H", "2D"))
    played.play("P-C1")
    assert played.events[-1] == PayoffTurned(0, parse_card("7D"))
    assert played.observation(1).players[0].payoff_top == parse_card("7D")
    assert played.observation(1).players[0].payoff_count == 2


def test_r3_4_b_a_queen_completes_the_stack_back_into_the_stock_and_shuffled() -> None:
    stack = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS"
    played = game(hands=("QH 9C", "2D"), center=("", stack), stock="2C 3C 4C")
    stock_before = list(played.stock)
    played.play("HQ-C2")
    assert played.center[1] == []
    assert Counter(played.stock) == Counter(stock_before + cards(stack + " QH"))
    assert played.stock != stock_before + cards(stack + " QH")  # shuffled, not stacked on
    completed = played.events[-1]
    assert isinstance(completed, StackCompleted)
    assert completed.center == 1
    assert names(completed.cards) == stack + " QH"
    assert completed.stock_size == len(played.stock) == len(stock_before) + 12
    assert played.to_move == 0
    assert played.is_legal("H9-S1")


def test_r3_4_c_an_empty_hand_draws_five_at_once_and_building_goes_on() -> None:
    played = game(hands=("AH", "2D"), stock="2C 3C 4C 5C 6C 7C")
    played.play("HA-C1")
    assert names(played.players[0].hand) == "7C 6C 5C 4C 3C"
    assert played.events[-1] == CardsDrawn(0, 5, tuple(cards("7C 6C 5C 4C 3C")))
    assert played.to_move == 0
    assert not played.is_over
    played.play("H3-S1")  # the turn goes on; the 2C is the next card of the stock


def test_r3_4_order_turn_up_the_payoff_card_then_complete_the_stack() -> None:
    """R3.4 (a) before (b): a pay-off Queen that completes a stack turns up the next card."""
    played = game(
        payoffs=("QS 5D QD", "QH"),
        hands=("9H", "2D"),
        center=("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS",),
    )
    played.play("P-C1")
    assert [type(e).__name__ for e in played.events] == [
        "CardBuilt",
        "PayoffTurned",
        "StackCompleted",
    ]
    assert played.players[0].payoff_top == parse_card("5D")
    assert played.center[0] == []


def test_r3_5_no_pay_off_card_to_a_side_stack() -> None:
    played = game(payoffs=("QS 9D", "QH"), hands=("2C", "2D"))
    with pytest.raises(IllegalMoveError, match=r"pay-off card may only be built on a center"):
        played.play("P-S1")


def test_r3_5_no_move_between_side_stacks() -> None:
    played = game(hands=("2C", "2D"), sides=(("9D", "8D"), ()))
    with pytest.raises(IllegalMoveError, match=r"never moves from one side stack to another"):
        played.play("S1-S2")


@pytest.mark.parametrize("text", ["C1-C2", "C1-S1", "C2-H", "S1-H", "P-H", "C1", "O1-C1"])
def test_r3_5_no_move_off_a_center_stack_or_back_into_the_hand_has_a_notation(text: str) -> None:
    played = game(hands=("2C", "2D"), center=("AS",))
    with pytest.raises(NotationError, match=r"expected|unknown"):
        played.play(text)


def test_r3_5_the_opponents_piles_cannot_be_named_or_touched() -> None:
    # Sources are always the mover's own piles: player 2's side stack top (an Ace) is not
    # the mover's S1, which is empty.
    played = game(hands=("9C", "2D"), sides=((), ("AD",)))
    with pytest.raises(IllegalMoveError, match="side stack 1 is empty"):
        played.play("S1-C1")


# ----------------------------------------------------------------------------- R4 end


def test_r4_1_the_winner_scores_one_point_per_card_left_in_the_opponents_payoff() -> None:
    played = game(payoffs=("AH", "QH 2D 3D 4D 5D 6D 7D"), hands=("9C", "2C"))
    played.play("P-C1")
    assert played.outcome is not None
    assert (played.outcome.winner, played.outcome.points, played.outcome.reason) == (0, 7, WON)
    assert played.events[-1] == GameWon(0, 7)


def test_r4_2_a_draw_from_an_empty_stock_draws_the_game_at_once() -> None:
    played = game(hands=("9C", "2C 3C 4C 5C"), stock="", leftovers="side")
    played.play("H9-S1")
    assert played.outcome is not None
    assert played.outcome.is_draw
    assert (played.outcome.winner, played.outcome.points) == (None, 0)
    assert played.outcome.reason == STOCK_EXHAUSTED
    assert played.events[-1] == GameDrawn(STOCK_EXHAUSTED)
    with pytest.raises(GameOverError, match="the game is over"):
        played.play("H2-S1")


def test_r4_3_a_game_that_reaches_1000_turns_is_drawn_and_flagged() -> None:
    played = game(hands=("9C 8C", "2D 3D 4D 5D"), turn=1000)
    played.play("H9-S1")
    assert played.outcome is not None
    assert played.outcome.is_draw
    assert played.outcome.reason == TURN_LIMIT_REACHED
    assert "1000" in played.outcome.reason


# ----------------------------------------------------------------------------- R5 match


def test_r5_1_a_match_adds_up_game_scores_until_a_player_reaches_the_target() -> None:
    from spite_malice.bots.reference import reference_move

    match = Match(Rules.QUICK, seed=8)
    totals = [0, 0]
    while not match.is_over:
        played = match.next_game(recording=False)
        while not played.is_over:
            played.apply(reference_move(played))
        assert played.outcome is not None
        if played.outcome.winner is not None:
            totals[played.outcome.winner] += played.outcome.points
        match.book()
        assert match.score == totals
    assert match.winner is not None
    assert match.score[match.winner] >= 50
    assert match.score[1 - match.winner] < 50
    with pytest.raises(Exception, match="the match is over"):
        match.next_game()


# ----------------------------------------------------------------------------- R6 information


def test_r6_1_public_information_is_in_every_observation() -> None:
    played = game(
        payoffs=("QS 7D AD", "QH 8C 9C"),
        hands=("AH 2H 5S 6S 7S", "2D 3D"),
        sides=(("TC JC",), ("", "4C")),
        center=("", "AS 2S"),
        stock="5C 6C 7C",
    )
    played.play("P-C1")
    played.play("H5-S2")
    for seat in (0, 1):
        view = played.observation(seat)
        assert view.players[0].payoff_top == parse_card("7D")
        assert view.players[1].payoff_top == parse_card("9C")
        assert [v.payoff_count for v in view.players] == [2, 3]
        assert [v.hand_count for v in view.players] == [4, 5]
        assert names(view.players[0].side[0]) == "TC JC"
        assert names(view.players[0].side[1]) == "5S"
        assert names(view.players[1].side[1]) == "4C"
        assert [names(s) for s in view.center] == ["AD", "AS 2S", ""]
        assert view.stock_count == len(played.stock)
        assert [str(m) for m in view.history] == ["P-C1", "H5-S2"]
        assert view.to_move == 1
    # How many cards a player drew is public, which ones is not.
    drawn = next(e for e in played.events if isinstance(e, CardsDrawn))
    assert public_event(drawn, 0) == CardsDrawn(1, 3, ())
    assert public_event(drawn, 1) == drawn


def test_r6_2_your_hand_is_private_the_stock_and_face_down_payoff_hidden_from_all() -> None:
    played = game(
        payoffs=("QS 7D AD", "QH 8C 9C"),
        hands=("AH 2H 5S 6S 7S", "2D 3D 4D JD TD"),
        sides=(("3H",), ("4H",)),
        center=("AC",),
    )
    for seat in (0, 1):
        view = played.observation(seat)
        mine = played.players[seat].hand
        assert sorted(view.hand) == sorted(mine)
        assert Counter(view.visible_cards()) == Counter(mine + cards("AD 9C 3H 4H AC"))
        text = str(view.to_json())
        theirs = "2D 3D 4D JD TD" if seat == 0 else "AH 2H 5S 6S 7S"
        for word in (*theirs.split(), "QS", "7D", "QH", "8C"):
            assert repr(word) not in text
        assert view.stock_count == len(played.stock)


def test_r6_3_observations_carry_legal_moves_only_for_the_seat_to_move() -> None:
    played = game(hands=("AH 2H", "2D 3D"))
    assert played.observation(0).legal_moves == tuple(played.legal_moves())
    assert played.observation(1).legal_moves == ()
    assert played.observation(0).is_my_turn and not played.observation(1).is_my_turn
    with pytest.raises(ValueError):
        played.observation(2)
