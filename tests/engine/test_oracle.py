"""The engine against an independent, deliberately naive model of the rules.

The model works on the position JSON of notation.md (cards as text) and is written straight
from rules.md, sharing no code with the engine. In many positions from self-play games,
every legal move is tried on a copy of the game and the result compared with the model's.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from spite_malice.bots.reference import reference_move
from spite_malice.engine import Game, Move, Rules

RANK = {r: i for i, r in enumerate("A23456789TJQK", start=1)}


def model_legal_moves(pos: dict[str, Any]) -> set[str]:
    """R3.1-R3.3, read off the position: builds of the three sources, and discards."""
    king_start = pos.get("rules", {}).get("king_can_start_stack", True)
    me = pos["players"][pos["to_move"]]
    values = [len(stack) for stack in pos["center"]]
    sources = [("P", me["payoff"][-1])] if me["payoff"] else []
    sources += [("H" + card[0], card) for card in me["hand"]]
    sources += [(f"S{i}", pile[-1]) for i, pile in enumerate(me["side"], start=1) if pile]
    moves = set()
    for name, card in sources:
        for number, value in enumerate(values, start=1):
            rank = RANK[card[0]]
            if (rank == 13 and (value > 0 or king_start)) or rank == value + 1:
                moves.add(f"{name}-C{number}")
    for card in me["hand"]:
        moves.update(f"H{card[0]}-S{i}" for i in range(1, 5))
    return moves


def model_play(pos: dict[str, Any], move: str) -> tuple[dict[str, Any], Any, bool]:
    """The position after ``move``, the outcome (None, ("won", seat, points) or ("drawn",
    reason)), and whether the stock was shuffled (then its order is unknown)."""
    pos = copy.deepcopy(pos)
    seat = pos["to_move"]
    me = pos["players"][seat]
    stock = pos["stock"]
    source, target = move.split("-")

    def draw(player: dict[str, Any], count: int) -> bool:
        for _ in range(count):
            if not stock:
                return False  # R4.2
            player["hand"].append(stock.pop())
        return True

    if source == "P":
        card = me["payoff"].pop()
    elif source.startswith("H"):
        card = next(c for c in me["hand"] if c[0] == source[1])
        me["hand"].remove(card)
    else:
        card = me["side"][int(source[1]) - 1].pop()
    if target.startswith("S"):  # R3.3: discard, the turn ends
        me["side"][int(target[1]) - 1].append(card)
        turn = pos.get("turn", 1)
        if turn >= 1000:
            return pos, ("drawn", "turn limit"), False
        pos["turn"] = turn + 1
        pos["to_move"] = 1 - seat
        other = pos["players"][1 - seat]
        if not draw(other, 5 - len(other["hand"])):
            return pos, ("drawn", "stock"), False
        return pos, None, False
    stack = pos["center"][int(target[1]) - 1]
    stack.append(card)
    if source == "P" and not me["payoff"]:  # R3.4(a)
        return pos, ("won", seat, len(pos["players"][1 - seat]["payoff"])), False
    shuffled = False
    if len(stack) == 12:  # R3.4(b)
        stock[:0] = stack
        stack.clear()
        shuffled = True
    if not me["hand"] and not draw(me, 5):  # R3.4(c)
        return pos, ("drawn", "stock"), shuffled
    return pos, None, shuffled


def _outcome(game: Game) -> Any:
    if game.outcome is None:
        return None
    if game.outcome.winner is None:
        return ("drawn", "stock" if "stock" in game.outcome.reason else "turn limit")
    return ("won", game.outcome.winner, game.outcome.points)


def _compare(game: Game, before: dict[str, Any], move: Move) -> None:
    want, outcome, shuffled = model_play(before, str(move))
    got = game.to_position()
    assert _outcome(game) == outcome, (before, str(move))
    if "turn" not in want:
        want["turn"] = 1
    got.setdefault("turn", 1)
    if not shuffled:
        assert got == want, (before, str(move))
        return
    # A completed stack shuffled the stock: the order of the stock (and so which cards a
    # refill drew) is unknown; everything else is known.
    for key in ("to_move", "center", "turn"):
        assert got[key] == want[key]
    for mine, theirs in zip(got["players"], want["players"], strict=True):
        assert mine["payoff"] == theirs["payoff"] and mine["side"] == theirs["side"]
        assert len(mine["hand"]) == len(theirs["hand"])
    assert len(got["stock"]) == len(want["stock"])
    pool = [c for p in got["players"] for c in p["hand"]] + got["stock"]
    expected_pool = [c for p in want["players"] for c in p["hand"]] + want["stock"]
    assert Counter(pool) == Counter(expected_pool)


def test_the_engine_agrees_with_a_naive_model_of_the_rules(varied_rules: Rules) -> None:
    rng = random.Random(1)
    positions = tried = 0
    for seed in range(3):
        game = Game.new(seed=seed, rules=varied_rules, recording=False)
        while not game.is_over and len(game.moves) < 300:
            before = game.to_position()
            legal = game.legal_moves()
            assert {str(m) for m in legal} == model_legal_moves(before), before
            for move in legal:
                trial = game.copy()
                trial.play(move)
                _compare(trial, before, move)
                tried += 1
            positions += 1
            game.apply(reference_move(game) if rng.random() < 0.6 else rng.choice(legal))
    assert positions > 150 and tried > 1500, (positions, tried)


def test_the_model_agrees_on_the_edges_too() -> None:
    """Positions near the turn limit and with a tiny stock, where the game ends."""
    rng = random.Random(2)
    for seed in range(15):
        game = Game.new(seed=seed, rules=Rules.QUICK, recording=False)
        while not game.is_over:
            game.apply(
                reference_move(game) if rng.random() < 0.5 else rng.choice(game.legal_moves())
            )
            if game.is_over or len(game.stock) > 6:
                continue
            before = game.to_position()
            for turn in (None, 1000):
                if turn is not None:
                    before["turn"] = turn
                base = Game.from_position(before, seed=seed)
                for move in base.legal_moves():
                    trial = base.copy()
                    trial.play(move)
                    _compare(trial, before, move)


def test_legal_move_flags_are_the_legal_moves(varied_rules: Rules) -> None:
    rng = random.Random(3)
    positions = 0
    for seed in range(6):
        game = Game.new(seed=seed, rules=varied_rules, recording=False)
        while not game.is_over:
            legal = game.legal_moves()
            flags = game.legal_move_flags()
            assert len(flags) == 144 and set(flags) <= {0, 1}
            assert [i for i, flag in enumerate(flags) if flag] == [move.index for move in legal]
            positions += 1
            game.apply(reference_move(game) if rng.random() < 0.6 else rng.choice(legal))
        assert game.legal_move_flags() == bytes(144)
    assert positions > 300
