"""The shipped Expert plays recorded games move for move, so that a change meant only to make
its search faster (the planner, the evaluation, the rollouts) cannot change what it chooses.

``golden_expert.json`` holds the first 150 moves of two games of the shipped Expert (24
samples, a budget that always reaches them) against the shipped Hard, as commit
``recorded_at`` played them: deal 21 with Expert in seat 0 and deal 22 with Expert in seat 1,
Expert seeded ``2 * deal`` and Hard ``2 * deal + 1``. Re-record it (``python -m
tests.bots.test_expert_golden``) only when Expert's play is meant to change, and say so in the
commit.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from spite_malice.bot_registry import make_bot
from spite_malice.bots import Bot, ExpertBot
from spite_malice.bots.planning import _build, _targets, center_moves
from spite_malice.engine import Game
from spite_malice.engine.cards import KING, QUEEN

PATH = Path(__file__).parent / "golden_expert.json"
MOVES = 150


def players(seed: int, expert_seat: int) -> tuple[Bot, Bot]:
    expert = ExpertBot(2 * seed, 600.0, max_samples=24)
    hard = make_bot("hard", 2 * seed + 1)
    return (expert, hard) if expert_seat == 0 else (hard, expert)


def play(seed: int, expert_seat: int, moves: int = MOVES) -> list[str]:
    """The first ``moves`` moves of the deal, as the shipped bots play them."""
    game = Game.new(seed)
    bots = players(seed, expert_seat)
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    played: list[str] = []
    while game.outcome is None and len(played) < moves:
        move = bots[game.to_move].choose(game.observation(game.to_move))
        played.append(str(move))
        game.play(move)
    return played


GOLDEN: dict[str, Any] = json.loads(PATH.read_text(encoding="utf-8"))


@pytest.mark.parametrize("record", GOLDEN["expert"], ids=lambda r: f"deal {r['seed']}")
def test_expert_plays_the_recorded_moves(record: dict[str, Any]) -> None:
    game = Game.new(record["seed"])
    bots = players(record["seed"], record["expert_seat"])
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    for number, move_text in enumerate(record["moves"]):
        move = bots[game.to_move].choose(game.observation(game.to_move))
        assert str(move) == move_text, f"move {number} of deal {record['seed']}"
        game.play(move)


def test_center_moves_are_the_builds_of_each_rank() -> None:
    """The planner's remembered builds of a set of center stacks are those it would work
    out: for each rank, each distinct stack that takes it (R3.1, R3.2: a King on any stack,
    on an empty one only if the rules let it start one) and the stacks after the build (a
    complete stack cleared, R3.4(b))."""
    rng = random.Random(18)
    for _ in range(500):
        center = tuple(rng.randrange(QUEEN) for _ in range(4))
        king_can_start = rng.random() < 0.5
        order, builds = center_moves(center, king_can_start)
        assert order == tuple(sorted(center))
        assert builds[0] == ()
        for rank in range(1, KING + 1):
            want = [
                (i, _build(center, i), tuple(sorted(_build(center, i))))
                for i in _targets(center, rank, king_can_start)
            ]
            assert list(builds[rank]) == want
    assert center_moves((0, 0, 0, 0), False)[1][KING] == ()
    assert center_moves((0, 0, 0, 0), True)[1][KING] == ((0, (1, 0, 0, 0), (0, 0, 0, 1)),)
    assert center_moves((11, 3, 0, 3), False)[1][QUEEN] == ((0, (0, 3, 0, 3), (0, 0, 3, 3)),)


if __name__ == "__main__":  # re-record: only for a deliberate change of Expert's play
    import subprocess

    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    records = [
        {"seed": seed, "expert_seat": seat, "moves": play(seed, seat)}
        for seed, seat in ((21, 0), (22, 1))
    ]
    PATH.write_text(json.dumps({"recorded_at": commit, "expert": records}, indent=1) + "\n")
    sys.exit(0)
