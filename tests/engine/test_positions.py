"""Positions in notation: read, written, and refused with a message that says what is wrong."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from spite_malice.engine import Game, NotationError, PositionError, Rules

from .helpers import assert_cards_conserved, game, names, position, stall_move


def test_the_helper_builds_a_full_legal_position() -> None:
    pos = position(hands=("9H", "2D"), stock="2C 3C")
    played = Game.from_position(pos)
    assert_cards_conserved(played)
    assert names(played.stock[-2:]) == "2C 3C"
    tiny = Game.from_position(position(hands=("9H", "2D"), stock="2C 3C", leftovers="side"))
    assert names(tiny.stock) == "2C 3C"
    assert tiny.players[0].side == [[], [], [], []]
    assert sum(len(s) for s in tiny.players[1].side) == 104 - 2 - 2 - 2
    assert_cards_conserved(tiny)
    three = Game.from_position(position(rules=Rules(decks=3), hands=("9H", "2D")))
    assert len(three.stock) == 156 - 4
    with pytest.raises(ValueError, match="too often: AS"):
        position(hands=("AS AS AS", "2D"))


def test_the_notation_md_example_position_is_read_as_written() -> None:
    text = """{
      "rules": {"payoff_size": 20},
      "to_move": 0,
      "stock": ["7H", "2C", "KD"],
      "center": [["AS", "2H", "KD"], [], []],
      "players": [
        {"payoff": ["4C", "9D", "QS"], "hand": ["7H", "KD", "3S", "3H", "JC"],
         "side": [["9C", "8D"], [], [], []]},
        {"payoff": ["5S", "AD"], "hand": ["2D", "6C", "6S", "TH", "QD"],
         "side": [[], [], ["KC"], []]}
      ],
      "score": [0, 0]
    }"""
    # The example is a fragment: it holds 36 cards, not 104, and KD three times.
    with pytest.raises(PositionError, match="KD appears 3 times; 2 decks hold 2"):
        Game.from_position(text)


def test_a_position_round_trips_through_json_text() -> None:
    played = game(
        payoffs=("QS 7D AD", "QH 8C"),
        hands=("AH 2H 5S", "2D 3D 4D"),
        sides=(("TC JC", "", "KC"), ("", "4C")),
        center=("AS 2S KD", "", "AC"),
        stock="5C 6C",
        turn=12,
        to_move=1,
    )
    text = json.dumps(played.to_position())
    again = Game.from_position(text)
    assert again.to_position() == played.to_position()
    assert again.turn == 12 and again.to_move == 1
    assert names(again.center[0]) == "AS 2S KD"
    assert again.center_value(0) == 3  # the King's value follows from its place


def test_lower_case_cards_are_accepted_and_written_upper_case() -> None:
    pos = position(hands=("9H", "2D"))
    lowered = json.loads(json.dumps(pos).lower())
    assert Game.from_position(lowered).to_position() == Game.from_position(pos).to_position()


def test_rules_are_written_only_where_they_differ_from_the_defaults() -> None:
    assert "rules" not in game(hands=("9H", "2D")).to_position()
    rules = Rules(payoff_size=10, center_stacks=4, king_can_start_stack=False)
    pos = game(rules=rules, hands=("9H", "2D")).to_position()
    assert pos["rules"] == {"payoff_size": 10, "center_stacks": 4, "king_can_start_stack": False}
    assert len(pos["center"]) == 4


Mutation = Callable[[dict[str, Any]], object]


def _move_from_stock(pos: dict[str, Any], *cards: str) -> list[str]:
    """Take these cards out of the stock (to put them elsewhere)."""
    return [pos["stock"].pop(pos["stock"].index(card)) for card in cards]


def _empty(player: dict[str, Any], pile: str) -> list[str]:
    """Empty one pile of a player; returns its cards (to put them elsewhere)."""
    cards: list[str] = player[pile]
    player[pile] = []
    return cards


REFUSED: list[tuple[str, Mutation, type[Exception], str]] = [
    (
        "a card too many times",
        lambda p: p["stock"].append("AS"),
        PositionError,
        "invalid position: AS appears 3 times; 2 decks hold 2",
    ),
    (
        "a card missing",
        lambda p: p["stock"].remove("7H"),
        PositionError,
        "invalid position: the position holds 103 cards, not 104; missing: 7H",
    ),
    (
        "the wrong number of decks",
        lambda p: p.update(rules={"decks": 3}),
        PositionError,
        "the position holds 104 cards, not 156; missing: AS 2S",
    ),
    (
        "a stack that skips a rank",
        lambda p: p["center"].__setitem__(0, _move_from_stock(p, "AS", "3S")),
        PositionError,
        "center 1: 3S cannot be card 2 of a stack (that card must be a 2 or a King)",
    ),
    (
        "a stack that does not start with an Ace",
        lambda p: p["center"].__setitem__(2, _move_from_stock(p, "2S")),
        PositionError,
        "center 3: 2S cannot be card 1 of a stack",
    ),
    (
        "a complete stack left on the table",
        lambda p: p["center"].__setitem__(
            0, _move_from_stock(p, *[f"{r}H" for r in "A23456789TJQ"])
        ),
        PositionError,
        "center 1 holds 12 cards; a stack is complete and cleared at 12",
    ),
    (
        "a King starting a stack when the rules forbid it",
        lambda p: (
            p.update(rules={"king_can_start_stack": False}),
            p["center"].__setitem__(0, _move_from_stock(p, "KS", "2S")),
        ),
        PositionError,
        "center 1 starts with a King, which these rules forbid (R3.2)",
    ),
    (
        "a hand over five",
        lambda p: p["players"][1]["hand"].extend(_move_from_stock(p, "2S", "3S", "4S", "5S", "6S")),
        PositionError,
        "player 2's hand holds 7 cards; a hand holds at most 5",
    ),
    (
        "a pay-off pile over its size",
        lambda p: (
            p.update(rules={"payoff_size": 5}),
            p["players"][0]["payoff"].extend(_move_from_stock(p, "AH", "2H", "3H")),
        ),
        PositionError,
        "player 1's pay-off pile holds 6 cards; the rules deal 5",
    ),
    (
        "an empty pay-off pile",
        lambda p: p["stock"].extend(_empty(p["players"][1], "payoff")),
        PositionError,
        "player 2's pay-off pile is empty: that game is already won",
    ),
    (
        "the player to move with an empty hand",
        lambda p: p["stock"].extend(_empty(p["players"][0], "hand")),
        PositionError,
        "player 1 is to move with an empty hand",
    ),
    (
        "an unknown key",
        lambda p: p.update(colour="red"),
        PositionError,
        "unknown key 'colour'; known keys: center, players, rules, score, stock, to_move, turn",
    ),
    (
        "an unknown player key",
        lambda p: p["players"][0].update(discard=[]),
        PositionError,
        "player 1 has an unknown key 'discard'",
    ),
    (
        "a missing player key",
        lambda p: p["players"][1].pop("side"),
        PositionError,
        "player 2 lacks 'side'",
    ),
    (
        "a missing key",
        lambda p: p.pop("stock"),
        PositionError,
        "the key 'stock' is missing",
    ),
    (
        "an unknown rules option",
        lambda p: p.update(rules={"jokers": 2}),
        NotationError,
        "unknown option 'jokers'",
    ),
    (
        "a bad rules value",
        lambda p: p.update(rules={"center_stacks": 5}),
        NotationError,
        "center_stacks must be 3 or 4",
    ),
    (
        "a bad card",
        lambda p: p["stock"].__setitem__(0, "10S"),
        PositionError,
        "stock: invalid card '10S': expected a rank",
    ),
    (
        "a card that is not a string",
        lambda p: p["players"][0]["side"][2].append(5),
        PositionError,
        "player 1's side stack 3: invalid card 5",
    ),
    (
        "three side stacks",
        lambda p: p["players"][0]["side"].pop(),
        PositionError,
        "player 1's side must be a list of 4 side stacks",
    ),
    (
        "four center stacks under the standard rules",
        lambda p: p["center"].append([]),
        PositionError,
        "center must be a list of 3 center stacks",
    ),
    (
        "three players",
        lambda p: p["players"].append(p["players"][0]),
        PositionError,
        "players must be a list of 2 players",
    ),
    ("to_move 2", lambda p: p.update(to_move=2), PositionError, "to_move must be 0 or 1, not 2"),
    (
        "to_move true",
        lambda p: p.update(to_move=True),
        PositionError,
        "to_move must be 0 or 1, not True",
    ),
    (
        "to_move 1.0",
        lambda p: p.update(to_move=1.0),
        PositionError,
        "to_move must be 0 or 1, not 1.0",
    ),
    ("turn 0", lambda p: p.update(turn=0), PositionError, "turn must be a whole number"),
    (
        "a bad score",
        lambda p: p.update(score=[1, -2]),
        PositionError,
        "score must be two whole numbers of points, not [1, -2]",
    ),
    (
        "a stock that is not a list",
        lambda p: p.update(stock="AS 2S"),
        PositionError,
        'stock must be a list of cards such as ["AS", "TD"]',
    ),
]


@pytest.mark.parametrize(
    ("mutate", "error", "message"),
    [case[1:] for case in REFUSED],
    ids=[case[0] for case in REFUSED],
)
def test_a_position_that_breaks_the_rules_is_refused_saying_why(
    mutate: Mutation, error: type[Exception], message: str
) -> None:
    pos = position(payoffs=("QS 4D 5D", "QH 6D"), hands=("9H 8H", "2D 3D"))
    Game.from_position(copy.deepcopy(pos))  # sound before the change
    mutate(pos)
    with pytest.raises(error) as caught:
        Game.from_position(pos)
    assert message in str(caught.value)
    with pytest.raises(error):
        Game.from_position(json.dumps(pos))


def test_a_position_that_is_not_json_is_refused() -> None:
    with pytest.raises(NotationError, match=r"invalid position '\{\"to_move\": 0,': not JSON"):
        Game.from_position('{"to_move": 0,')
    with pytest.raises(NotationError, match="expected a JSON object"):
        Game.from_position("[1, 2]")
    with pytest.raises(NotationError, match="expected a JSON object"):
        Game.from_position(None)  # type: ignore[arg-type]


def test_a_long_bad_text_is_shortened_in_the_message() -> None:
    with pytest.raises(NotationError) as caught:
        Game.from_position("x" * 500)
    assert len(str(caught.value)) < 200


def test_a_position_is_a_decision_point_mid_turn_hands_may_be_short() -> None:
    played = game(hands=("9H", "2D"), stock="2C")
    assert played.legal_moves()
    assert len(played.players[0].hand) == 1


def test_a_position_score_is_checked() -> None:
    pos = position(hands=("9H", "2D"))
    pos["score"] = [12, 30]
    Game.from_position(pos)  # a valid score is accepted
    pos["score"] = [12]
    with pytest.raises(PositionError, match="score must be two whole numbers"):
        Game.from_position(pos)


def test_a_position_with_a_score_round_trips() -> None:
    pos = position(hands=("9H", "2D"))
    pos["score"] = [12, 30]
    assert Game.from_position(pos).to_position()["score"] == [12, 30]


# ------------------------------------------------------------ what a position's turn implies

FULL_PAYOFFS = ("2S 3S 4S 5S 6S", "2H 3H 4H 5H 6H")
SMALL = Rules(payoff_size=5)


def _turn_1(**piles: Any) -> dict[str, Any]:
    """A turn-1 position under 5-card pay-off piles: both piles full, five cards a hand."""
    args: dict[str, Any] = {
        "rules": SMALL,
        "payoffs": FULL_PAYOFFS,
        "hands": ("AH 7C 8C 9C TC", "2D 3D 4D 5D 6D"),
        "turn": 1,
    }
    args.update(piles)
    return position(**args)


def test_turn_1_is_the_deal_and_the_first_players_turn_so_far() -> None:
    """At turn 1 no turn has ended (R2.3): no side stack holds a card, and the player not to
    move still has the 5-card hand and the full pay-off pile of the deal (R1.2)."""
    Game.from_position(_turn_1())
    # The player to move may already have built, from the pay-off pile and the hand, and
    # refilled an emptied hand (R3.4(c)): their pile and hand may be short, the center full.
    Game.from_position(
        _turn_1(payoffs=("2S 3S", FULL_PAYOFFS[1]), hands=("7C", "2D 3D 4D 5D 6D"), center=("AS",))
    )
    refused = [
        (_turn_1(sides=(("KC",), ())), "player 1's side stacks hold 1 cards"),
        (_turn_1(sides=((), ("KC",))), "player 2's side stacks hold 1 cards"),
        (
            _turn_1(payoffs=(FULL_PAYOFFS[0], "2H 3H 4H 5H")),
            "at turn 1 player 2 has not played, so their pay-off pile holds 5 cards, not 4",
        ),
        (
            _turn_1(hands=("AH 7C 8C 9C TC", "2D 3D 4D 5D")),
            "at turn 1 player 2 has not played, so their hand holds 5 cards, not 4",
        ),
    ]
    for pos, message in refused:
        with pytest.raises(PositionError, match=re.escape(message)):
            Game.from_position(pos)
        with pytest.raises(PositionError):
            Game.from_position(json.dumps(pos))


def test_r2_3_after_turn_1_the_player_not_to_move_holds_at_most_4_cards() -> None:
    """Their turn ended with a discard from a hand of at most 5 (R2.1, R2.3)."""
    fine = position(hands=("9H 8H", "2D 3D 4D 5D"), turn=7)
    Game.from_position(fine)
    five = position(hands=("9H 8H", "2D 3D 4D 5D 6D"), turn=7)
    with pytest.raises(
        PositionError,
        match="at turn 7 player 2 holds 5 cards, but their turn ended with a discard, "
        "after which a hand holds at most 4",
    ):
        Game.from_position(five)
    Game.from_position(position(hands=("9H 8H", ""), turn=2))  # a discard may empty the hand


def test_r3_3_a_side_stack_card_needs_a_discard_of_its_own() -> None:
    """By turn t, turns 1 to t-1 have each ended with one discard, the players taking turns:
    the player not to move made t // 2 of them, the player to move (t - 1) // 2."""
    hands = ("9H 8H", "2D 3D 4D")
    Game.from_position(position(hands=hands, sides=((), ("KC",)), turn=2))
    with pytest.raises(PositionError, match="player 1's side stacks hold 1 cards, but by turn 2"):
        Game.from_position(position(hands=hands, sides=(("KC",), ()), turn=2))
    with pytest.raises(PositionError, match="player 2's side stacks hold 2 cards, but by turn 2"):
        Game.from_position(position(hands=hands, sides=((), ("KC", "KD")), turn=2))
    Game.from_position(position(hands=hands, sides=(("KS",), ("KC",)), turn=3))
    Game.from_position(position(hands=hands, sides=(("KS", "KH"), ("KC", "KD", "QD")), turn=6))
    with pytest.raises(PositionError, match="player 1's side stacks hold 3 cards, but by turn 6"):
        Game.from_position(position(hands=hands, sides=(("KS", "KH", "QC"), ("KC", "KD")), turn=6))
    # The same rules from player 2's side of the table.
    Game.from_position(position(hands=("2D 3D 4D", "9H"), sides=(("KC",), ()), to_move=1, turn=2))
    with pytest.raises(PositionError, match="player 2's side stacks hold 1 cards, but by turn 2"):
        Game.from_position(
            position(hands=("2D 3D 4D", "9H"), sides=((), ("KC",)), to_move=1, turn=2)
        )


