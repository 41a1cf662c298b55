"""The terminal game driven by key presses through Textual's pilot, against the computer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import Static

from spite_malice.engine import Rules
from spite_malice.engine.moves import parse_move
from spite_malice.store import StoreUnavailable
from spite_malice.table import levels as available_levels
from spite_malice.tui.persistence import NoPersistence
from spite_malice.tui.screens import (
    GameOverScreen,
    HelpScreen,
    LogScreen,
    NewMatchScreen,
    StatsScreen,
)
from spite_malice.tui.session import GameSession
from spite_malice.tui.store_link import StorePersistence
from spite_malice.tui.widgets import MessageLine, MoveLog, PileView
from undo_scenes import RULES as SCENE_RULES
from undo_scenes import Scene, hand_emptied, payoff_turned

from .driver import (
    QUICK_WIN,
    SHORT_GAME,
    game_over_shown,
    keys_for,
    make_app,
    play_to_the_end,
    session,
    settle,
    table,
)


async def test_a_whole_game_is_played_by_key_presses() -> None:
    app = make_app(seed=SHORT_GAME)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        presses = await play_to_the_end(pilot)
        outcome = session(app).game.outcome
        assert outcome is not None
        assert presses > 0
        # the log holds the whole game, the result box says who won
        log = table(app).query_one(MoveLog)
        assert str(log.entries[0]).startswith("Cards dealt")
        text = " ".join(str(line) for line in log.entries)
        assert "win, scoring" in text or "wins, scoring" in text or "drawn" in text
        await pilot.press("n")
        await settle(pilot)
        assert not game_over_shown(app)
        assert session(app).game_number == 2
        assert len(session(app).match.records) == 1


async def test_picking_a_card_highlights_its_legal_targets() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("1")
        screen = table(app)
        assert screen.selected == "hand-0"
        source = screen._source_of("hand-0")
        assert source is not None
        targets = {p.pile_id for p in screen.query(PileView) if p.has_class("-target")}
        expected = {
            (f"center-{int(t[1:]) - 1}" if t[0] == "C" else f"side-{int(t[1:]) - 1}")
            for t in session(app).targets(source)
        }
        assert targets == expected
        assert {"side-0", "side-1", "side-2", "side-3"} <= targets  # a hand card may be discarded
        await pilot.press("escape")
        assert screen.selected is None
        assert not any(p.has_class("-target") for p in screen.query(PileView))


async def test_an_illegal_attempt_is_explained_in_a_line() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        s = session(app)
        hand = s.hand()
        # a hand card that no center stack takes: not an Ace, not a King, not needed
        needs = {len(stack) + 1 for stack in s.game.center}
        index = next(
            i for i, card in enumerate(hand) if card % 13 + 1 not in needs and card % 13 != 12
        )
        center = 0
        before = s.game.to_position()
        await pilot.press(str(index + 1), "z")
        message = table(app).query_one(MessageLine)
        assert message.tone == "error"
        assert "Not allowed" in str(message.render())
        assert f"center {center + 1} needs" in str(message.render())
        assert s.game.to_position() == before


async def test_a_pay_off_card_cannot_be_discarded() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("p", "a")
        message = table(app).query_one(MessageLine)
        assert "pay-off card may only be built on a center stack" in str(message.render())


async def test_a_hint_highlights_a_move_and_marks_the_game_assisted() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert not session(app).is_assisted
        await pilot.press("h")
        await settle(pilot)
        screen = table(app)
        assert screen.suggestion is not None
        assert screen.suggestion.moves[0] in session(app).legal_moves()
        assert screen.query_one(MessageLine).tone == "hint"
        assert "Hint:" in str(screen.query_one(MessageLine).render())
        assert any(p.has_class("-hinted") for p in screen.query(PileView))
        assert session(app).is_assisted


async def test_undo_takes_back_a_move_of_this_turn() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        s = session(app)
        before = s.game.to_position()
        build = next((m for m in s.legal_moves() if m.is_build), None)
        move = build or s.legal_moves()[0]
        await pilot.press(*keys_for(app, move))
        await settle(pilot)
        if build is None:
            # a discard ends the turn: nothing of this turn is left to undo
            await pilot.press("u")
            assert "Nothing to undo" in str(table(app).query_one(MessageLine).render())
            return
        assert s.game.to_position() != before
        await pilot.press("u")
        await settle(pilot)
        assert session(app).game.to_position() == before
        assert session(app).is_assisted
        assert "Took back" in str(table(app).query_one(MessageLine).render())


async def test_help_log_and_statistics_screens_open_and_close() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.press("l")
        assert isinstance(app.screen, LogScreen)
        await pilot.press("escape")
        await pilot.press("i")
        assert isinstance(app.screen, StatsScreen)
        await pilot.press("escape")
        assert app.screen is table(app)


@pytest.mark.parametrize("kept", [True, False], ids=["new-player", "no-db"])
async def test_the_statistics_box_of_a_player_without_games_shows_its_sentences(
    tmp_path: Path, kept: bool
) -> None:
    """A new player (no finished game) and a game with no database have no table to give
    the box its width: the box shows its sentences in full, not an empty frame, and names
    no player id."""
    persistence = StorePersistence.open(str(tmp_path / "x.db")) if kept else NoPersistence()
    app = make_app(seed=7, persistence=persistence)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        assert isinstance(app.screen, StatsScreen)
        box = app.screen.query_one("#stats-box")
        said = "No finished games yet." if kept else "Statistics are not kept in this game"
        shown = [line for line in app.screen.query(Static) if said in str(line.render())]
        assert shown and shown[0].region.width >= len(said)
        assert box.region.width >= len(said) + 2
        assert box.border_title == "Statistics"
        if kept:
            player = persistence.player  # type: ignore[union-attr]
            texts = " ".join(str(line.render()) for line in app.screen.query(Static))
            assert player not in texts


async def test_a_terminal_too_small_says_so_and_the_layout_follows_resizes() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        screen = table(app)
        assert screen.has_class("-too-small")
        assert "60x20" in str(screen.query_one("#too-small").render())
        assert "80x24" in str(screen.query_one("#too-small").render())
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        assert not screen.has_class("-too-small")
        assert screen.has_class("-narrow")
        assert not screen.query_one(MoveLog).display
        await pilot.resize_terminal(130, 40)
        await settle(pilot)
        assert screen.has_class("-wide")
        assert screen.query_one(MoveLog).display


async def test_a_tall_side_stack_shows_its_top_and_counts_the_rest() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        pile = table(app).query_one("#side-0", PileView)
        pile.show([Text(f"card {i}") for i in range(40)], "40")
        await pilot.pause()
        room = pile.content_size.height
        shown = str(pile.render()).splitlines()
        assert len(shown) == room
        assert shown[0] == f"+{40 - room + 1} below"
        assert shown[-1] == "card 39"


async def test_a_click_picks_a_card() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.click("#hand-0")
        assert table(app).selected == "hand-0"
        await pilot.click("#side-0")
        await settle(pilot)
        assert session(app).game.players[0].side[0]  # the card was discarded there


async def test_games_and_statistics_go_to_the_shared_store_and_a_match_resumes(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "games.db")
    app = make_app(seed=QUICK_WIN, persistence=StorePersistence.open(db, player="ann"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await play_to_the_end(pilot)
        await pilot.press("n")
        await settle(pilot)
        s = session(app)
        await pilot.press(*keys_for(app, next(m for m in s.legal_moves() if m.is_discard)))
        await settle(pilot)
        match_seed = s.match.seed
        moves = [str(m) for m in s.game.moves]
        await pilot.press("q")
    persistence = StorePersistence.open(db, player="ann")
    stats = persistence.statistics()
    # dealt from a chosen seed: a practice game, counted apart from the total
    assert stats is not None and stats.level("practice").games == 1
    assert stats.total.games == 0
    persistence.close()

    again = make_app(seed=99, persistence=StorePersistence.open(db, player="ann"))
    async with again.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        resumed = session(again)
        assert resumed.match.seed == match_seed
        assert resumed.game_number == 2
        assert [str(m) for m in resumed.game.moves][: len(moves)] == moves
        await pilot.press("q")


async def test_ascii_mode_draws_cards_in_plain_ascii() -> None:
    app = make_app(seed=7, ascii_only=True, rules=Rules.QUICK)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = table(app)
        for pile in screen.query(PileView):
            for line in pile.lines:
                assert str(line).isascii(), str(line)
        for entry in screen.query_one(MoveLog).entries:
            assert str(entry).isascii(), str(entry)
        assert str(screen.query_one(MessageLine).render()).isascii()
        assert str(screen.query_one("#status").render()).isascii()


async def test_the_game_over_box_offers_the_next_game() -> None:
    app = make_app(seed=QUICK_WIN)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await play_to_the_end(pilot)
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("escape")
        assert app.screen is table(app)
        await pilot.press("1")
        assert "over" in str(table(app).query_one(MessageLine).render())
        await pilot.press("n")
        await settle(pilot)
        assert session(app).game_number == 2


async def test_a_new_match_at_another_level() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        old = session(app)
        await pilot.press("m")
        assert isinstance(app.screen, NewMatchScreen)
        await pilot.press("1", "r", "enter")
        await settle(pilot)
        new = session(app)
        assert new is not old
        assert new.level == available_levels()[0]
        assert new.rules == Rules.QUICK
        assert app.screen is table(app)


async def test_a_won_match_ends_with_its_result_and_n_starts_a_new_one() -> None:
    app = make_app(seed=QUICK_WIN, rules=Rules(payoff_size=5, match_target=3))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await play_to_the_end(pilot)
        box = app.screen
        assert isinstance(box, GameOverScreen)
        text = str(box.query_one("#game-over-text").render())
        assert "You win the match!" in text
        assert "start a new match" in str(box.query_one("#game-over-keys").render())
        old = session(app)
        await pilot.press("n")
        await settle(pilot)
        new = session(app)
        assert new is not old and new.match.score == [0, 0]
        assert new.rules == old.rules and new.level == old.level


class BrokenStore(NoPersistence):
    """A database that fails on every write (storage raises the store's errors)."""

    def save(self, session: GameSession) -> None:
        raise StoreUnavailable("disk full")


async def test_a_database_error_is_shown_and_play_goes_on() -> None:
    app = make_app(seed=7, persistence=BrokenStore())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        s = session(app)
        turn = s.game.turn
        discard = next(m for m in s.legal_moves() if m.is_discard)
        await pilot.press(*keys_for(app, discard))
        await settle(pilot)
        assert "Could not save the game: disk full" in str(
            table(app).query_one(MessageLine).render()
        )
        assert session(app).is_human_turn and session(app).game.turn == turn + 2


async def test_the_arrow_keys_move_a_cursor_and_enter_picks() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = table(app)
        assert app.focused is None
        await pilot.press("right")
        first = app.focused
        assert isinstance(first, PileView) and first.pile_id == "center-0"
        while not (isinstance(app.focused, PileView) and app.focused.pile_id == "hand-0"):
            await pilot.press("right")
        await pilot.press("enter")
        assert screen.selected == "hand-0"
        await pilot.press("left", "space")  # the place before the hand: side stack 4
        await settle(pilot)
        assert session(app).game.players[0].side[3]  # the hand card was discarded there


@pytest.mark.parametrize(
    ("find", "reason"),
    [(payoff_turned, "a new card was turned up"), (hand_emptied, "five new cards were drawn")],
    ids=["payoff_turned_up", "hand_drew_five"],
)
async def test_undo_never_takes_back_a_move_that_showed_a_hidden_card(
    find: Callable[[], Scene], reason: str
) -> None:
    scene = find()
    app = make_app(seed=scene.seed, rules=SCENE_RULES)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for number, move in enumerate(scene.moves):
            s = session(app)
            assert [str(m) for m in s.game.moves] == list(scene.moves[: len(s.game.moves)])
            if len(s.game.moves) == number and s.is_human_turn:
                await pilot.press(*keys_for(app, parse_move(move)))
                await settle(pilot)
        s = session(app)
        assert [str(m) for m in s.game.moves] == list(scene.moves)
        before = s.game.to_position()
        await pilot.press("u")
        await settle(pilot)
        assert reason in str(table(app).query_one(MessageLine).render())
        assert session(app).game.to_position() == before
        assert not session(app).is_assisted
