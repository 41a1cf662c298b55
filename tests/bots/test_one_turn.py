"""The frozen one-turn baselines ``blocker-1`` and ``nonblocker-1`` (bots/one_turn.py).

What they do, on positions set up by hand, and that they stay frozen: ``golden_one_turn.json``
holds games each played against ``hard-1`` (itself frozen) when they were written, on deals
31 to 33 (the baseline seeded ``2 * deal`` in seat 0, ``hard-1`` seeded ``2 * deal + 1``);
every move is replayed. It must never be re-recorded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spite_malice.bot_registry import make_bot
from spite_malice.bots.base import Bot
from spite_malice.bots.one_turn import OneTurnBot
from spite_malice.engine import Game

from .positions import position

GOLDEN: dict[str, Any] = json.loads(
    (Path(__file__).parent / "golden_one_turn.json").read_text(encoding="utf-8")
)
BASELINES = ("blocker-1", "nonblocker-1")
EMPTY_SIDES: list[list[str]] = [[], [], [], []]


def first_move(name: str, **setup: Any) -> str:
    game = Game.from_position(position(**setup), seed=1)
    bot = make_bot(name, 1)
    bot.new_game(0)
    return str(bot.choose(game.observation(0)))


def replay(bots: tuple[Bot, Bot], record: dict[str, Any]) -> None:
    game = Game.new(record["seed"])
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    for number, move_text in enumerate(record["moves"]):
        move = bots[game.to_move].choose(game.observation(game.to_move))
        assert str(move) == move_text, f"move {number} of deal {record['seed']}"
        game.play(move)
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.points) == (record["winner"], record["points"])


@pytest.mark.parametrize("name", BASELINES)
def test_baseline_by_name(name: str) -> None:
    bot = make_bot(name, 3)
    assert isinstance(bot, OneTurnBot)
    assert bot.blocks == (name == "blocker-1")
    assert bot.name == {"blocker-1": "Blocker-1", "nonblocker-1": "Nonblocker-1"}[name]


@pytest.mark.parametrize("name", BASELINES)
def test_plays_its_payoff_card_through_a_bridge_without_a_king(name: str) -> None:
    # R3.1: the 2 (or the King) on the Ace makes the pay-off 3 fit; the 2 keeps the King
    move = first_move(
        name,
        payoffs=(["9C", "3C"], ["4H", "QS"]),
        hands=(["KS", "2H", "9D", "JS", "JD"], ["AH", "5D", "6D", "QC", "JC"]),
        center=[["AS"], [], []],
    )
    assert move == "H2-C1"


@pytest.mark.parametrize("name", BASELINES)
def test_plays_its_payoff_card_when_it_fits(name: str) -> None:
    move = first_move(
        name,
        payoffs=(["9C", "4C"], ["4H", "5S"]),
        hands=(["9H", "9D", "JS", "JD", "QD"], ["AH", "5D", "6D", "QC", "JC"]),
        center=[["AS", "2S", "3S"], [], []],
    )
    assert move == "P-C1"


@pytest.mark.parametrize(("name", "expected"), [("blocker-1", "H5-C1"), ("nonblocker-1", "H5-C1")])
def test_builds_past_a_stack_the_opponents_payoff_card_fits(name: str, expected: str) -> None:
    # the opponent's 5 fits the 4 on center stack 1; building the 5 takes the place away
    move = first_move(
        name,
        payoffs=(["9C", "QC"], ["4H", "5S"]),
        hands=(["5H", "9D", "JS", "JD", "QD"], ["AH", "5D", "6D", "QC", "JC"]),
        center=[["AS", "2S", "3S", "4S"], [], []],
    )
    assert move == expected


def test_only_the_blocker_refuses_to_feed_through_the_opponents_side_stacks() -> None:
    # building its last card, the 3, would empty its hand for five new ones (R3.4(c)), but a
    # 3 on the 2 lets the opponent build its side-stack 4 and then its pay-off 5
    setup: dict[str, Any] = {
        "payoffs": (["9C", "QC"], ["4H", "5S"]),
        "hands": (["3H"], ["AH", "5D", "6D", "QC", "JC"]),
        "sides": (EMPTY_SIDES, [["4D"], [], [], []]),
        "center": [["AS", "2S"], [], []],
    }
    assert first_move("nonblocker-1", **setup) == "H3-C1"
    assert first_move("blocker-1", **setup) == "H3-S1"  # it discards instead
    without_side = {**setup, "sides": (EMPTY_SIDES, EMPTY_SIDES)}
    assert first_move("blocker-1", **without_side) == "H3-C1"


def test_the_blocker_keeps_its_cards_without_a_reason_to_build() -> None:
    # the 2 fits the Ace but leads nowhere (pay-off Queen, no refill, nothing to block)
    setup: dict[str, Any] = {
        "payoffs": (["9C", "QC"], ["4H", "JS"]),
        "hands": (["2H", "9D", "JD", "QD", "8D"], ["AH", "5D", "6D", "QC", "JC"]),
        "center": [["AS"], [], []],
    }
    assert first_move("nonblocker-1", **setup) == "H2-C1"
    assert first_move("blocker-1", **setup) == "HQ-S1"  # the highest card, on an empty stack


@pytest.mark.parametrize("name", BASELINES)
def test_keeps_its_kings(name: str) -> None:
    # a King could start a center stack (R3.2) but leads nowhere; the 9 is discarded (R3.3)
    move = first_move(
        name,
        payoffs=(["9C", "QC"], ["4H", "JS"]),
        hands=(["KH", "KD", "KS", "KC", "9D"], ["AH", "5D", "6D", "QC", "JC"]),
    )
    assert move == "H9-S1"


@pytest.mark.parametrize("record", GOLDEN["blocker-1"], ids=lambda r: f"deal {r['seed']}")
def test_blocker_1_plays_the_recorded_games(record: dict[str, Any]) -> None:
    seed = record["seed"]
    replay((make_bot("blocker-1", 2 * seed), make_bot("hard-1", 2 * seed + 1)), record)


@pytest.mark.parametrize("record", GOLDEN["nonblocker-1"], ids=lambda r: f"deal {r['seed']}")
def test_nonblocker_1_plays_the_recorded_games(record: dict[str, Any]) -> None:
    seed = record["seed"]
    replay((make_bot("nonblocker-1", 2 * seed), make_bot("hard-1", 2 * seed + 1)), record)
