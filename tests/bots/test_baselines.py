"""The frozen baselines ``hard-1`` and ``expert-1`` play exactly as Hard and Expert did when
issue 18 began (commit eb6d63a): games recorded then are replayed move by move.

``golden_baselines.json`` was written by the Hard and Expert of that commit (Hard against
Hard on deals 11 to 13; Expert, 24 samples with a budget that always reaches them, against
Hard on deal 21; bots seeded ``2 * deal`` and ``2 * deal + 1``). It must never be re-recorded:
it is what "frozen" means.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spite_malice.bot_registry import make_bot
from spite_malice.bots import Bot
from spite_malice.bots.baselines import Expert1Bot, Hard1Bot
from spite_malice.engine import Game

GOLDEN: dict[str, Any] = json.loads(
    (Path(__file__).parent / "golden_baselines.json").read_text(encoding="utf-8")
)


def replay(bots: tuple[Bot, Bot], record: dict[str, Any], moves: int | None = None) -> None:
    """Play the recorded deal with ``bots`` and check each move against the record."""
    game = Game.new(record["seed"])
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    expected = record["moves"] if moves is None else record["moves"][:moves]
    for number, move_text in enumerate(expected):
        move = bots[game.to_move].choose(game.observation(game.to_move))
        assert str(move) == move_text, f"move {number} of deal {record['seed']}"
        game.play(move)
    if moves is None:
        assert game.outcome is not None
        assert (game.outcome.winner, game.outcome.points) == (record["winner"], record["points"])


@pytest.mark.parametrize("record", GOLDEN["hard"], ids=lambda r: f"deal {r['seed']}")
def test_hard_1_plays_the_recorded_games(record: dict[str, Any]) -> None:
    seed = record["seed"]
    replay((make_bot("hard-1", 2 * seed), make_bot("hard-1", 2 * seed + 1)), record)


def test_expert_1_plays_the_recorded_opening() -> None:
    record = GOLDEN["expert"][0]
    seed = record["seed"]
    expert = Expert1Bot(2 * seed, 600.0, max_samples=24)
    replay((expert, Hard1Bot(2 * seed + 1)), record, moves=200)


@pytest.mark.slow
def test_expert_1_plays_the_recorded_game() -> None:
    record = GOLDEN["expert"][0]
    seed = record["seed"]
    replay((Expert1Bot(2 * seed, 600.0), Hard1Bot(2 * seed + 1)), record)


def test_baselines_by_name() -> None:
    hard = make_bot("hard-1", 1)
    assert isinstance(hard, Hard1Bot)
    assert hard.name == "Hard-1"
    expert = make_bot("expert-1", 1)
    assert isinstance(expert, Expert1Bot)
    assert (expert.budget, expert.max_samples) == (1.0, 24)
    quick = make_bot("expert-1:0.25:8", 1)
    assert isinstance(quick, Expert1Bot)
    assert (quick.budget, quick.max_samples) == (0.25, 8)
    with pytest.raises(ValueError, match="expert-1:SECONDS"):
        make_bot("expert-1:fast")
