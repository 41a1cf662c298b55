"""Observation tensors hold only what a seat may see (R6), whichever way they are built."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from spite_malice.bots import reference_move  # noqa: E402
from spite_malice.engine import Game, Rules, card_str  # noqa: E402
from spite_malice.engine.cards import full_deck  # noqa: E402
from spite_malice.research.actions import first_fit_action  # noqa: E402
from spite_malice.research.encoding import (  # noqa: E402
    OBSERVATION_SIZE,
    SECTIONS,
    ObservationEncoder,
    action_mask,
    encode_game,
    encode_observation,
    first_fit_from_mask,
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


def test_an_encoder_started_mid_game_gives_the_same_tensors() -> None:
    """Side stacks already built up when the encoder starts (or is reset) are tracked from
    there on."""
    started = 0
    for position in _positions(games=4, every=13):
        if position.is_over or not any(map(any, (p.side for p in position.players))):
            continue
        game = position.copy()
        encoder = ObservationEncoder(Game.new(0, recording=False))
        encoder.reset(game)
        started += 1
        for _ in range(60):
            if game.is_over:
                break
            move = reference_move(game)
            player = game.to_move
            game.apply(move)
            encoder.moved(player, move)
            for seat in (0, 1):
                assert np.array_equal(encoder.encode(seat), encode_game(game, seat))
    assert started > 10


def _side_pieces(player: int, seat: int) -> slice:
    """Where ``player``'s pay-off and side stack piece is in ``seat``'s tensor."""
    at = 13 if player == seat else 13 + 122
    return slice(at, at + 122)


def test_an_encoder_that_missed_a_discard_writes_that_side_stack_afresh() -> None:
    """The next change to the stack finds it one card off or more and writes the piece anew
    (the encoder is to be told of every move; this is its fallback)."""
    for seed in range(4):
        game = Game.new(seed, recording=False)
        encoder = ObservationEncoder(game)
        missed: tuple[int, int] | None = None  # (player, side stack) of the discard not told
        while not game.is_over:
            move = reference_move(game)
            player = game.to_move
            game.apply(move)
            if missed is None and move.is_discard:
                missed = (player, move.target - 4)
                continue
            encoder.moved(player, move)
            if missed == (player, move.side_source) or missed == (player, move.target - 4):
                for seat in (0, 1):
                    pieces = _side_pieces(player, seat)
                    expected = encode_game(game, seat)[pieces]
                    assert np.array_equal(encoder.encode(seat)[pieces], expected)
                break
        assert missed is not None and not game.is_over


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
        again = action_mask(flags)  # and a copy of its own each time
        assert not np.shares_memory(mask, again)
        assert np.flatnonzero(again).tolist() == [move.index for move in game.legal_moves()]
    assert not action_mask(bytes(144)).any()


def _my_side_sizes() -> slice:
    at = 0
    for name, shape in SECTIONS:
        size = int(np.prod(shape))
        if name == "my_side_size":
            return slice(at, at + size)
        at += size
    raise AssertionError("no my_side_size section")


def test_first_fit_from_mask_is_first_fit_action_on_any_mask() -> None:
    """Every branch: pay-off builds, side stack builds, hand builds, discards (to the first
    empty side stack, else the first) and no legal action at all."""
    rng = random.Random(4)
    tensor = np.zeros(OBSERVATION_SIZE, np.float32)
    for _ in range(20_000):
        size = rng.choice((0, 1, 2, 4, 8, 16, 32, 64))
        pool = rng.choice((range(144), range(4, 144), range(8, 112), range(100, 144)))
        legal = sorted(rng.sample(pool, min(size, len(pool))))
        mask = np.zeros(144, np.int8)
        mask[legal] = 1
        tensor[_my_side_sizes()] = [rng.choice((0, 0, 1, 5)) for _ in range(4)]
        expected = first_fit_action(legal, side_empty(tensor))
        assert first_fit_from_mask(mask, tensor) == expected
        assert first_fit_from_mask(mask.astype(bool), tensor) == expected


def test_first_fit_from_mask_plays_the_reference_move() -> None:
    for game in _positions():
        if not game.is_over:
            mask = action_mask(game.legal_move_flags())
            action = first_fit_from_mask(mask, encode_game(game, game.to_move))
            assert action == reference_move(game).index


def test_first_fit_from_mask_refuses_a_mask_of_another_size() -> None:
    tensor = np.zeros(OBSERVATION_SIZE, np.float32)
    with pytest.raises(ValueError, match="144 int8"):
        first_fit_from_mask(np.ones(144, np.int64), tensor)
    with pytest.raises(ValueError, match="144 int8"):
        first_fit_from_mask(np.ones(143, np.int8), tensor)
