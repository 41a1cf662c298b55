"""The table layer on its own, without a server or a terminal: undo and its barriers, hints
and the assisted mark, the computer's turns and its fallback, resigning, the next game and
rematches, and the steps a store keeps."""

from __future__ import annotations

from dataclasses import replace

import pytest

from spite_malice.bots import Bot, reference_move
from spite_malice.engine import Move, Observation
from spite_malice.engine.errors import SpiteMaliceError
from spite_malice.engine.match import DREW_FIVE, TURNED_UP
from spite_malice.engine.moves import ALL_MOVES
from spite_malice.table import (
    COMPUTER,
    DEAL,
    FRIEND,
    PERSON,
    Seat,
    Step,
    Table,
    TableError,
    choose,
    level_label,
)
from spite_malice.table.table import ABANDONED, FINISHED, PLAYING
from undo_scenes import RULES, hand_emptied, new_table, payoff_turned, play


def person_to_move(seed: int) -> Table:
    table = new_table(seed)
    while table.game.to_move != 0:
        play(table, str(reference_move(table.game)))
    return table


def replay(scene_moves: tuple[str, ...], seed: int) -> Table:
    table = new_table(seed)
    for move in scene_moves:
        play(table, move)
    return table


def test_r3_4a_a_payoff_build_that_turns_up_a_card_cannot_be_undone() -> None:
    scene = payoff_turned()
    table = replay(scene.moves, scene.seed)
    seen = table.game.players[0].payoff[-1]
    assert table.undo_barrier(0) == f"That move cannot be taken back: {TURNED_UP}."
    assert not table.can_undo(0)
    with pytest.raises(TableError, match="a new card was turned up") as refused:
        table.check_undo(0)
    assert refused.value.code == "no_undo"
    # the peek is impossible: the turned-up card stays turned up, the move stays made
    assert table.game.players[0].payoff[-1] == seen
    assert str(table.game.moves[-1]) == scene.moves[-1]


def test_r3_4c_emptying_the_hand_draws_five_and_cannot_be_undone() -> None:
    scene = hand_emptied()
    table = replay(scene.moves, scene.seed)
    assert len(table.game.players[0].hand) == 5
    assert table.undo_barrier(0) == f"That move cannot be taken back: {DREW_FIVE}."
    with pytest.raises(TableError, match="five new cards were drawn"):
        table.check_undo(0)


def test_undo_goes_back_to_the_barrier_and_no_further() -> None:
    """After a barrier, later moves of the turn can be taken back, but not the barrier."""
    scene = payoff_turned()
    for seed in range(scene.seed, scene.seed + 200):
        table = new_table(seed)
        while not table.is_game_over:
            game = table.game
            move = reference_move(game)
            revealed = play(table, str(move))
            if game.to_move != 0 or game.is_over or not move.is_from_payoff:
                continue
            if not any(type(e).__name__ == "PayoffTurned" for e in revealed):
                continue
            builds = [m for m in game.legal_moves() if m.is_build and not m.is_from_payoff]
            if not builds:
                continue
            play(table, str(builds[0]))
            if game.to_move != 0 or table.undo_barrier(0) is not None:
                continue
            taken = table.apply(table.check_undo(0)).move
            assert taken is builds[0]
            assert table.undo_barrier(0) is not None  # back at the barrier: no further
            with pytest.raises(TableError, match="a new card was turned up"):
                table.check_undo(0)
            return
    raise AssertionError("no seed gives a build after a pay-off build")


def test_undo_takes_back_a_plain_build_exactly_and_marks_the_game_assisted() -> None:
    for seed in range(100):
        table = person_to_move(seed)
        game = table.game
        builds = [m for m in game.legal_moves() if m.is_build and not m.is_from_payoff]
        if not builds:
            continue
        before = game.to_position()
        play(table, str(builds[0]))
        if table.game.to_move != 0 or table.undo_barrier(0) is not None:
            continue
        assert not table.is_assisted
        applied = table.apply(table.check_undo(0))
        assert applied.move is builds[0]
        assert table.game.to_position() == before
        assert table.is_assisted and table.match_view()["games"] == []
        return
    raise AssertionError("no seed gives a plain first build")


