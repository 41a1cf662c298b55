"""Hypothesis properties: cards conserved, hidden cards invisible, every notation round-trips."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from spite_malice.bots.reference import reference_move
from spite_malice.engine import (
    ALL_MOVES,
    Game,
    GameRecord,
    Move,
    NotationError,
    Rules,
    card_str,
    move_at,
    parse_card,
    parse_move,
)
from spite_malice.engine.cards import FACES

from .helpers import assert_cards_conserved, check_invariants

EXAMPLES = 20
"""Games a property plays in every run: each plays up to hundreds of moves, every move
checked, so twenty cover each of :data:`RULES` a few times over."""
DEEP_EXAMPLES = 200
"""Games each property plays again in the runs that take the slow tests (``-m slow``)."""


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,  # no timed assertions: a slow machine must not fail these
        suppress_health_check=[HealthCheck.too_slow],
        # No shrinking: each example plays up to hundreds of moves, so shrinking a failure
        # took minutes. A failing example is still printed (seed, rules, steps) and replays
        # exactly.
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
    )


Check = Callable[..., None]


def property_tests(check: Check, **strategies: st.SearchStrategy[Any]) -> tuple[Check, Check]:
    """``check`` as two tests of one property: over :data:`EXAMPLES` examples in every run,
    and over :data:`DEEP_EXAMPLES` in the runs that take the slow tests. Both share
    Hypothesis's database, so a failure the deep one finds is tried first by the other."""
    quick = _settings(EXAMPLES)(given(**strategies)(check))
    deep = pytest.mark.slow(_settings(DEEP_EXAMPLES)(given(**strategies)(check)))
    return quick, deep


NO_DEADLINE = settings(deadline=None)
"""Hypothesis's default settings but its 200 ms deadline an example: a parse takes
microseconds, yet a loaded machine can pause the process for longer, and an example over the
deadline fails the test (DeadlineExceeded, or Flaky when its replay is quick)."""

RULES = st.sampled_from(
    [
        Rules.STANDARD,
        Rules.QUICK,
        Rules(decks=3, center_stacks=4),
        Rules(decks=3, payoff_size=30),
        Rules(payoff_size=5, king_can_start_stack=False),
        Rules(center_stacks=4, first_player="alternate"),
    ]
)
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
RANDOMS = st.randoms(use_true_random=False)


def choose(game: Game, rng: random.Random) -> Move:
    """Mostly the greedy reference move (so games get somewhere), sometimes any legal move."""
    if rng.random() < 0.7:
        return reference_move(game)
    return rng.choice(game.legal_moves())


def _every_card_is_accounted_for(seed: int, rules: Rules, rng: random.Random) -> None:
    game = Game.new(seed=seed, rules=rules)
    check_invariants(game)
    for _ in range(600):
        if game.is_over:
            break
        game.play(choose(game, rng))
        check_invariants(game)


(
    test_every_card_is_accounted_for_after_every_move_none_twice,
    test_every_card_is_accounted_for_after_every_move_none_twice_deeply,
) = property_tests(_every_card_is_accounted_for, seed=SEEDS, rules=RULES, rng=RANDOMS)


def _the_fast_path_plays_like_the_checked_path(seed: int, rules: Rules, rng: random.Random) -> None:
    checked = Game.new(seed=seed, rules=rules)
    fast = Game.new(seed=seed, rules=rules, recording=False)
    while not checked.is_over and len(checked.moves) < 400:
        move = choose(checked, rng)
        checked.play(move)
        fast.apply(move)
        assert fast.to_position() == checked.to_position()
    assert fast.outcome == checked.outcome
    assert fast.events == []


(
    test_the_unchecked_fast_path_plays_exactly_like_the_checked_path,
    test_the_unchecked_fast_path_plays_exactly_like_the_checked_path_deeply,
) = property_tests(_the_fast_path_plays_like_the_checked_path, seed=SEEDS, rules=RULES, rng=RANDOMS)


def _in_progress(seed: int, rules: Rules, steps: int, rng: random.Random) -> Game:
    game = Game.new(seed=seed, rules=rules)
    for _ in range(steps):
        if game.is_over:
            break
        game.play(choose(game, rng))
    return game


