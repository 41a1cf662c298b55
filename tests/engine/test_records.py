"""Game records (golden ones replayed move by move) and matches."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from spite_malice.bots.reference import reference_move
from spite_malice.engine import (
    TURN_LIMIT_REACHED,
    Game,
    GameDealt,
    GameRecord,
    Match,
    NotationError,
    Outcome,
    PositionError,
    RecordError,
    Rules,
    SpiteMaliceError,
)

from .golden import GOLDEN, fingerprint

NAMES = sorted(path.name.removesuffix(".json") for path in GOLDEN.glob("*.json"))
GOLDEN_GAMES = [name for name in NAMES if not name.endswith(".expected")]


def _load(name: str) -> Any:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def test_there_are_golden_games_of_every_kind() -> None:
    assert len(GOLDEN_GAMES) >= 7
    assert all(f"{name}.expected" in NAMES for name in GOLDEN_GAMES)
    results = [_load(name)["result"] for name in GOLDEN_GAMES]
    reasons = {r["reason"] for r in results if r is not None}
    assert reasons == {"pay-off pile emptied", "stock exhausted", TURN_LIMIT_REACHED}
    assert None in results  # an unfinished game too


@pytest.mark.parametrize("name", GOLDEN_GAMES)
def test_a_golden_record_replays_exactly_move_by_move(name: str) -> None:
    data = _load(name)
    want = _load(f"{name}.expected")
    record = GameRecord.from_json(data)
    assert record.to_json() == data  # the record itself round-trips unchanged
    game = Game.new(record.seed, record.rules, first=record.first)
    assert fingerprint(game) == want["trace"][0], "the deal differs"
    for number, move in enumerate(record.moves, start=1):
        game.play(move)
        assert fingerprint(game) == want["trace"][number], f"move {number} ({move}) differs"
    assert game.to_position() == want["final_position"]
    assert game.turn == want["turn"]
    assert (None if game.outcome is None else game.outcome.to_json()) == want["outcome"]
    counts: dict[str, int] = {}
    for event in game.events:
        counts[type(event).__name__] = counts.get(type(event).__name__, 0) + 1
    assert counts == want["events"]
    # GameRecord.replay gives the same game, and checks the recorded result.
    replayed = record.replay()
    assert replayed.to_position() == want["final_position"]
    assert replayed.events == game.events


def test_the_golden_tie_reshuffle_game_started_after_a_reshuffle() -> None:
    record = GameRecord.from_json(_load("standard_tie_reshuffle_win"))
    dealt = Game.new(record.seed, record.rules)
    assert isinstance(dealt.events[0], GameDealt) and dealt.events[0].reshuffles > 0
    assert dealt.first == record.first


def test_a_golden_record_that_is_tampered_with_is_refused() -> None:
    data = _load("quick_win_with_kings")
    wrong_result = dict(data, result={"winner": 0, "points": 8, "reason": "pay-off pile emptied"})
    with pytest.raises(PositionError, match=r"invalid game record: it says .* but its moves give"):
        GameRecord.from_json(wrong_result).replay()
    moves = list(data["moves"])
    bad = next(i for i, m in enumerate(moves) if m.startswith("P-"))
    moves[bad] = "P-S1"
    with pytest.raises(
        PositionError,
        match=rf"invalid game record: move {bad + 1} \('P-S1'\) fails: illegal move 'P-S1'",
    ):
        GameRecord.from_json(dict(data, moves=moves)).replay()
    with pytest.raises(
        PositionError, match=r"invalid game record: move 1 \('H0-C1'\) fails: invalid move"
    ):
        GameRecord.from_json(dict(data, moves=["H0-C1"])).replay()
    with pytest.raises(PositionError, match="unfinished game"):
        GameRecord.from_json(dict(data, moves=data["moves"][:10])).replay()


def test_a_record_of_a_tied_deal_replays_even_with_its_first_player_recorded() -> None:
    """Regression: with the first player forced the tie reshuffle was skipped, so a record
    (which replays with its ``first``) of a game that began with tied tops did not replay."""
    for seed in (16, 32, 35, 64, 105):
        game = Game.new(seed=seed)
        assert isinstance(game.events[0], GameDealt) and game.events[0].reshuffles > 0
        while not game.is_over:
            game.play(reference_move(game))
        replayed = GameRecord.from_game(game).replay()
        assert replayed.to_position() == game.to_position()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": 2}, "invalid game record: format must be 1, not 2"),
        ({"format": True}, "invalid game record: format must be 1, not True"),
        ({"format": 1.0}, "invalid game record: format must be 1, not 1.0"),
        ({"format": "1"}, "invalid game record: format must be 1, not '1'"),
        (
            {"seed": "12"},
            "invalid game record: seed must be a whole number from 0 to 2**63 - 1, not '12'",
        ),
        (
            {"seed": True},
            "invalid game record: seed must be a whole number from 0 to 2**63 - 1, not True",
        ),
        ({"moves": "P-C1 H2-S1"}, "invalid game record: moves must be a list of move strings"),
        ({"players": ["solo"]}, "invalid game record: players must be a list of two names"),
        ({"first": 2}, "invalid game record: first must be 0 or 1, not 2"),
        ({"first": 1.0}, "invalid game record: first must be 0 or 1, not 1.0"),
        ({"result": "won"}, "invalid game record: result must be an object"),
        (
            {"result": {"winner": 3, "points": 1, "reason": ""}},
            "invalid game record: result is malformed",
        ),
        (
            {"result": {"winner": False, "points": 0, "reason": "x"}},
            "invalid game record: result is malformed",
        ),
        (
            {"result": {"winner": True, "points": 3, "reason": "x"}},
            "invalid game record: result is malformed",
        ),
        (
            {"result": {"winner": 1.0, "points": 3, "reason": "x"}},
            "invalid game record: result is malformed",
        ),
        (
            {"result": {"winner": 0, "points": True, "reason": "x"}},
            "invalid game record: result is malformed",
        ),
        (
            {"result": {"winner": 0, "points": -3, "reason": "x"}},
            "invalid game record: result is malformed",
        ),
    ],
)
def test_a_malformed_record_is_refused_saying_why(change: dict[str, Any], message: str) -> None:
    data = dict(_load("unfinished"), **change)
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(data)
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, PositionError)  # callers that catch positions catch it


def test_a_position_read_as_a_record_is_called_a_game_record_without_a_format() -> None:
    """A position file passed where a record is wanted is named for what was asked (a game
    record) and told what it lacks, not called an invalid position with a format of None."""
    position = Game.new(seed=3).to_position()
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(position)
    assert (
        str(caught.value)
        == 'invalid game record: it has no "format" (a game record has "format": 1)'
    )


def test_a_record_that_is_not_json_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match=r"invalid game record .*not JSON"):
        GameRecord.from_json('{"format": 1,')
    with pytest.raises(NotationError, match="expected a JSON object"):
        GameRecord.from_json("[]")
    with pytest.raises(NotationError, match="unknown option 'speed'"):
        GameRecord.from_json(dict(_load("unfinished"), rules={"speed": 2}))


def test_a_record_keeps_extra_keys_and_only_a_dealt_game_can_be_recorded() -> None:
    data = dict(_load("unfinished"), date="2026-11-29", event="club night")
    record = GameRecord.from_json(data)
    assert record.to_json() == data
    positioned = Game.from_position(Game.new(seed=1).to_position(), seed=1)
    with pytest.raises(ValueError, match="only a dealt game"):
        GameRecord.from_game(positioned)


def test_a_record_of_a_game_in_progress_replays_to_the_same_point() -> None:
    game = Game.new(seed=99)
    for _ in range(25):
        game.play(reference_move(game))
    record = GameRecord.from_game(game, ("Ann", "Bob"))
    assert record.result is None
    assert record.to_json()["result"] is None
    again = GameRecord.from_json(json.loads(record.dumps())).replay()
    assert again.to_position() == game.to_position()
    # Undo is a replay of fewer moves.
    shorter = GameRecord.from_json(dict(record.to_json(), moves=record.to_json()["moves"][:-1]))
    undone = shorter.replay()
    assert len(undone.moves) == 24


# ----------------------------------------------------------------------------- matches


def _finish(game: Game) -> None:
    while not game.is_over:
        game.apply(reference_move(game))


def _play_match(match: Match, games: int | None = None) -> Match:
    played = 0
    while not match.is_over and (games is None or played < games):
        _finish(match.next_game(recording=False))
        match.book()  # is_over counts only booked games
        played += 1
    return match


def test_a_match_round_trips_through_json() -> None:
    match = _play_match(Match(Rules.QUICK, seed=5, players=("Ann", "Bob")))
    data = match.to_json()
    text = json.dumps(data)
    again = Match.from_json(json.loads(text))
    assert again.to_json() == data
    assert again.score == match.score and again.winner == match.winner
    assert [r.seed for r in again.records] == [r.seed for r in match.records]


def test_a_match_in_progress_round_trips_with_its_current_game() -> None:
    match = _play_match(Match(Rules.QUICK, seed=6), games=2)
    current = match.next_game()
    for _ in range(7):
        current.play(reference_move(current))
    data = match.to_json()
    assert "current" in data
    again = Match.from_json(json.loads(json.dumps(data)))
    assert again.game is not None
    assert again.game.to_position() == current.to_position()
    assert again.to_json() == data


def test_a_match_whose_score_does_not_follow_from_its_games_is_refused() -> None:
    data = _play_match(Match(Rules.QUICK, seed=5)).to_json()
    data["score"] = [data["score"][0] + 1, data["score"][1]]
    with pytest.raises(PositionError, match="does not follow from its games"):
        Match.from_json(data)


def test_a_match_whose_games_do_not_follow_from_its_seed_is_refused() -> None:
    data = _play_match(Match(Rules.QUICK, seed=5)).to_json()
    data["seed"] = 6
    with pytest.raises(SpiteMaliceError):
        Match.from_json(data)


def test_a_match_books_each_game_once() -> None:
    match = Match(Rules.QUICK, seed=7)
    _finish(match.next_game())
    match.book()
    match.book()
    assert len(match.records) == 1
    assert sum(match.score) == (match.records[0].result or Outcome(None, 0, "")).points
    match.next_game()
    with pytest.raises(SpiteMaliceError, match="the current game is not over yet"):
        match.next_game()


def test_r1_4_option_alternate_first_player_in_a_match() -> None:
    match = _play_match(Match(Rules(payoff_size=10, first_player="alternate"), seed=8))
    firsts = [r.first if r.first is not None else -1 for r in match.records]
    assert len(firsts) >= 3
    by_card = Game.new(match.records[0].seed, Rules.QUICK).first
    assert firsts[0] == by_card  # the first game by the higher pay-off top
    assert firsts == [(firsts[0] + i) % 2 for i in range(len(firsts))]


def test_r1_4_option_the_loser_of_the_last_game_starts_in_a_match() -> None:
    match = _play_match(Match(Rules(payoff_size=10, first_player="loser"), seed=9))
    records = match.records
    assert len(records) >= 3
    for last, this in itertools.pairwise(records):
        assert last.result is not None
        if last.result.winner is None:
            assert this.first == 1 - (last.first or 0)  # after a draw, the other player
        else:
            assert this.first == 1 - last.result.winner
    winners = {r.result.winner for r in records if r.result is not None}
    assert winners == {0, 1}  # so both cases of "the loser starts" were exercised


def test_r1_4_in_a_match_with_higher_card_the_higher_top_always_starts() -> None:
    match = _play_match(Match(Rules.QUICK, seed=10))
    for record in match.records:
        assert record.first == Game.new(record.seed, record.rules).first


def test_a_record_with_lower_case_moves_replays() -> None:
    data = _load("quick_win_with_kings")
    lowered = dict(data, moves=[move.lower() for move in data["moves"]])
    want = _load("quick_win_with_kings.expected")
    assert GameRecord.from_json(lowered).replay().to_position() == want["final_position"]


def test_a_match_game_carries_the_score_before_it_into_its_position() -> None:
    match = _play_match(Match(Rules.QUICK, seed=11), games=2)
    assert sum(match.score) > 0
    played = match.next_game()
    assert played.to_position()["score"] == match.score
    again = Game.from_position(played.to_position())
    assert again.to_position() == played.to_position()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("a match", "a match must be a JSON object"),
        ({"seed": "x"}, "the match seed must be a whole number, not 'x'"),
        ({"players": ["Ann", "Bob"]}, "the match seed must be a whole number, not None"),
        ({"seed": 1, "players": "AB"}, "a match has two players"),
        ({"seed": 1, "games": 5}, "the match games must be a list of game records"),
        ({"seed": 1, "score": 5}, "the match score 5 does not follow from its games"),
        ({"seed": 1, "score": [0, 3]}, "the match score [0, 3] does not follow from its games"),
    ],
)
def test_a_malformed_match_is_refused_saying_why(data: Any, message: str) -> None:
    with pytest.raises(PositionError) as caught:
        Match.from_json(data)
    assert message in str(caught.value)


def test_r5_1_a_finished_game_counts_for_the_match_without_booking_it() -> None:
    match = Match(Rules(payoff_size=5, match_target=1), seed=4)
    game = match.next_game()
    while not game.is_over:
        game.apply(reference_move(game))
    assert game.outcome is not None and game.outcome.winner is not None
    assert match.is_over  # no book() call: asking is enough
    assert match.score[game.outcome.winner] == game.outcome.points
    assert match.winner == game.outcome.winner
    assert len(match.records) == 1
