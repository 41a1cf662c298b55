"""Errors: one hierarchy; messages that quote the input and give the reason; no harm done."""

from __future__ import annotations

import pytest

from spite_malice import (
    GameOverError,
    IllegalMoveError,
    NotationError,
    PositionError,
    SpiteMaliceError,
)
from spite_malice.engine import ALL_MOVES, Game, Move, Rules, move_at, parse_card, parse_move

from .helpers import game, snapshot


def test_errors_derive_from_one_base_error() -> None:
    for error in (NotationError, IllegalMoveError, PositionError, GameOverError):
        assert issubclass(error, SpiteMaliceError)
    assert not issubclass(NotationError, IllegalMoveError)
    assert not issubclass(IllegalMoveError, NotationError)
    played = game(hands=("7H", "2D"), center=("", "AS 2S 3S"))
    with pytest.raises(SpiteMaliceError):
        played.play("H7-C2")
    with pytest.raises(SpiteMaliceError):
        played.play("H7-X2")


def test_an_illegal_move_message_quotes_the_move_and_gives_the_reason() -> None:
    played = game(hands=("7H 2C", "2D"), center=("", "AS 2S 3S"))
    with pytest.raises(IllegalMoveError) as caught:
        played.play("H7-C2")
    assert str(caught.value) == "illegal move 'H7-C2': center 2 needs a 4"
    assert caught.value.reason == "center 2 needs a 4"
    assert str(caught.value.move) == "H7-C2"


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("H7-C1", "illegal move 'H7-C1': center 1 needs an Ace"),
        ("H2-C3", "illegal move 'H2-C3': center 3 needs a 9"),
        ("H8-C1", "illegal move 'H8-C1': there is no 8 in your hand"),
        ("HK-S1", "illegal move 'HK-S1': there is no King in your hand"),
        ("S2-C1", "illegal move 'S2-C1': side stack 2 is empty"),
        ("S1-C2", "illegal move 'S1-C2': center 2 needs a 4"),
        ("H7-C4", "illegal move 'H7-C4': there are only 3 center stacks"),
        ("P-C1", "illegal move 'P-C1': center 1 needs an Ace"),
        ("P-S1", "illegal move 'P-S1': a pay-off card may only be built on a center stack (R3.5)"),
        ("S1-S2", "illegal move 'S1-S2': a card never moves from one side stack to another (R3.5)"),
        ("h7-c2", "illegal move 'h7-c2': center 2 needs a 4"),
    ],
)
def test_each_illegal_move_says_why(move: str, message: str) -> None:
    played = game(
        payoffs=("QS 5D", "QH"),
        hands=("7H 2C", "2D"),
        sides=(("9C",), ()),
        center=("", "AS 2S 3S", "AD 2D 3D 4D 5D 6D 7D 8D"),
    )
    before = snapshot(played)
    with pytest.raises(IllegalMoveError) as caught:
        played.play(move)
    assert str(caught.value) == message
    assert snapshot(played) == before
    assert played.why_illegal(parse_move(move)) == caught.value.reason
    assert not played.is_legal(move)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("H10-C1", "a hand source names its rank: write HT for a 10"),
        ("X7-C1", "unknown source 'X7'"),
        ("H7-C9", "unknown target 'C9'"),
        ("H7C1", "expected SOURCE-TARGET"),
        ("", "expected SOURCE-TARGET"),
        ("H7-C1-C2", "unknown target 'C1-C2'"),
    ],
)
def test_a_notation_error_quotes_the_text_and_says_what_was_expected(
    text: str, reason: str
) -> None:
    played = game(hands=("7H", "2D"))
    before = snapshot(played)
    with pytest.raises(NotationError) as caught:
        played.play(text)
    assert str(caught.value).startswith(f"invalid move {text!r}: ")
    assert reason in str(caught.value)
    assert snapshot(played) == before


def test_a_card_notation_error_quotes_the_text() -> None:
    for text in ("1S", "AX", "ASS", "", "10H"):
        with pytest.raises(NotationError, match=f"invalid card {text!r}: expected a rank"):
            parse_card(text)
    with pytest.raises(NotationError, match="invalid card 7: expected a string"):
        parse_card(7)  # type: ignore[arg-type]


def test_no_illegal_move_of_the_whole_move_space_changes_the_game() -> None:
    """Try every one of the 144 moves in a few positions: the illegal ones change nothing."""
    positions = [
        game(
            payoffs=("QS 5D", "QH"),
            hands=("7H 2C KS", "2D"),
            sides=(("9C", "", "AC"), ()),
            center=("", "AS 2S 3S", "AD 2D 3D 4D 5D 6D 7D 8D"),
        ),
        game(rules=Rules(king_can_start_stack=False, center_stacks=4), hands=("KH", "2D")),
        Game.new(seed=11),
    ]
    for played in positions:
        legal = set(played.legal_moves())
        for move in ALL_MOVES:
            if move in legal:
                continue
            before = snapshot(played)
            with pytest.raises(IllegalMoveError) as caught:
                played.play(move)
            assert caught.value.reason
            assert str(caught.value).startswith(f"illegal move '{move}': ")
            assert snapshot(played) == before
        assert legal  # and the legal ones are accepted, each on a fresh copy
        for move in legal:
            played.copy().play(move)


def test_a_finished_game_refuses_every_move() -> None:
    played = game(payoffs=("AH", "QH"), hands=("9H", "2D"))
    played.play("P-C1")
    before = snapshot(played)
    with pytest.raises(GameOverError, match="illegal move 'H9-S1': the game is over"):
        played.play("H9-S1")
    with pytest.raises(NotationError):
        played.play("nonsense")
    assert played.why_illegal(parse_move("H9-S1")) == "the game is over"
    assert snapshot(played) == before


def test_play_returns_the_move_and_accepts_move_objects() -> None:
    played = game(hands=("AH 2H", "2D"))
    assert played.play(Move.build_from_hand(1, 0)) is parse_move("HA-C1")
    assert played.play(" h2-c1 ") is parse_move("H2-C1")
    assert [str(m) for m in played.moves] == ["HA-C1", "H2-C1"]


def test_assert_is_not_used_for_caller_input() -> None:
    """Bad caller input raises the engine's errors (or ValueError), never AssertionError."""
    played = game(hands=("AH", "2D"))
    for bad in (None, 3, b"HA-C1", ["HA-C1"]):
        with pytest.raises(NotationError):
            played.play(bad)  # type: ignore[arg-type]
    for first in (2, 1.0, True):
        with pytest.raises(ValueError, match="first must be 0, 1 or None"):
            Game.new(seed=1, first=first)  # type: ignore[arg-type]
    for seed in ("abc", 1.5, True):
        # R1.1: the seed is recorded, and a record holds a whole number
        with pytest.raises(ValueError, match="seed must be a whole number"):
            Game.new(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no move has index 144"):
        move_at(144)
    with pytest.raises(ValueError, match="no move has index -1"):
        move_at(-1)
