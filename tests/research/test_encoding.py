"""Observation tensors hold only what a seat may see (R6), whichever way they are built."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from spite_malice.bots import reference_move  # noqa: E402
from spite_malice.engine import Game, Rules, card_str  # noqa: E402
from spite_malice.engine.cards import full_deck  # noqa: E402
from spite_malice.research.encoding import (  # noqa: E402
    OBSERVATION_SIZE,
    SECTIONS,
    ObservationEncoder,
    action_mask,
    encode_game,
    encode_observation,
    observation_high,
    observation_string,
    side_empty,
)


def _positions(games: int = 8, every: int = 7) -> list[Game]:
    out = []
    for seed in range(games):
        game = Game.new(seed, recording=False)
        count = 0
        while not game.is_over:
            if count % every == 0:
                out.append(game.copy())
            game.apply(reference_move(game))
            count += 1
        out.append(game)
    return out


def test_layout_adds_up() -> None:
    assert OBSERVATION_SIZE == sum(int(np.prod(shape)) for _, shape in SECTIONS) == 313


def test_fast_builder_equals_the_observation_builder() -> None:
    high = observation_high()
    for game in _positions():
        for seat in (0, 1):
            fast = encode_game(game, seat)
            assert fast.dtype == np.float32 and fast.shape == (OBSERVATION_SIZE,)
            assert np.array_equal(fast, encode_observation(game.observation(seat)))
            assert (fast >= 0).all() and (fast <= high).all()


def test_the_updating_encoder_gives_the_same_tensors(varied_rules: Rules) -> None:
    """Every kind of move (builds from each source, completed stacks, discards, refills, the
    end), some chosen at random so that side stacks grow and shrink."""
    rng = random.Random(5)
    kinds: set[str] = set()
    for seed in range(6):
        game = Game.new(seed, varied_rules, recording=False)
        encoder = ObservationEncoder(game)
        given = []
        while True:
            # some seats are left unread for a while, as the environments do
            for seat in (seat for seat in (0, 1) if game.is_over or rng.random() < 0.4):
                tensor = encoder.encode(seat)
                given.append((tensor, tensor.copy()))
                assert np.array_equal(tensor, encode_game(game, seat))
            if game.is_over:
                break
            move = reference_move(game) if rng.random() < 0.7 else rng.choice(game.legal_moves())
            kinds.add(move.notation[0] + ("C" if move.is_build else "S"))
            player = game.to_move
            game.apply(move)
            encoder.moved(player, move)
        # every tensor handed out is the caller's own: later moves never change it
        assert all(np.array_equal(tensor, copy) for tensor, copy in given)
    assert kinds == {"PC", "HC", "SC", "HS"}


def test_a_stack_completed_by_the_winning_move_shows_as_a_zero_row() -> None:
    """The winning build ends the game before a complete stack goes back into the stock
    (R3.4), so a center stack may hold 12 cards at the end: its row stays all zero."""
    ended = 0
    for seed in range(60):
        game = Game.new(seed, recording=False)
        while not game.is_over:
            game.apply(reference_move(game))
        if 12 not in map(len, game.center):
            continue
        ended += 1
        for seat in (0, 1):
            tensor = encode_game(game, seat)
            assert np.array_equal(tensor, encode_observation(game.observation(seat)))
            at = 13 + 2 * 122 + 2
            center = tensor[at : at + 48].reshape(4, 12)
            kings = tensor[at + 48 : at + 52]
            for number, stack in enumerate(game.center):
                assert center[number].sum() == (len(stack) < 12)
                assert kings[number] == sum(card % 13 == 12 for card in stack)
    assert ended


def test_r6_hidden_cards_do_not_change_the_tensor() -> None:
    rng = random.Random(3)
    for game in _positions(games=4, every=11):
        for seat in (0, 1):
            before = encode_game(game, seat)
            text = observation_string(game.observation(seat))
            other = game.copy()
            opponent = other.players[1 - seat]
            # Deal the cards this seat cannot see afresh among themselves.
            places = [(opponent.hand, i) for i in range(len(opponent.hand))]
            places += [(other.stock, i) for i in range(len(other.stock))]
            for player in other.players:
                places += [(player.payoff, i) for i in range(len(player.payoff) - 1)]
            cards = [pile[i] for pile, i in places]
            rng.shuffle(cards)
            for (pile, i), card in zip(places, cards, strict=True):
                pile[i] = card
            assert np.array_equal(before, encode_game(other, seat))
            assert text == observation_string(other.observation(seat))


def test_the_tensor_reads_as_documented() -> None:
    placed = [
        "AS",
        "KD",
        "4C",
        "9D",
        "QS",
        "7H",
        "KD",
        "3S",
        "3H",
        "JC",
        "9C",
        "8D",
        "5S",
        "AD",
        "2D",
        "6C",
        "6S",
        "TH",
        "QD",
        "KC",
    ]
    stock = [card_str(c) for c in full_deck(2)]
    for name in placed:
        stock.remove(name)
    game = Game.from_position(
        {
            "to_move": 0,
            "stock": stock,
            "center": [["AS", "KD"], [], []],
            "players": [
                {
                    "payoff": ["4C", "9D", "QS"],
                    "hand": ["7H", "KD", "3S", "3H", "JC"],
                    "side": [["9C", "8D"], [], [], []],
                },
                {
                    "payoff": ["5S", "AD"],
                    "hand": ["2D", "6C", "6S", "TH", "QD"],
                    "side": [[], [], ["KC"], []],
                },
            ],
        },
        seed=1,
    )
    tensor = encode_game(game, 0)
    at = 0
    pieces = {}
    for name, shape in SECTIONS:
        size = int(np.prod(shape))
        pieces[name] = tensor[at : at + size].reshape(shape)
        at += size
    assert pieces["hand"][2] == 2 and pieces["hand"][12] == 1  # two 3s, one King
    assert pieces["my_payoff_top"][11] == 1 and pieces["opponent_payoff_top"][0] == 1  # Q; A
    assert pieces["my_payoff"][0] == 3 and pieces["opponent_payoff"][0] == 2
    assert pieces["my_side_top"][0][7] == 1  # my side stack 1 shows an 8
    assert pieces["opponent_side_ranks"][2][12] == 1  # the opponent's side stack 3: a King
    assert pieces["my_side_size"].tolist() == [2, 0, 0, 0]
    assert pieces["hand_count"].tolist() == [5, 5]
    assert pieces["center"][0][2] == 1 and pieces["center"][1][0] == 1
    assert pieces["center_k"].tolist() == [1, 0, 0, 0]
    assert pieces["stock"][0] == 84
    assert pieces["my_turn"][0] == 1
    assert side_empty(tensor) == (False, True, True, True)
    assert "hand: 3S 3H 7H JC KD" in observation_string(game.observation(0))


def test_the_action_mask_marks_the_legal_move_flags() -> None:
    for game in _positions(games=3, every=3):
        flags = game.legal_move_flags()
        mask = action_mask(flags)
        assert mask.dtype == np.int8 and mask.shape == (144,) and mask.flags.writeable
        assert np.flatnonzero(mask).tolist() == [move.index for move in game.legal_moves()]
        mask[:] = 1
        assert flags == game.legal_move_flags()  # the mask is over a copy
    assert not action_mask(bytes(144)).any()