def _hidden_shuffled(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game with the cards ``seat`` cannot see dealt differently among their places:
    the stock, both face-down pay-off piles and the other player's hand (R6.2)."""
    other = game.copy()
    players = other.players
    tops = [p.payoff.pop() if p.payoff else None for p in players]  # face up: stay put
    places = [other.stock, players[0].payoff, players[1].payoff, players[1 - seat].hand]
    sizes = [len(place) for place in places]
    hidden = [card for place in places for card in place]
    rng.shuffle(hidden)
    for place, size in zip(places, sizes, strict=True):
        place[:] = hidden[:size]
        del hidden[:size]
    for player, top in zip(players, tops, strict=True):
        if top is not None:
            player.payoff.append(top)
    return other


def _only_hidden_cards_differ(
    seed: int, rules: Rules, steps: int, seat: int, rng: random.Random
) -> None:
    game = _in_progress(seed, rules, steps, rng)
    other = _hidden_shuffled(game, seat, rng)
    assert_cards_conserved(other)
    assert other.observation(seat) == game.observation(seat)
    assert other.observation(seat).to_json() == game.observation(seat).to_json()


(
    test_an_observation_is_identical_when_only_hidden_cards_differ,
    test_an_observation_is_identical_when_only_hidden_cards_differ_deeply,
) = property_tests(
    _only_hidden_cards_differ,
    seed=SEEDS,
    rules=RULES,
    steps=st.integers(min_value=0, max_value=200),
    seat=st.sampled_from([0, 1]),
    rng=RANDOMS,
)


def test_an_observation_does_change_when_a_visible_card_differs() -> None:
    """The counterpart of the property above, so that it can fail."""
    game = Game.new(seed=21)
    other = game.copy()
    mine = other.players[0].hand
    swap = next(i for i, c in enumerate(other.stock) if c not in mine)
    mine[0], other.stock[swap] = other.stock[swap], mine[0]
    assert other.observation(0) != game.observation(0)
    assert other.observation(1) == game.observation(1)


# ----------------------------------------------------------------------------- notation


def test_every_card_round_trips_in_upper_and_lower_case() -> None:
    for face in range(FACES):
        text = card_str(face)
        assert parse_card(text) == face
        assert parse_card(text.lower()) == face
        assert parse_card(f" {text.lower()} ") == face
    assert len({card_str(face) for face in range(FACES)}) == FACES


@NO_DEADLINE
@given(st.text(max_size=4))
def test_card_text_either_parses_to_its_canonical_form_or_is_a_notation_error(text: str) -> None:
    try:
        card = parse_card(text)
    except NotationError as error:
        assert repr(text) in str(error)
        return
    assert card_str(card) == text.strip().upper()


def test_every_move_round_trips_in_upper_and_lower_case() -> None:
    assert len(ALL_MOVES) == 144
    for move in ALL_MOVES:
        text = str(move)
        assert parse_move(text) is move
        assert parse_move(text.lower()) is move
        assert move_at(move.index) is move
        assert parse_move(move) is move
    assert len({str(m) for m in ALL_MOVES}) == 144


@NO_DEADLINE
@given(st.text(alphabet="PHSC-1234567890AKQJTXhsc ", max_size=7))
def test_move_text_either_parses_to_its_canonical_form_or_is_a_notation_error(text: str) -> None:
    try:
        move = parse_move(text)
    except NotationError as error:
        assert str(error).startswith(f"invalid move {text!r}: ")
        return
    assert str(move) == text.strip().upper()


def _the_position_round_trips(seed: int, rules: Rules, steps: int, rng: random.Random) -> None:
    game = _in_progress(seed, rules, steps, rng)
    if game.is_over:
        return  # a finished game is not a decision point, so it is no position
    position = game.to_position()
    again = Game.from_position(position)
    assert again.to_position() == position
    assert Game.from_position(json.dumps(position)).to_position() == position
    lowered = json.loads(json.dumps(position).lower())
    assert Game.from_position(lowered).to_position() == position
    assert again.legal_moves() == game.legal_moves()
    for seat in (0, 1):  # a position has no history: the moves that led to it are not in it
        assert again.observation(seat) == replace(game.observation(seat), history=())


test_every_position_round_trips, test_every_position_round_trips_deeply = property_tests(
    _the_position_round_trips,
    seed=SEEDS,
    rules=RULES,
    steps=st.integers(min_value=0, max_value=300),
    rng=RANDOMS,
)


def _the_record_round_trips(seed: int, rules: Rules, steps: int, rng: random.Random) -> None:
    game = _in_progress(seed, rules, steps, rng)
    record = GameRecord.from_game(game, ("Ann", "Bob"))
    assert GameRecord.from_json(record.to_json()) == record
    assert GameRecord.from_json(record.dumps()) == record
    assert GameRecord.from_json(json.loads(record.dumps())).to_json() == record.to_json()
    replayed = record.replay()
    assert replayed.to_position() == game.to_position()
    assert replayed.outcome == game.outcome
    assert replayed.events == game.events
    assert Counter(str(m) for m in replayed.moves) == Counter(record.moves)


(
    test_every_record_round_trips_and_replays_exactly,
    test_every_record_round_trips_and_replays_exactly_deeply,
) = property_tests(
    _the_record_round_trips,
    seed=SEEDS,
    rules=RULES,
    steps=st.integers(min_value=0, max_value=400),
    rng=RANDOMS,
)
