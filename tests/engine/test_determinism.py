"""Determinism: a seed fixes the whole game, whatever other code does with ``random``."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from spite_malice.bots.reference import reference_move
from spite_malice.engine import Game, Match, Rules, StackCompleted

from .helpers import game, stall_move

TO_JACK = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS"


def _play_out(played: Game, between: Callable[[], object] = lambda: None) -> Game:
    while not played.is_over:
        between()
        played.play(reference_move(played))
    return played


def _meddle() -> None:
    """What other code might do with the global generator between two moves."""
    random.random()
    random.shuffle(list(range(10)))
    random.seed(random.getrandbits(32))


@pytest.mark.parametrize("rules", [Rules.STANDARD, Rules.QUICK, Rules(decks=3, center_stacks=4)])
def test_the_same_seed_gives_the_same_game_even_when_others_use_the_global_random(
    rules: Rules,
) -> None:
    random.seed(1)
    quiet = _play_out(Game.new(seed=2024, rules=rules))
    random.seed(2)
    noisy = _play_out(Game.new(seed=2024, rules=rules), _meddle)
    assert [str(m) for m in noisy.moves] == [str(m) for m in quiet.moves]
    assert noisy.events == quiet.events
    assert noisy.outcome == quiet.outcome
    assert noisy.to_position() == quiet.to_position()
    # The game had shuffles after the deal, so the seeded generator was used throughout.
    assert any(isinstance(e, StackCompleted) for e in quiet.events)


@pytest.fixture
def no_global_random(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Make every module-level function of ``random`` fail, as a tripwire."""

    def tripwire(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the engine used the global random generator")

    for name in ("random", "shuffle", "choice", "choices", "sample", "randint", "randrange"):
        monkeypatch.setattr(random, name, tripwire)
    monkeypatch.setattr(random, "getrandbits", tripwire)
    monkeypatch.setattr(random, "seed", tripwire)
    yield


@pytest.mark.usefixtures("no_global_random")
def test_the_engine_never_touches_the_global_random_generator() -> None:
    played = _play_out(Game.new(seed=7))
    assert any(isinstance(e, StackCompleted) for e in played.events)
    stalled = Game.new(seed=8, rules=Rules.QUICK)
    while not stalled.is_over and len(stalled.moves) < 500:
        stalled.play(stall_move(stalled))
    Game.new()  # an unseeded game picks its seed without the global generator either
    match = Match(Rules(payoff_size=5, match_target=10), seed=9)
    while not match.is_over:
        _play_out(match.next_game())
        match.book()


def test_a_seeded_position_shuffles_the_same_way() -> None:
    stocks: list[list[int]] = []
    for _ in range(2):
        played = game(seed=5, hands=("KH 9C", "2D"), center=(TO_JACK,))
        random.seed(len(stocks))
        played.play("HK-C1")
        stocks.append(played.stock)
    assert stocks[0] == stocks[1]


def test_a_copy_shuffles_like_the_original_unless_given_its_own_generator() -> None:
    played = game(seed=5, hands=("KH 9C", "2D"), center=(TO_JACK,))
    twin = played.copy()
    other = played.copy(rng=random.Random(6))
    for each in (played, twin, other):
        each.play("HK-C1")
    assert twin.stock == played.stock
    assert other.stock != played.stock
    assert sorted(other.stock) == sorted(played.stock)


def test_a_copy_is_independent() -> None:
    played = Game.new(seed=10)
    twin = played.copy()
    before = played.to_position()
    while not twin.is_over:
        twin.apply(reference_move(twin))
    assert played.to_position() == before
    assert played.moves == []
    assert twin.events == []  # copies do not record unless asked to
    recorded = played.copy(recording=True)
    recorded.play(reference_move(recorded))
    assert recorded.events


def test_a_match_is_determined_by_its_seed() -> None:
    def scores(meddle: bool) -> tuple[list[int], list[int]]:
        match = Match(Rules.QUICK, seed=77)
        seeds = []
        while not match.is_over:
            played = match.next_game()
            seeds.append(played.seed or 0)
            _play_out(played, _meddle if meddle else lambda: None)
            match.book()
        return match.score, seeds

    assert scores(False) == scores(True)
