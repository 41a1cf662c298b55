"""Wrong caller input raises the engine's own errors, with short messages, whatever its shape:
JSON nested 100,000 deep, numbers of 5,000 digits, cards nested 50,000 deep, dicts with keys
of mixed types, seeds of every wrong kind, look-alike letters (issue 12; issue 11 item 8)."""

from __future__ import annotations

import json
import math
import re
from typing import Any

import pytest

from spite_malice.engine import (
    ArgumentError,
    Game,
    GameRecord,
    NotationError,
    PositionError,
    Rules,
    RulesError,
    SeedError,
    SpiteMaliceError,
    check_seed,
    is_seed,
    make_card,
    move_at,
    parse_card,
    parse_move,
)
from spite_malice.engine.cards import parse_rank
from spite_malice.engine.errors import quote
from spite_malice.engine.observation import observe

from .helpers import game, position

DEEP = "[" * 100_000 + "]" * 100_000
HUGE = "1" * 5_000
MESSAGE_LIMIT = 500
"""A message quotes at most a few hundred characters of the input."""


def _record() -> dict[str, Any]:
    dealt = Game.new(5)
    for _ in range(6):
        dealt.play(dealt.legal_moves()[-1])
    return GameRecord.from_game(dealt).to_json()


def _nested(value: object, depth: int) -> object:
    for _ in range(depth):
        value = [value]
    return value


# ----------------------------------------------------------------- JSON text


@pytest.mark.parametrize(
    "text",
    [
        DEEP,
        '{"to_move": ' + DEEP + "}",
        '{"to_move": ' + HUGE + "}",
        '{"to_move": 0, "turn": NaN}',
        '{"to_move": -Infinity}',
    ],
    ids=["nested", "nested-in-a-key", "5000-digits", "NaN", "Infinity"],
)
def test_a_position_text_that_json_cannot_read_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        Game.from_position(text)
    assert len(str(caught.value)) < MESSAGE_LIMIT
    assert str(caught.value).startswith("invalid position '")


@pytest.mark.parametrize(
    "text",
    [
        DEEP,
        '{"format": 1, "seed": 1, "moves": [], "extra": ' + DEEP + "}",
        '{"format": 1, "seed": ' + HUGE + ', "moves": []}',
        '{"format": 1, "seed": 1, "moves": [], "extra": NaN}',
    ],
    ids=["nested", "nested-extra", "5000-digits", "NaN"],
)
def test_a_record_text_that_json_cannot_read_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        GameRecord.from_json(text)
    assert len(str(caught.value)) < MESSAGE_LIMIT
    assert str(caught.value).startswith("invalid game record '")


def test_the_reasons_say_what_is_wrong_with_the_text() -> None:
    with pytest.raises(NotationError, match="nested too deeply"):
        Game.from_position(DEEP)
    with pytest.raises(NotationError, match="a number in it has too many digits"):
        GameRecord.from_json('{"seed": ' + HUGE + "}")
    with pytest.raises(NotationError, match="NaN is not a JSON number"):
        GameRecord.from_json('{"seed": NaN}')


# ----------------------------------------------------------------- Python values


def test_a_huge_number_in_a_position_object_is_refused_with_a_short_message() -> None:
    for key in ("to_move", "turn"):
        pos = position(hands=("9H", "2D"))
        pos[key] = 10**5000
        with pytest.raises(PositionError) as caught:
            Game.from_position(pos)
        assert re.search("a whole number of about 50[0-9][0-9] digits", str(caught.value))
        assert len(str(caught.value)) < MESSAGE_LIMIT


def test_a_card_nested_50000_deep_is_refused_with_a_short_message() -> None:
    pos = position(hands=("9H", "2D"))
    pos["stock"][0] = _nested("AS", 50_000)
    with pytest.raises(PositionError, match=r"stock: invalid card \[\[\[") as caught:
        Game.from_position(pos)
    assert len(str(caught.value)) < MESSAGE_LIMIT
    with pytest.raises(NotationError):
        parse_card(_nested("AS", 50_000))  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        parse_move(_nested("HA-C1", 50_000))  # type: ignore[arg-type]


