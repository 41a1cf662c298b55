"""The tutorial's lessons: every deal is a legal position, every goal is reachable, and a
wrong move is refused with a plain explanation and leaves the game as it was."""

from __future__ import annotations

import re

import pytest

from spite_malice.bots import LEVELS
from spite_malice.engine import Game
from spite_malice.engine.events import CardsDrawn, GameWon, StackCompleted
from spite_malice.tutorial import (
    LESSONS,
    PRACTICE_LEVEL,
    PRACTICE_RULES,
    Lesson,
    LessonRun,
    Progress,
    TutorialError,
    lesson_named,
)
from spite_malice.tutorial.lesson import plain

NOTATION = re.compile(r"\b([PH][2-9TJQKA]?|S[1-4])-[CS][1-4]\b|\b[A2-9TJQK][SHDC]\b")
"""Move or card notation, which player-facing text must never contain."""

KEYS = [lesson.key for lesson in LESSONS]


def _texts(run: LessonRun) -> list[str]:
    """Every sentence the current step can say: its instruction, tip and each wrong move's
    explanation."""
    step = run.step
    assert step is not None
    texts = [step.say, step.tip]
    for move in run.legal_moves():
        if not step.goal(run.game, move):
            texts.append(step.wrong(run.game, move))
    return texts


@pytest.mark.parametrize("key", KEYS)
def test_deal_is_a_legal_position_of_104_cards(key: str) -> None:
    lesson = lesson_named(key)
    game = lesson.start()
    counted = len(game.stock) + sum(len(s) for s in game.center)
    for player in game.players:
        counted += len(player.payoff) + len(player.hand) + sum(len(s) for s in player.side)
    assert counted == 104  # R0.1
    again = Game.from_position(game.to_position())  # the engine reads it back unchanged
    assert again.to_position() == game.to_position()
    assert game.to_move == 0 and game.legal_moves()


@pytest.mark.parametrize("key", KEYS)
def test_goal_is_reachable_with_legal_moves(key: str) -> None:
    lesson = lesson_named(key)
    run = LessonRun(lesson)
    for example in lesson.examples:
        assert example in [m.notation for m in run.legal_moves()]  # the engine allows it
        attempt = run.attempt(example)
        assert attempt.accepted and attempt.finished_step, attempt.text
        assert attempt.text and not NOTATION.search(attempt.text)
    assert run.is_finished
    assert not NOTATION.search(run.instruction)
    assert LessonRun.replay(lesson, run.moves).game.to_position() == run.game.to_position()


@pytest.mark.parametrize("key", KEYS)
def test_every_wrong_move_is_explained_in_plain_words(key: str) -> None:
    lesson = lesson_named(key)
    run = LessonRun(lesson)
    for example in lesson.examples:
        for text in _texts(run):
            assert text and text[0].isupper(), text
            assert not NOTATION.search(text), text
        run.attempt(example)


@pytest.mark.parametrize("key", KEYS)
def test_a_wrong_move_changes_nothing(key: str) -> None:
    lesson = lesson_named(key)
    run = LessonRun(lesson)
    step = run.step
    assert step is not None
    wrong = next(
        (m for m in run.legal_moves() if not step.goal(run.game, m)),
        None,
    )
    assert wrong is not None  # every first step has a legal move that misses its goal
    before = run.game.to_position()
    attempt = run.attempt(wrong)
    assert not attempt.accepted and not attempt.finished_step
    assert attempt.text == step.wrong(run.game, wrong)
    assert run.game.to_position() == before and run.moves == [] and run.index == 0


def test_an_illegal_move_gives_the_engines_reason_and_a_tip() -> None:
    run = LessonRun(lesson_named("payoff"))
    attempt = run.attempt("H8-C1")  # R3.1: an empty center stack needs an Ace
    assert not attempt.accepted
    assert attempt.text.startswith("Center 1 needs an Ace.")
    assert "Ace of spades" in attempt.text
    assert run.attempt("garbage").text.startswith("That is not a move.")


def test_plain_drops_rule_numbers() -> None:
    assert plain("a card never moves from one side stack to another (R3.5)") == (
        "A card never moves from one side stack to another"
    )


def test_r3_4_c_the_hand_lesson_draws_five_when_the_hand_empties() -> None:
    run = LessonRun(lesson_named("hand"))
    for move in ("HA-C2", "H2-C2", "H3-C2", "H4-C2"):  # any center for the Ace works
        assert run.attempt(move).accepted
    attempt = run.attempt("H5-C2")
    assert any(isinstance(e, CardsDrawn) and e.count == 5 for e in attempt.events)
    assert len(run.game.players[0].hand) == 5
    assert run.attempt("H6-C2").accepted and run.is_finished


def test_r3_1_king_on_ten_is_a_jack() -> None:
    run = LessonRun(lesson_named("kings"))
    wrong = run.attempt("HK-C2")
    assert not wrong.accepted and "count as a four" in wrong.text
    assert run.attempt("HK-C1").accepted
    assert len(run.game.center[0]) == 11  # the King stands for the eleventh card, a Jack