def test_undo_is_refused_with_nothing_this_turn_and_for_the_computer() -> None:
    table = person_to_move(3)
    with pytest.raises(TableError, match="Nothing of your current turn"):
        table.check_undo(0)
    with pytest.raises(TableError, match="computer"):
        table.check_undo(1)
    friends = Table.new(RULES, (Seat(PERSON, "Ann", "a"), Seat(FRIEND, "Bob", "b")), seed=1)
    friends.apply(friends.check_deal())
    with pytest.raises(TableError, match="against the computer"):
        friends.check_undo(friends.game.to_move)


def test_checking_changes_nothing_and_steps_number_the_log() -> None:
    table = person_to_move(4)
    position = table.game.to_position()
    plies = table.plies
    step = table.check_move(0, str(table.game.legal_moves()[0]))
    assert table.game.to_position() == position and table.plies == plies
    assert (step.game, step.ply) == (1, plies)
    table.apply(step)
    assert table.plies == plies + 1
    with pytest.raises(Exception, match="does not follow"):
        table.apply(step)  # a step applied twice would fork the log


def test_bad_requests_are_refused_with_codes() -> None:
    table = person_to_move(5)
    with pytest.raises(TableError) as refused:
        table.check_move(0, "X9-Q1")
    assert refused.value.code == "bad_notation"
    with pytest.raises(TableError) as refused:
        table.check_move(1, str(table.game.legal_moves()[0]))
    assert refused.value.code == "not_your_turn"
    illegal = next(m for m in ALL_MOVES if m not in table.game.legal_moves())
    with pytest.raises(TableError) as refused:
        table.check_move(0, illegal)
    assert refused.value.code == "illegal_move" and refused.value.reason in str(refused.value)
    with pytest.raises(TableError) as refused:
        table.check_deal()
    assert refused.value.code == "game_not_over"


def test_a_hint_is_legal_and_marks_the_game_assisted() -> None:
    table = person_to_move(6)
    suggestion = table.suggest(0)
    assert suggestion.moves[0] in table.game.legal_moves() and suggestion.reason
    table.apply(table.check_hint(0))
    assert table.is_assisted
    with pytest.raises(TableError):
        table.check_hint(1)


def test_the_computer_plays_its_turns_and_a_failing_bot_falls_back() -> None:
    table = new_table(7)
    while not table.is_game_over:
        if table.computer_to_move:
            play(table, str(table.think()))
        else:
            play(table, str(reference_move(table.game)))
    assert table.game.is_over

    class Crasher(Bot):
        def choose(self, observation: Observation) -> Move:
            raise RuntimeError("boom")

    class Cheater(Bot):
        def choose(self, observation: Observation) -> Move:
            return next(m for m in ALL_MOVES if m not in observation.legal_moves)

    observation = person_to_move(8).observation(0)
    for bot in (Crasher(), Cheater()):
        assert choose(bot, observation) in observation.legal_moves


def test_a_finished_game_says_what_it_counts_for_and_the_next_is_dealt() -> None:
    table = person_to_move(9)
    table.apply(table.check_hint(0))
    last = None
    while not table.is_game_over:
        last = table.check_move(table.game.to_move, reference_move(table.game))
        table.apply(last)
    assert last is not None and last.finished is not None
    assert last.finished.result == table.game.outcome
    assert last.finished.moves == tuple(str(m) for m in table.game.moves)
    assert last.assisted  # the hint marked the game
    deal = table.check_deal()
    assert deal.kind == DEAL and deal.game == 2 and deal.seed is not None
    table.apply(deal)
    assert table.game_number == 2 and table.status == PLAYING


def test_a_whole_match_finishes_and_a_rematch_keeps_the_seats() -> None:
    table = new_table(10)
    while True:
        while not table.is_game_over:
            table.apply(table.check_move(table.game.to_move, reference_move(table.game)))
        if table.match.is_over:
            break
        table.apply(table.check_deal())
    assert table.status == FINISHED
    with pytest.raises(TableError, match="match is over"):
        table.check_deal()
    again = table.rematch(level="easy")
    assert again.seats[0] == table.seats[0]
    assert again.seats[1] == Seat(COMPUTER, level_label("easy"))
    assert not again.is_dealt


def test_resigning_ends_the_match_as_a_lost_game() -> None:
    table = person_to_move(11)
    step = table.check_resign(0)
    assert step.finished is not None and step.finished.result is not None
    assert step.finished.result.winner == 1 and step.finished.result.points == 0
    table.apply(step)
    assert table.status == ABANDONED and table.is_game_over
    with pytest.raises(TableError):
        table.check_move(0, str(reference_move(table.game)))


