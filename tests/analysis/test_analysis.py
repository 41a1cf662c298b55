"""Where a game was lost: hand-made positions where one choice is clearly worse, the hidden-twins
test (R6.3), the report's JSON, progress and cancellation."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from spite_malice.analysis import (
    AnalysisCancelled,
    Report,
    Settings,
    analyse_game,
    analyse_record,
    record_decisions,
    seat_decisions,
)
from spite_malice.bot_registry import make_bot
from spite_malice.engine import Game, GameRecord, PositionError, Rules

from . import positions as P

FAST = Settings(samples=24, horizon=2, candidates=3)
"""Small enough for a quick test, large enough that the clear mistakes stand out."""

NOTATION = re.compile(r"\b(?:P|H[A2-9TJQK]|S[1-4])-(?:C[1-4]|S[1-4])\b")


def only_decision(report: Report) -> Any:
    assert len(report.turns) == 1
    (decision,) = report.turns[0].decisions
    return decision


def test_not_playing_the_payoff_card_is_found_r3_1() -> None:
    start = P.game(P.missed_payoff())
    report = analyse_game(start, ["H9-S1"], 0, settings=FAST)
    decision = only_decision(report)
    assert decision.lost >= 0.5
    assert decision.better == ("P-C1",)
    assert decision.reason == "You could have played your pay-off card, the Three."
    assert report.worst[0].turn == 1
    assert report.total_lost == decision.lost


def test_playing_the_payoff_card_loses_nothing() -> None:
    start = P.game(P.missed_payoff())
    plan = ["P-C1", "H5-S1"]
    game = start.copy()
    game.play(plan[0])
    decisions = seat_decisions(start, plan, 0)
    assert decisions[0].moves == (game.moves[0],)  # R3.4(a): a new card is seen
    report = analyse_game(start, plan, 0, settings=FAST)
    first = report.turns[0].decisions[0]
    assert first.lost == 0.0
    assert first.reason == ""
    assert first.better == first.played == ("P-C1",)


def test_feeding_the_opponents_payoff_card_is_found() -> None:
    start = P.game(P.fed_opponent())
    report = analyse_game(start, ["H6-C1", "H8-S1"], 0, settings=FAST)
    decision = only_decision(report)
    assert decision.lost >= 0.5
    assert "H6-C1" not in decision.better  # the better turn keeps the 6 back
    assert decision.reason == "Center 1 was left at a six, one below your opponent's Seven."


def test_burying_the_needed_card_is_found() -> None:
    start = P.game(P.buried_card())
    builds = ["HA-C2", "H2-C2", "H3-C2", "H4-C2"]
    report = analyse_game(start, [*builds, "H9-S2"], 0, settings=FAST)
    decision = only_decision(report)
    assert decision.lost > 0.25
    assert decision.better[-1] != "H9-S2"
    assert decision.reason == "Your Nine on side stack 2 buried the Eight you needed."
    # the same builds with the 9 elsewhere lose nothing
    kept = analyse_game(start, [*builds, "H9-S1"], 0, settings=FAST)
    assert only_decision(kept).lost == 0.0


def _played_on(start: Game, first_turn: list[str], turns: int) -> list[str]:
    """``first_turn`` for seat 0, then Hard for both seats for ``turns`` more turns."""
    game = start.copy()
    for move in first_turn:
        game.play(move)
    bots = [make_bot("hard", 1), make_bot("hard", 2)]
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    while not game.is_over and game.turn <= 1 + turns:
        game.play(bots[game.to_move].choose(game.observation(game.to_move)))
    return [str(move) for move in game.moves]


def test_the_report_finds_the_bad_turn_among_good_ones() -> None:
    start = P.game(P.fed_opponent())
    moves = _played_on(start, ["H6-C1", "H8-S1"], 6)
    report = analyse_game(start, moves, 0, settings=FAST)
    assert len(report.turns) >= 3
    worst = report.worst[0]
    assert worst.turn == 1
    assert worst.worst.reason == "Center 1 was left at a six, one below your opponent's Seven."
    assert report.best is not None and report.best.turn != 1
    for turn in report.turns[1:]:
        assert turn.lost < worst.lost


def test_reasons_and_words_never_show_notation() -> None:
    start = P.game(P.fed_opponent())
    report = analyse_game(start, _played_on(start, ["H6-C1", "H8-S1"], 6), 0, settings=FAST)
    text = report.to_text()
    assert not NOTATION.search(text), text
    for turn in report.turns:
        for d in turn.decisions:
            for words in (d.reason, d.table, d.played_words, d.better_words):
                assert not NOTATION.search(words), words
                assert "Traceback" not in words
            assert not d.reason or d.reason[0].isupper()


# -------------------------------------------------------------------- hidden information


def hidden_shuffled(game: Game, seat: int, seed: int) -> dict[str, Any]:
    """``game``'s position with every card ``seat`` cannot see dealt anew (R6.2): the other
    hand, the stock and both face-down pay-off piles."""
    position = game.to_position()
    other = position["players"][1 - seat]
    hidden = list(other["hand"]) + position["stock"]
    for player in position["players"]:
        hidden += player["payoff"][:-1]
    random.Random(seed).shuffle(hidden)
    at = 0

    def take(count: int) -> list[str]:
        nonlocal at
        at += count
        return hidden[at - count : at]

    other["hand"] = take(len(other["hand"]))
    position["stock"] = take(len(position["stock"]))
    for player in position["players"]:
        player["payoff"] = take(len(player["payoff"]) - 1) + player["payoff"][-1:]
    return position


@pytest.mark.parametrize("case", ["missed", "fed", "buried"])
def test_hidden_twins_get_the_same_report_r6_3(case: str) -> None:
    spec, moves = {
        "missed": (P.missed_payoff(), ["H9-S1"]),
        "fed": (P.fed_opponent(), ["H6-C1", "H8-S1"]),
        "buried": (P.buried_card(), ["HA-C2", "H2-C2", "H3-C2", "H4-C2", "H9-S2"]),
    }[case]
    start = P.game(spec)
    twins = [start, *(Game.from_position(hidden_shuffled(start, 0, k), seed=5) for k in (1, 2))]
    assert twins[1].stock != start.stock and twins[2].stock != start.stock
    assert twins[1].players[1].hand != start.players[1].hand
    assert all(t.observation(0) == start.observation(0) for t in twins)
    reports = [analyse_game(t, moves, 0, settings=FAST).to_json() for t in twins]
    assert reports[0] == reports[1] == reports[2]


def deep_twin(spec: dict[str, Any], seed: int) -> dict[str, Any]:
    """The position with the face-down pay-off cards below the top five of each pile dealt
    anew between the two piles: hidden cards that stay hidden for the first turns. (The stock
    stays: a completed stack reshuffles it, R3.4(b), and would bring other cards up.)"""
    twin = json.loads(json.dumps(spec))
    piles = [player["payoff"] for player in twin["players"]]
    hidden = [card for pile in piles for card in pile[:-5]]
    random.Random(seed).shuffle(hidden)
    at = 0
    for pile in piles:
        under = len(pile) - 5
        pile[:under] = hidden[at : at + under]
        at += under
    return twin


def test_hidden_twins_over_several_turns_get_the_same_report_r6_3() -> None:
    spec = P.fed_opponent(deep=True)
    start = Game.from_position(spec, seed=5)
    moves = _played_on(start, ["H6-C1", "H8-S1"], 4)
    twins = [start, *(Game.from_position(deep_twin(spec, k), seed=5) for k in (1, 2))]
    decisions = [seat_decisions(t, moves, 0) for t in twins]
    assert len(decisions[0]) >= 3
    for other, twin in zip(decisions[1:], twins[1:], strict=True):
        assert [p.payoff for p in twin.players] != [p.payoff for p in start.players]
        assert [d.observation for d in other] == [d.observation for d in decisions[0]]
    reports = [analyse_game(t, moves, 0, settings=FAST).to_json() for t in twins]
    assert reports[0] == reports[1] == reports[2]


# -------------------------------------------------------------------- records and JSON


def short_record(seed: int = 21, turns: int = 8) -> GameRecord:
    game = Game.new(seed)
    bots = [make_bot("medium", 3), make_bot("hard", 4)]
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    while not game.is_over and game.turn <= turns:
        game.play(bots[game.to_move].choose(game.observation(game.to_move)))
    return GameRecord.from_game(game, ("Ann", "Hard"))


def test_a_record_is_cut_into_the_seats_turns() -> None:
    record = short_record()
    for seat in (0, 1):
        decisions = record_decisions(record, seat)
        assert decisions
        assert all(d.observation.seat == seat and d.observation.to_move == seat for d in decisions)
        played = [m for d in decisions for m in d.moves]
        game = Game.new(record.seed)
        mine = []
        for text in record.moves:
            if game.to_move == seat:
                mine.append(text)
            game.play(text)
        assert [str(m) for m in played] == mine
        # the seat's own turn numbers, as the end of a game counts them: 1, 2, 3...
        own = sorted({d.player_turn for d in decisions})
        assert own == list(range(1, len(own) + 1))
        for d in decisions:
            assert d.player_turn == (d.turn + 1 if seat == record.first else d.turn) // 2
        # every decision ends with a discard, a pay-off build or an emptied hand (R3.4)
        for d in decisions[:-1]:
            last = d.moves[-1]
            assert last.is_discard or last.is_from_payoff or last.is_from_hand


def test_a_decision_ends_where_the_rules_say_new_cards_are_seen_r3_4() -> None:
    """The cut is read from the engine's position (the turn passed, the pay-off pile or the
    hand changed as only new cards change them); here it is held to the rules written out:
    a discard (R2.3), a pay-off build (R3.4(a)) and a hand build of the last card (R3.4(c))
    end a decision, and no other move does."""
    seen = {"discard": 0, "payoff": 0, "hand": 0}
    for seed in (21, 5, 8, 13):
        record = short_record(seed, turns=40)
        for seat in (0, 1):
            cuts: list[int] = []
            game = Game.new(record.seed, record.rules, first=record.first)
            count = 0
            for text in record.moves:
                mine = game.to_move == seat
                hand = len(game.current.hand)
                game.play(text)
                if not mine:
                    continue
                count += 1
                move = game.moves[-1]
                ends = {
                    "discard": move.is_discard,
                    "payoff": move.is_from_payoff,
                    "hand": move.is_from_hand and not move.is_discard and hand == 1,
                }
                for kind, happened in ends.items():
                    seen[kind] += happened
                if any(ends.values()) or game.is_over:
                    cuts.append(count)
            if not cuts or cuts[-1] != count:
                cuts.append(count)  # a record that stops in the middle of a turn
            lengths = [len(d.moves) for d in record_decisions(record, seat)]
            assert [sum(lengths[: i + 1]) for i in range(len(lengths))] == cuts
    assert all(seen.values()), seen  # every kind of cut was met


def test_the_report_round_trips_through_json() -> None:
    record = short_record()
    report = analyse_record(record, 1, settings=Settings(samples=4, horizon=1, candidates=2))
    data = json.loads(json.dumps(report.to_json()))
    assert Report.from_json(data) == report
    assert Report.from_json(data).to_json() == data
    assert data["unit"] == "pay-off cards expected"
    assert data["players"] == ["Ann", "Hard"]
    assert data["seat"] == 1
    assert len(data["worst"]) <= 3
    assert data["total_lost"] == pytest.approx(sum(t["lost"] for t in data["turns"]))
    with pytest.raises(PositionError):
        Report.from_json({"format": 1, "seat": 0})
    with pytest.raises(PositionError):
        Report.from_json({"format": 2})


def test_a_broken_record_is_refused() -> None:
    record = short_record()
    broken = GameRecord(seed=record.seed, moves=(*record.moves[:3], "HQ-C3"), rules=record.rules)
    with pytest.raises(PositionError, match="invalid game record: move 4"):
        analyse_record(broken, 0)
    with pytest.raises(ValueError, match="seat must be 0 or 1"):
        analyse_record(record, 2)


def test_settings_are_checked() -> None:
    for bad in ({"samples": 1}, {"horizon": -1}, {"candidates": 0}, {"z": -1.0}):
        with pytest.raises(ValueError):
            Settings(**bad)


# -------------------------------------------------------------------- running in the background


def test_progress_is_reported_for_every_decision() -> None:
    record = short_record(turns=4)
    calls: list[tuple[int, int]] = []
    analyse_record(
        record,
        0,
        settings=Settings(samples=2, horizon=0, candidates=1),
        progress=lambda d, n: calls.append((d, n)),
    )
    total = len(record_decisions(record, 0))
    assert calls == [(done, total) for done in range(total + 1)]


def test_the_analysis_stops_when_asked() -> None:
    record = short_record(turns=4)
    asked = 0

    def should_stop() -> bool:
        nonlocal asked
        asked += 1
        return asked > 3

    with pytest.raises(AnalysisCancelled):
        analyse_record(record, 0, settings=FAST, should_stop=should_stop)
    assert asked == 4


def test_the_twins_test_catches_an_analysis_that_reads_hidden_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check above has teeth: an analysis that played on the real hidden cards instead of
    sampled ones would give the twins different reports."""
    import spite_malice.analysis.judge as judge_module

    start = P.game(P.buried_card())
    twin = Game.from_position(hidden_shuffled(start, 0, 1), seed=5)
    moves = ["HA-C2", "H2-C2", "H3-C2", "H4-C2", "H9-S2"]
    reports = []
    for real in (start, twin):
        monkeypatch.setattr(judge_module, "sample_game", lambda _obs, _rng, g=real: g.copy())
        reports.append(analyse_game(real, moves, 0, settings=FAST).to_json())
    assert reports[0] != reports[1]


def test_every_rules_variant_is_analysed(varied_rules: Rules) -> None:
    """Decks, pay-off size, four center stacks, Kings that may not start a stack (R0.2, R1.2,
    R1.3, R3.2): the analysis plays by the record's rules, and a won game ends its last
    decision."""
    game = Game.new(31, varied_rules)
    bots = [make_bot("medium", 1), make_bot("hard", 2)]
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    while not game.is_over and game.turn <= 30:
        game.play(bots[game.to_move].choose(game.observation(game.to_move)))
    record = GameRecord.from_game(game)
    small = Settings(samples=2, horizon=1, candidates=2)
    for seat in (0, 1):
        report = analyse_record(record, seat, settings=small)
        assert report.turns
        assert Report.from_json(json.loads(json.dumps(report.to_json()))) == report
        assert not NOTATION.search(report.to_text())
        for turn in report.turns:
            for d in turn.decisions:
                assert len(d.position["center"]) == varied_rules.center_stacks
        if game.winner == seat:  # R2.4: the winning pay-off build ends the last decision
            assert report.turns[-1].decisions[-1].played[-1].startswith("P-")
