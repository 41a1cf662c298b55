"""The terminal's replay screen (issue 14 item 2), driven through Textual's pilot, and the
``spite-malice replay`` command's refusals."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from spite_malice.cli import main
from spite_malice.engine import Game, GameRecord, Rules
from spite_malice.replay import replay_frames
from spite_malice.tui.replay_app import ReplayApp
from spite_malice.tui.screens.replay import ReplayScreen
from spite_malice.tui.widgets import PileView


def greedy_record(seed: int = 5) -> GameRecord:
    """A finished quick game: pay-off builds first, then other builds, else a discard."""
    game = Game.new(seed, Rules(payoff_size=5))
    while not game.is_over:
        legal = [str(m) for m in game.legal_moves()]
        builds = [m for m in legal if "-C" in m and not m.startswith("HK")]
        payoff = [m for m in builds if m.startswith("P-")]
        discards = [m for m in legal if "-S" in m]
        game.play((payoff or builds or discards or legal)[0])
    record = GameRecord.from_game(game, ("Ann", "Bob"))
    assert record.result is not None
    return record


def _pile(screen: ReplayScreen, pile_id: str) -> PileView:
    return screen.query_one(f"#{pile_id}", PileView)


async def test_the_replay_screen_steps_jumps_and_turns_the_table() -> None:
    record = greedy_record()
    frames = replay_frames(record)
    final = frames[-1].table
    app = ReplayApp(frames, record.players)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.index == 0
        await pilot.press("right", "right")
        assert screen.index == 2
        await pilot.press("left")
        assert screen.index == 1
        await pilot.press("end")
        assert screen.index == len(frames) - 1
        # the table is the record's final position, every card face up
        assert str(_pile(screen, "payoff").border_subtitle) == (
            f"{len(final['players'][0]['payoff'])} left"
        )
        for i, stack in enumerate(final["center"]):
            assert len(_pile(screen, f"center-{i}").lines) == max(len(stack), 1) or stack
        opponent_hand = str(_pile(screen, "opp-hand").lines[0])
        assert final["players"][1]["hand"] == [] or "no cards" not in opponent_hand
        for i, pile in enumerate(final["players"][1]["side"]):
            assert len(_pile(screen, f"opp-side-{i}").lines) == max(len(pile), 1)
        await pilot.press("s")  # the other seat's view: Bob's piles at the bottom
        assert screen.seat == 1
        assert str(_pile(screen, "payoff").border_subtitle) == (
            f"{len(final['players'][1]['payoff'])} left"
        )
        await pilot.press("home")
        assert screen.index == 0
        await pilot.press("t", "3", "enter")
        shown = frames[screen.index]
        assert frames[screen.index + 1].turn == 3 and shown.index == screen.index
        await pilot.press("space")  # plays on its own from here
        assert screen.timer is not None
        await pilot.press("space")
        assert screen.timer is None
        await pilot.press("q")
    assert app.return_code in (0, None)


def test_the_command_refuses_bad_files_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)  # the screen's path, not --text
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    assert main(["replay", str(bad)]) == 2
    assert "not JSON" in capsys.readouterr().err
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps({"format": 1, "seed": 1, "moves": ["P-S2"]}), encoding="utf-8")
    assert main(["replay", str(illegal)]) == 2
    assert "Move 1 of this record cannot be played" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    good = tmp_path / "good.json"
    good.write_text(greedy_record().dumps(), encoding="utf-8")
    assert main(["replay", str(good), "--seat", "2"]) == 2
    assert "seat must be 0 or 1" in capsys.readouterr().err


def test_the_command_lists_and_finds_stored_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "games.db")
    assert main(["replay", "--list", "--db", db]) == 0
    assert "No finished games" in capsys.readouterr().out
    assert main(["replay", "--db", db]) == 2
    assert "no finished game is stored" in capsys.readouterr().err
    assert main(["replay", "--game", "12", "--db", db]) == 2
    assert "there is no finished game 12" in capsys.readouterr().err


def test_the_command_prints_a_record_as_text_off_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.json"
    record = greedy_record()
    good.write_text(record.dumps(), encoding="utf-8")
    assert main(["replay", str(good), "--text"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Ann v Bob") and len(lines) > len(record.moves)


async def test_the_game_over_box_opens_the_replay_of_the_game_and_comes_back() -> None:
    from spite_malice.tui.screens import GameScreen

    from .driver import SHORT_GAME, make_app, play_to_the_end

    app = make_app(seed=SHORT_GAME)
    async with app.run_test(size=(120, 40)) as pilot:
        await play_to_the_end(pilot)
        game = app.game_screen.session.game
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert len(screen.frames) == len(game.moves) + 1
        await pilot.press("end")
        last = screen.frames[-1].table
        assert last["outcome"] == game.outcome.to_json() if game.outcome else False
        assert str(_pile(screen, "payoff").border_subtitle) == f"{len(game.players[0].payoff)} left"
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_at_100_columns_the_replay_keeps_titles_punctuates_and_counts_turns() -> None:
    from spite_malice.bots import reference_move

    game = Game.new(3)
    while not game.is_over:
        game.apply(reference_move(game))
    record = GameRecord.from_game(game, ("Ann", "Bob"))
    frames = replay_frames(record)
    assert frames[-1].table["turn"] > 20
    app = ReplayApp(frames, record.players)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("t", "2", "0", "enter")
        await pilot.pause()
        # the table at the start of turn 20: the next move is turn 20's first
        assert frames[screen.index + 1].turn == 20
        status = str(screen.query_one("#status").render())
        assert "turn 20" in status and "turn 19" not in status
        drawn = "\n".join(strip.text for strip in screen._compositor.render_strips())
        assert "Side…" not in drawn and "…" not in drawn
        for number in range(1, 5):  # each side stack's whole title, for both players
            assert drawn.count(f"Side {number} ") == 2, number
        # the frame's events are sentences, each with its full stop
        message = str(screen.query_one("#message").render()).strip()
        sentences = [part for part in message.split(". ") if part]
        assert len(sentences) >= 1 and message.endswith(".")
        await pilot.press("right")
        await pilot.pause()
        message = str(screen.query_one("#message").render()).strip()
        assert message.endswith(".")
