"""The match against the computer, without a screen: moves, undo, assisted games, texts."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from spite_malice.bots import reference_move
from spite_malice.engine import Rules, SpiteMaliceError
from spite_malice.engine.moves import ALL_MOVES, parse_move
from spite_malice.table import TableError
from spite_malice.table import levels as available_levels
from spite_malice.table.computer import suggest
from spite_malice.tui.session import COMPUTER, HUMAN, GameSession, MatchSetup
from undo_scenes import RULES, Scene, hand_emptied, payoff_turned


def new_session(seed: int = 3) -> GameSession:
    return GameSession.new(MatchSetup(rules=Rules(payoff_size=5), level="reference", seed=seed))


def play_computer_turn(session: GameSession) -> None:
    while session.is_computer_turn:
        session.play_computer(reference_move(session.game))


def human_to_move(seed: int = 3) -> GameSession:
    session = new_session(seed)
    play_computer_turn(session)
    assert session.is_human_turn
    return session


def test_illegal_move_is_refused_with_the_engines_reason() -> None:
    session = human_to_move()
    before = session.game.to_position()
    center_needs_an_ace = next(
        f"H{m.notation[1]}-C1" for m in session.legal_moves() if m.notation[1] not in "AK"
    )
    with pytest.raises(TableError, match="center 1 needs an Ace") as refused:
        session.play(center_needs_an_ace)
    assert refused.value.code == "illegal_move" and refused.value.reason == "center 1 needs an Ace"
    assert session.game.to_position() == before


def test_undo_takes_back_one_move_exactly_and_marks_the_game_assisted() -> None:
    session = human_to_move(11)
    builds = [m for m in session.legal_moves() if m.is_build]
    move = builds[0] if builds else session.legal_moves()[0]
    before = session.game.to_position()
    assert not session.can_undo
    session.play(move)
    if not session.is_human_turn:
        pytest.skip("the first move ended the turn")
    assert session.can_undo
    assert session.undo() is move
    assert session.game.to_position() == before
    assert session.is_assisted
    assert not session.can_undo


def test_undo_does_not_reach_back_into_the_previous_turn() -> None:
    session = human_to_move()
    discard = next(m for m in session.legal_moves() if m.is_discard)
    session.play(discard)
    play_computer_turn(session)
    assert not session.can_undo
    with pytest.raises(SpiteMaliceError):
        session.undo()


def test_computer_moves_are_refused_on_the_persons_turn() -> None:
    session = human_to_move()
    with pytest.raises(SpiteMaliceError, match="computer"):
        session.play_computer(session.legal_moves()[0])


def test_events_read_as_english_with_names() -> None:
    session = human_to_move()
    session.play(next(m for m in session.legal_moves() if m.is_discard))
    play_computer_turn(session)
    texts = [session.describe(event) for event in session.public_events()]
    assert any(text.startswith("You discard ") for text in texts)
    assert any(text.startswith("Reference ") for text in texts)
    assert not any("player 1" in text or "player 2" in text for text in texts)


def test_the_computers_drawn_cards_stay_hidden() -> None:
    session = human_to_move()
    session.play(next(m for m in session.legal_moves() if m.is_discard))
    play_computer_turn(session)
    for event in session.public_events():
        if getattr(event, "player", HUMAN) == COMPUTER and hasattr(event, "cards"):
            assert event.cards == ()


def test_a_whole_match_is_played_and_booked() -> None:
    session = new_session(5)
    for _ in range(200):
        while not session.game.is_over:
            if session.is_human_turn:
                session.play(reference_move(session.game))
            else:
                session.play_computer(reference_move(session.game))
        if session.match.is_over:
            break
        session.next_game()
    assert session.match.is_over
    assert sum(session.match.score) >= session.rules.match_target
    assert len(session.match.records) == session.game_number


@pytest.mark.parametrize("level", available_levels())
def test_every_level_plays_its_turn(level: str) -> None:
    session = GameSession.new(MatchSetup(rules=Rules(payoff_size=5), level=level, seed=2))
    if session.is_human_turn:
        session.play(next(m for m in session.legal_moves() if m.is_discard))
    while session.is_computer_turn:
        observation = session.observation(COMPUTER)
        move = session.bot.choose(observation)
        assert move in observation.legal_moves
        session.play_computer(move)
    assert session.game.turn >= 2 or session.game.is_over


def test_a_suggestion_is_a_legal_move_with_a_reason() -> None:
    session = human_to_move()
    suggestion = suggest(session.observation(HUMAN))
    assert suggestion.moves and suggestion.moves[0] in session.legal_moves()
    assert isinstance(suggestion.reason, str)


def test_a_failing_bot_is_replaced_by_the_reference_policy_for_that_move() -> None:
    from spite_malice.bots import Bot
    from spite_malice.engine import Move, Observation
    from spite_malice.table.computer import choose

    class Crasher(Bot):
        def choose(self, observation: Observation) -> Move:
            raise RuntimeError("boom")

    class Cheater(Bot):
        def choose(self, observation: Observation) -> Move:
            return next(m for m in ALL_MOVES if m not in observation.legal_moves)

    session = human_to_move()
    observation = session.observation(HUMAN)
    for bot in (Crasher(), Cheater()):
        assert choose(bot, observation) in observation.legal_moves


@pytest.mark.parametrize(
    ("find", "reason"),
    [(payoff_turned, "a new card was turned up"), (hand_emptied, "five new cards were drawn")],
    ids=["payoff_turned_up", "hand_drew_five"],
)
def test_undo_stops_at_a_move_that_showed_a_hidden_card(
    find: Callable[[], Scene], reason: str
) -> None:
    scene = find()
    session = GameSession.new(MatchSetup(rules=RULES, level="reference", seed=scene.seed))
    for move in scene.moves:
        if session.is_human_turn:
            session.play(move)
        else:
            session.play_computer(parse_move(move))
    before = session.game.to_position()
    assert not session.can_undo
    assert session.undo_barrier is not None and reason in session.undo_barrier
    with pytest.raises(TableError, match=reason):
        session.undo()
    assert session.game.to_position() == before