def test_a_restored_table_is_the_table_its_steps_made() -> None:
    seats = (Seat(PERSON, "Ann", "ann"), Seat(COMPUTER, "Reference"))
    fresh = Table.new(RULES, seats, level="reference", seed=12)
    steps = [fresh.check_deal()]
    fresh.apply(steps[-1])
    for _ in range(30):
        if fresh.is_game_over:
            break
        steps.append(fresh.check_move(fresh.game.to_move, reference_move(fresh.game)))
        fresh.apply(steps[-1])
    again = Table.restore(RULES, 12, fresh.meta, steps)
    assert again.game.to_position() == fresh.game.to_position()
    assert (again.game_number, again.plies) == (fresh.game_number, fresh.plies)


def test_unseeded_matches_deal_every_game_from_secret_randomness() -> None:
    seats = (Seat(PERSON, "Ann", "a"), Seat(COMPUTER, "Easy"))
    seeds = set()
    for _ in range(3):
        table = Table.new(RULES, seats, level="easy")
        assert table.match.seed is None
        deal = table.check_deal()
        assert deal.seed is not None and deal.seed == table.match.next_seed()
        seeds.add(deal.seed)
    assert len(seeds) == 3


def test_the_meta_round_trips() -> None:
    from spite_malice.table import TableMeta

    table = new_table(13)
    assert TableMeta.from_json(table.meta.to_json()) == table.meta
    joined = replace(table.meta, joined_at=1_790_000_000.25)  # a friend took the seat then
    assert TableMeta.from_json(joined.to_json()) == joined
    for odd in (True, "1790000000", -1, None):  # what is not a time is no join time
        assert TableMeta.from_json(joined.to_json() | {"joined_at": odd}).joined_at is None
    paired = replace(table.meta, pool="quick")  # a rated match between strangers
    assert TableMeta.from_json(paired.to_json()) == paired
    assert "pool" not in table.meta.to_json()
    for odd in ("blitz", 1, None):  # only a rules preset's name is a pool
        assert TableMeta.from_json(paired.to_json() | {"pool": odd}).pool is None


def test_every_move_that_ends_a_game_is_checked_on_a_trial_copy() -> None:
    """The quick test that spares most moves a trial copy never misses a game's end
    (a win, a short stock, the turn limit), over random games of several rule sets."""
    import random

    from spite_malice.engine import Game, Rules
    from spite_malice.table.table import _may_end_game

    ends = 0
    for seed in range(60):
        rules = Rules(payoff_size=5 + seed % 6, decks=2 + seed % 2)
        game = Game.new(seed, rules)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_moves()
            builds = [m for m in legal if m.is_build]
            move = rng.choice(builds) if builds and rng.random() < 0.8 else rng.choice(legal)
            flagged = _may_end_game(game, move)
            game.apply(move)
            if game.is_over:
                ends += 1
                assert flagged, f"seed {seed}: {move} ended the game unflagged"
    assert ends == 60


@pytest.mark.parametrize("dealt", [True, False], ids=["dealt again", "copied"])
def test_a_roll_back_returns_to_the_savepoint_exactly(dealt: bool) -> None:
    """Moves applied after a savepoint (a computer's turn stored as one write) are undone
    by rolling back: the game, its log and its plies are as they were, and playing on from
    there gives what playing on without the detour gives (the same draws and shuffles). A
    dealt game is dealt again from its seed; one without a seed is copied."""
    table, twin = new_table(11), new_table(11)
    for _ in range(12):  # into the game, both alike
        move = str(reference_move(table.game))
        play(table, move)
        play(twin, move)
    seed = table.game.seed
    if not dealt:
        table.game.seed = None  # as a game set up from a position: only a copy brings it back
    point = table.savepoint()
    table.game.seed = seed
    assert (point.game is None) is dealt
    before = (table.plies, [str(e) for e in table.game.events], table.observation(0))
    for _ in range(6):  # a detour, through draws and turns
        if table.is_game_over:
            break
        play(table, str(reference_move(table.game)))
    table.roll_back(point)
    table.game.seed = seed  # the copy's (the record of the game's end needs it)
    assert (table.plies, [str(e) for e in table.game.events], table.observation(0)) == before
    for _ in range(200):
        if table.is_game_over:
            break
        move = str(reference_move(table.game))
        assert [str(e) for e in play(table, move)] == [str(e) for e in play(twin, move)]
    assert table.observation(1) == twin.observation(1)
    assert [str(e) for e in table.game.events] == [str(e) for e in twin.game.events]