def test_every_list_or_object_in_a_position_may_be_deep_or_huge() -> None:
    """Each place of a position, given something deep, huge or long: a PositionError or a
    NotationError with a short message, never RecursionError, TypeError or a bare
    ValueError."""
    hostile: list[object] = [
        _nested(1, 50_000),
        {"a": _nested({}, 50_000)},
        10**5000,
        "x" * 3_000_000,
        {1: 2, "b": 3},
        math.nan,
    ]
    places: list[tuple[str, ...]] = [
        ("rules",),
        ("to_move",),
        ("turn",),
        ("score",),
        ("stock",),
        ("center",),
        ("players",),
        ("players", "0"),
        ("players", "0", "hand"),
        ("players", "1", "side"),
    ]
    for value in hostile:
        for place in places:
            pos: Any = position(hands=("9H", "2D"))
            target = pos
            for step in place[:-1]:
                target = target[int(step) if step.isdigit() else step]
            last = place[-1]
            target[int(last) if last.isdigit() else last] = value
            with pytest.raises((PositionError, NotationError)) as caught:
                Game.from_position(pos)
            assert len(str(caught.value)) < MESSAGE_LIMIT, (place, str(caught.value)[:200])


def test_rules_objects_with_keys_of_mixed_types_are_refused() -> None:
    for data in ({1: 2, "decks": 2}, {1: 2, "speed": 3}, {None: 1}, {("decks",): 2}):
        with pytest.raises(NotationError, match="option names are strings"):
            Rules.from_json(data)
    pos = position(hands=("9H", "2D"))
    pos["rules"] = {1: 2, "payoff": 3}
    with pytest.raises(NotationError, match="option names are strings"):
        Game.from_position(pos)
    pos = position(hands=("9H", "2D"))
    pos[1] = 2  # type: ignore[index]
    with pytest.raises(PositionError, match="has a key that is not a string: 1"):
        Game.from_position(pos)
    pos = position(hands=("9H", "2D"))
    pos["players"][0][None] = 2
    with pytest.raises(PositionError, match="player 1 has a key that is not a string: None"):
        Game.from_position(pos)
    data = _record()
    data[3] = "x"  # type: ignore[index]
    with pytest.raises(
        PositionError, match="invalid game record: it has a key that is not a string: 3"
    ):
        GameRecord.from_json(data)


@pytest.mark.parametrize(
    "options",
    [
        {"decks": 5},
        {"decks": 2.0},
        {"decks": True},
        {"payoff_size": "20"},
        {"center_stacks": 10**5000},
        {"king_can_start_stack": 1},
        {"first_player": ["alternate"]},
        {"first_player": "ALTERNATE"},
        {"match_target": 0},
        {"match_target": math.nan},
    ],
)
def test_rules_out_of_range_raise_rules_error(options: dict[str, Any]) -> None:
    with pytest.raises(RulesError, match="invalid rules: ") as caught:
        Rules(**options)
    assert isinstance(caught.value, ArgumentError | SpiteMaliceError | ValueError)
    with pytest.raises(NotationError, match="invalid rules "):
        Rules.from_json(options)


# ----------------------------------------------------------------- seeds: one rule


BAD_SEEDS: list[object] = [
    [1],
    1.5,
    1.0,
    "abc",
    "12",
    True,
    False,
    math.nan,
    math.inf,
    -1,
    2**63,
    10**5000,
    b"1",
    None if False else {"seed": 1},
]
GOOD_SEEDS: list[int] = [0, 1, 42, 2**63 - 1]


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=[type(s).__name__ for s in BAD_SEEDS])
def test_every_wrong_seed_is_refused_the_same_way_everywhere(seed: object) -> None:
    """R1.1: a seed is a whole number from 0 to 2**63 - 1, for Game.new, for positions and
    in records; check_seed is the one rule all of them (and callers above) use."""
    assert not is_seed(seed)
    with pytest.raises(SeedError, match="seed must be a whole number from 0 to 2\\*\\*63 - 1"):
        check_seed(seed)
    with pytest.raises(SeedError) as caught:
        Game.new(seed=seed)  # type: ignore[arg-type]
    assert len(str(caught.value)) < MESSAGE_LIMIT
    with pytest.raises(SeedError):
        Game.from_position(position(hands=("9H", "2D")), seed=seed)  # type: ignore[arg-type]
    data = _record()
    data["seed"] = seed
    with pytest.raises(
        PositionError, match="invalid game record: seed must be a whole number from 0"
    ):
        GameRecord.from_json(data)


@pytest.mark.parametrize("seed", GOOD_SEEDS)
def test_every_right_seed_is_accepted_everywhere(seed: int) -> None:
    assert is_seed(seed) and check_seed(seed) == seed
    dealt = Game.new(seed=seed)
    assert dealt.seed == seed
    assert Game.from_position(position(hands=("9H", "2D")), seed=seed).seed == seed
    data = GameRecord.from_game(dealt).to_json()
    assert GameRecord.from_json(json.dumps(data)).seed == seed