def test_r3_3_side_stack_order_is_explained_and_the_opponent_plays_its_turn() -> None:
    run = LessonRun(lesson_named("side"))
    wrong = run.attempt("H6-S2")
    assert not wrong.accepted and "cover your Five" in wrong.text
    attempt = run.attempt("H6-S1")
    assert [m.notation for m in attempt.opponent_moves] == ["H4-C1", "HJ-S1"]
    assert run.game.to_move == 0 and len(run.game.center[0]) == 4
    for move in ("S2-C1", "S1-C1", "S1-C1", "H8-C1"):
        assert run.attempt(move).accepted, move
    assert len(run.game.center[0]) == 8


def test_r3_4_b_a_finished_stack_goes_into_the_stock() -> None:
    run = LessonRun(lesson_named("complete"))
    stock = len(run.game.stock)
    attempt = run.attempt("P-C1")
    assert any(isinstance(e, StackCompleted) for e in attempt.events)
    assert len(run.game.stock) == stock + 12 and run.game.center[0] == []
    assert f"{stock + 12} cards" in attempt.text


def test_blocking_refuses_a_move_that_feeds_the_opponent() -> None:
    run = LessonRun(lesson_named("block"))
    first = run.attempt("H9-S1")
    assert not first.accepted and "your opponent builds the Six" in first.text
    assert run.attempt("H6-C1").accepted
    feeding = run.attempt("H5-C2")  # center 2 would then need the opponent's 6
    assert not feeding.accepted and "would need a six" in feeding.text
    safe = run.attempt("H9-C3")  # a build that gives the opponent nothing is allowed
    assert safe.accepted and not safe.finished_step
    done = run.attempt("H5-S1")
    assert done.finished_step and [m.notation for m in done.opponent_moves] == ["HT-S1"]
    assert run.game.players[1].payoff[-1] % 13 == 5  # the 6 is still on their pile


def test_r4_1_the_score_lesson_wins_the_match_points() -> None:
    run = LessonRun(lesson_named("score"))
    attempt = run.attempt("P-C1")
    assert any(isinstance(e, GameWon) for e in attempt.events)
    assert run.game.outcome is not None and run.game.outcome.points == 8
    assert "brings you to 50" in attempt.text


def test_replay_refuses_moves_the_lesson_does_not_accept() -> None:
    lesson = lesson_named("payoff")
    with pytest.raises(TutorialError, match="move 1"):
        LessonRun.replay(lesson, ["H8-S1"])
    with pytest.raises(TutorialError):
        lesson_named("nothing")
    finished = LessonRun.replay(lesson, list(lesson.examples))
    assert not finished.attempt("P-C1").accepted  # a finished lesson takes no more moves


def test_lessons_have_distinct_keys_and_cite_rules() -> None:
    assert len(set(KEYS)) == len(KEYS) == 8  # the eighth (issue 43): the stock running out, R4.2
    for lesson in LESSONS:
        assert isinstance(lesson, Lesson) and lesson.rules
        assert all(re.fullmatch(r"R\d\.\d(\([a-z]\))?", rule) for rule in lesson.rules)


def test_progress_round_trips_and_tolerates_bad_data() -> None:
    progress = Progress().with_finished("payoff").with_finished("payoff").with_offered()
    assert progress.finished == ("payoff",) and progress.offered
    assert Progress.from_json(progress.to_json()) == progress
    assert Progress.from_json("junk") == Progress()
    assert Progress.from_json({"finished": [1, "hand", "hand"], "offered": "yes"}) == Progress(
        ("hand",), False
    )
    assert progress.next_lesson(tuple(KEYS)) == "hand"


def test_practice_game_is_against_easy_with_short_piles() -> None:
    assert PRACTICE_LEVEL == "easy" and PRACTICE_LEVEL in LEVELS
    assert PRACTICE_RULES.payoff_size == 10


@pytest.mark.parametrize("key", KEYS)
def test_show_me_names_a_move_that_does_the_step(key: str) -> None:
    run = LessonRun(lesson_named(key))
    while not run.is_finished:
        shown = run.show_me()
        assert shown is not None
        move, text = shown
        assert text.startswith("Show me: ") and not NOTATION.search(text)
        assert run.attempt(move).finished_step
    assert run.show_me() is None


def test_show_me_follows_the_learners_own_stack() -> None:
    run = LessonRun(lesson_named("hand"))
    assert run.attempt("HA-C3").accepted  # the Ace started center 3, not the example's 1
    shown = run.show_me()
    assert shown is not None and shown[0].notation == "H2-C3"
    assert shown[1] == "Show me: build the Two of spades from your hand on center 3."


def test_a_deal_that_names_a_card_three_times_is_refused() -> None:
    from spite_malice.engine import Rules
    from spite_malice.tutorial.deal import lesson_position

    with pytest.raises(TutorialError, match="more often than the decks hold"):
        lesson_position(
            rules=Rules.QUICK,
            payoff=["AS", "AS"],
            hand=["AS"],
            opponent_top="TD",
            opponent_hand=[],
            opponent_payoff=10,
        )


def test_r4_2_the_draw_lesson_ends_in_a_drawn_game_when_the_stock_runs_out() -> None:
    run = LessonRun(lesson_named("draw"))
    assert run.game.stock == [] and run.game.outcome is None
    for move in lesson_named("draw").examples:
        assert run.attempt(move).accepted
    outcome = run.game.outcome
    assert outcome is not None and outcome.winner is None and outcome.points == 0
    assert run.is_finished
