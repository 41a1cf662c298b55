"""Hints: the best turn for the seat to move, with a reason a player understands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spite_malice.bots import hint
from spite_malice.bots.hints import Hint
from spite_malice.cli import main
from spite_malice.engine import Game

from .positions import position

REACHABLE = position(
    payoffs=(["2C", "3C", "7D"], ["4H", "5H", "6H", "7H", "8H", "3H"]),
    hands=(["KS", "9H", "9D", "2S", "3S"], ["AH", "5D", "6D", "QC", "JC"]),
    center=[["AS", "2H", "3D", "4C", "5S"], [], []],
)


def test_hint_reaches_the_payoff_card_with_the_king() -> None:
    game = Game.from_position(REACHABLE, seed=1)
    advice = hint(game.observation(0))
    assert isinstance(advice, Hint)
    moves = [str(m) for m in advice.moves]
    assert moves.index("HK-C1") < moves.index("P-C1")
    assert advice.moves[-1].is_discard
    assert "pay-off Seven" in advice.reason
    assert "King as a six" in advice.reason
    for move in advice.moves:  # the whole hint is legal in the real game
        game.play(move)
    assert game.to_move == 1


def test_hint_finds_a_bridge_through_side_stacks() -> None:
    game = Game.from_position(
        position(
            payoffs=(["2C", "3C", "9D"], ["4H", "5H", "6H", "7H", "8H", "3H"]),
            hands=(["6S", "QH", "QD", "2S", "3S"], ["AH", "5D", "6D", "QC", "JC"]),
            sides=([["8H"], ["7C"], [], []], [[], [], [], []]),
            center=[["AS", "2H", "3D", "4C", "5S"], [], []],
        ),
        seed=1,
    )
    advice = hint(game.observation(0))
    assert [str(m) for m in advice.moves[:4]] == ["H6-C1", "S2-C1", "S1-C1", "P-C1"]
    assert "pay-off Nine" in advice.reason


def test_hint_wins_when_it_can() -> None:
    game = Game.from_position(
        position(
            payoffs=(["7D"], ["4H", "9S"]),
            hands=(["KS", "9H", "9D", "4S", "5S"], ["AH", "5D", "6D", "QC", "JC"]),
            center=[["AS", "2H", "3D"], [], []],
        ),
        seed=1,
    )
    advice = hint(game.observation(0))
    assert str(advice.moves[-1]) == "P-C1"
    assert advice.reason.startswith("wins the game")


def test_hint_is_the_same_for_the_same_seed() -> None:
    game = Game.new(12)
    observation = game.observation(game.to_move)
    assert hint(observation, seed=3) == hint(observation, seed=3)


def test_hint_is_only_for_the_seat_to_move() -> None:
    game = Game.from_position(REACHABLE, seed=1)
    with pytest.raises(ValueError, match="seat to move"):
        hint(game.observation(1))


def test_cli_hint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(REACHABLE), encoding="utf-8")
    assert main(["hint", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "HK-C1" in out[0] and "P-C1" in out[0]
    assert "pay-off Seven" in out[1]


def test_hint_keeps_a_center_away_from_the_opponents_card() -> None:
    game = Game.from_position(
        position(
            payoffs=(["2C", "3C", "QD"], ["4H", "5H", "6H", "7H", "8H", "9S"]),
            hands=(["8S", "3H", "5D", "2S", "4S"], ["AH", "5C", "6D", "QC", "JC"]),
            center=[["AD", "2H", "3D", "4C", "5S"], ["AC", "2D", "3S", "4D", "5C", "6H", "7S"], []],
        ),
        seed=1,
    )
    advice = hint(game.observation(0))
    assert "H8-C2" not in [str(m) for m in advice.moves]
    assert "keeps center 2 away from the Nine your opponent needs" in advice.reason