def test_a_seed_error_is_an_argument_error_and_a_value_error() -> None:
    with pytest.raises(ArgumentError):
        check_seed("1")
    with pytest.raises(ValueError):
        check_seed("1")


# ----------------------------------------------------------------- other arguments


def test_other_wrong_arguments_raise_argument_error() -> None:
    dealt = Game.new(3)
    for seat in (2, -1, True, 1.0, "0", None, [0]):
        with pytest.raises(ArgumentError, match="seat must be 0 or 1"):
            observe(dealt, seat)  # type: ignore[arg-type]
        with pytest.raises(ArgumentError, match="seat must be 0 or 1"):
            dealt.observation(seat)  # type: ignore[arg-type]
    for first in (2, 1.0, True, "0"):
        with pytest.raises(ArgumentError, match="first must be 0, 1 or None"):
            Game.new(1, first=first)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="rules must be a Rules value"):
        Game.new(1, {"decks": 2})  # type: ignore[arg-type]
    for index in (144, -1, True, 1.0, "3"):
        with pytest.raises(ArgumentError, match="no move has index"):
            move_at(index)  # type: ignore[arg-type]
    for rank, suit in ((0, 0), (14, 0), (1, 4), (True, 0), (1.0, 0)):
        with pytest.raises(ArgumentError, match="no card of rank"):
            make_card(rank, suit)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="only a dealt game"):
        GameRecord.from_game(game(hands=("9H", "2D")))


# ----------------------------------------------------------------- look-alike letters


@pytest.mark.parametrize(
    "text",
    [
        "Aſ",  # LATIN SMALL LETTER LONG S: "ſ".upper() == "S"
        "\u3000AS",  # IDEOGRAPHIC SPACE, which str.strip() removes
        "AS\u3000",
        "A\u3000S",
        "\u00a0AS",  # NO-BREAK SPACE
        "ＡＳ",  # FULLWIDTH letters
        "AS\x1c",  # a control character that str.strip() also removes
    ],
)
def test_cards_in_look_alike_letters_or_padded_with_non_ascii_space_are_refused(text: str) -> None:
    with pytest.raises(NotationError, match="invalid card"):
        parse_card(text)
    pos = position(hands=("9H", "2D"))
    pos["stock"][pos["stock"].index("AS")] = text  # the same card, written the same way
    with pytest.raises(PositionError, match="invalid card"):
        Game.from_position(pos)
    for ascii_text in ("AS", "as", " aS\t", "As\n"):
        assert parse_card(ascii_text) == parse_card("AS")


@pytest.mark.parametrize("text", ["ſ1-C1", "HA-Cı", "\u3000HA-C1", "HA-C1\u3000", "ＨA-C1"])
def test_moves_in_look_alike_letters_are_refused(text: str) -> None:
    played = game(hands=("AH", "2D"), sides=(("9C",), ()))
    with pytest.raises(NotationError, match="invalid move"):
        played.play(text)
    assert played.moves == []
    assert parse_move(" s1-c1 ") is parse_move("S1-C1")


def test_ranks_in_look_alike_letters_are_refused() -> None:
    assert parse_rank("k") == 13
    for text in ("ǩ", "Ｋ", "", "KK"):
        with pytest.raises(NotationError):
            parse_rank(text)


# ----------------------------------------------------------------- messages


def test_quote_is_short_and_never_raises() -> None:
    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    for value in (
        "x" * 3_000_000,
        _nested(1, 100_000),
        10**10_000,
        -(10**10_000),
        {"a" * 1000: ["b" * 1000] * 1000},
        Broken(),
        b"y" * 1_000_000,
    ):
        shown = quote(value)
        assert 0 < len(shown) <= 240
    assert quote("AS") == "'AS'" and quote(7) == "7" and quote([1, 2]) == "[1, 2]"


def test_a_3_megabyte_rules_object_gives_a_short_error() -> None:
    with pytest.raises(NotationError) as caught:
        Rules.from_json({"decks": "x" * 3_000_000})
    assert len(str(caught.value)) < MESSAGE_LIMIT
    with pytest.raises(NotationError) as caught:
        Rules.from_json({"x" * 3_000_000: 1})
    assert len(str(caught.value)) < MESSAGE_LIMIT