def test_a_position_without_turn_is_a_set_up_one_whose_history_is_not_checked() -> None:
    """Positions for tests, puzzles and bug reports leave ``turn`` out: any cards anywhere
    that the rules allow at some decision point, counted from turn 1 for R4.3."""
    pos = position(hands=("9H 8H", "2D 3D 4D 5D 6D"), sides=(("KS",), ("KC",)), center=("AS",))
    assert "turn" not in pos
    assert Game.from_position(pos).turn == 1
    pos["turn"] = 1
    with pytest.raises(PositionError, match="at turn 1 player 2 has not played"):
        Game.from_position(pos)


def test_every_position_reached_by_play_is_accepted_with_its_turn() -> None:
    """The checks of the turn refuse nothing that a game can reach: every decision point of
    a few whole games, written with its turn, reads back as the same position."""
    from spite_malice.bots.reference import reference_move

    policies = [reference_move] * 10 + [stall_move] * 2  # stalling fills the side stacks
    for seed, policy in enumerate(policies):
        rules = Rules.QUICK if seed % 2 else Rules.STANDARD
        played = Game.new(seed, rules)
        while not played.is_over:
            pos = played.to_position()
            pos["turn"] = played.turn
            again = Game.from_position(pos)
            assert again.to_position() == played.to_position()
            played.apply(policy(played))