@pytest.mark.parametrize("dealt", [True, False], ids=["dealt again", "copied"])
def test_a_roll_back_undoes_the_shuffles_since_the_savepoint(dealt: bool) -> None:
    """The random generator is as it was at the savepoint after a roll back, also when the
    moves since drew from it (a shuffle of the finished builds into the stock): the game
    shuffles on as it would have without the detour."""
    table, twin = new_table(5), new_table(5)
    if not dealt:
        table.game.seed = None
    point = table.savepoint()
    assert table.game.rng is not None and twin.game.rng is not None
    table.game.rng.random()  # a shuffle during the detour
    play(table, str(reference_move(table.game)))
    table.roll_back(point)
    assert table.game.rng is not None
    assert table.game.rng.getstate() == twin.game.rng.getstate()
    assert [table.game.rng.random() for _ in range(5)] == [twin.game.rng.random() for _ in range(5)]


def test_a_savepoint_ahead_of_the_table_is_refused() -> None:
    table = new_table(3)
    early = table.savepoint()
    for _ in range(3):
        play(table, str(reference_move(table.game)))
    later = table.savepoint()
    table.roll_back(early)
    with pytest.raises(SpiteMaliceError):
        table.roll_back(later)  # its moves are no longer on the table


def test_the_commitment_and_reveal_made_once_a_game_follow_the_game() -> None:
    """R6: nothing hidden is shown while a game is played; the salt and commitment made once
    a game, and the reveal made once a finished game, are those of the game the table holds
    (the same as a table restored from the same steps makes afresh), never a game before."""
    seats = (Seat(PERSON, "Ann", "ann"), Seat(COMPUTER, "Reference"))
    table = Table.new(RULES, seats, level="reference", seed=21)
    steps = [table.check_deal()]
    table.apply(steps[-1])

    def fresh() -> Table:
        return Table.restore(RULES, 21, table.meta, steps)

    first = table.commitment()
    assert first is not None and table.reveal() is None
    assert first == fresh().commitment()
    while not table.is_game_over:
        steps.append(table.check_move(table.game.to_move, reference_move(table.game)))
        table.apply(steps[-1])
        assert table.commitment() == first
    reveal = table.reveal()
    assert reveal is not None and reveal == fresh().reveal()
    assert reveal["commitment"] == first and reveal["game"] == 1
    assert table.reveal() == reveal

    steps.append(table.check_deal())
    table.apply(steps[-1])
    second = table.commitment()
    assert second is not None and second != first and second == fresh().commitment()
    assert table.reveal() is None  # game 2 is being played
    steps.append(table.check_resign(0))
    table.apply(steps[-1])
    ended = table.reveal()
    assert ended is not None and ended["game"] == 2 and ended["commitment"] == second
    assert ended == fresh().reveal() and ended["record"] != reveal["record"]


def test_the_match_view_kept_between_states_follows_the_match() -> None:
    """Every state carries the match's view, made again only when what it shows changed:
    after every step it is the one a table restored from the same steps makes afresh (a
    hint's assisted mark, a roll back, a game's end, the next deal, a resignation)."""
    seats = (Seat(PERSON, "Ann", "ann"), Seat(COMPUTER, "Reference"))
    table = Table.new(RULES, seats, level="reference", seed=23)
    steps = [table.check_deal()]

    def step(made: Step) -> None:
        steps.append(made)
        table.apply(made)
        assert table.match_view() == Table.restore(RULES, 23, table.meta, steps).match_view()

    table.apply(steps[0])
    before = table.match_view()
    while table.game.to_move != 0:
        step(table.check_move(table.game.to_move, reference_move(table.game)))
    step(table.check_hint(0))  # the game is marked assisted from here on
    assert table.match_view()["games"] == before["games"]  # no finished game yet
    point = table.savepoint()
    kept = table.match_view()
    table.apply(table.check_move(0, reference_move(table.game)))
    table.roll_back(point)
    assert table.match_view() == kept
    while not table.is_game_over:
        step(table.check_move(table.game.to_move, reference_move(table.game)))
    over = table.match_view()
    assert over["games"] and over["games"][0]["assisted"] and over != before
    step(table.check_deal())
    assert table.match_view()["game_number"] == 2
    step(table.check_resign(0))