def test_r5_1_a_score_that_reached_the_match_target_is_refused() -> None:
    """Reaching the target ends the match (R5.1): no game of it is played at that score."""
    pos = position(hands=("9H", "2D"))
    pos["score"] = [49, 0]
    Game.from_position(pos)
    for score in ([50, 0], [3, 50], [51, 7], [10**5000, 0]):
        pos["score"] = score
        with pytest.raises(PositionError, match="reached the match target of 50"):
            Game.from_position(pos)
    pos = position(rules=Rules(match_target=10), hands=("9H", "2D"))
    pos["score"] = [9, 9]
    Game.from_position(pos)
    pos["score"] = [10, 0]
    with pytest.raises(PositionError, match="reached the match target of 10: that match is over"):
        Game.from_position(pos)


def test_a_game_played_on_from_a_set_up_position_always_reads_back() -> None:
    """A set-up position may hold more side stack cards than its turns could explain; once
    played on, it is written without its turn rather than as a position that is refused."""
    played = game(hands=("9H 8H", "2D 3D 4D"), sides=(("KS", "KH"), ("KC",)))
    played.play("H9-S1")
    assert played.turn == 2
    pos = played.to_position()
    assert "turn" not in pos  # player 1's three side cards cannot be there by turn 2
    assert Game.from_position(pos).to_position() == pos
    dealt = Game.new(4)
    while dealt.turn < 9:
        dealt.play(next(m for m in dealt.legal_moves() if m.is_discard))
    assert dealt.to_position()["turn"] == 9  # a dealt game's turn is always written
