"""``spite-malice analyse RECORD.json``: the report as text and JSON, and one clear line with exit
status 2 for bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from spite_malice.bot_registry import make_bot
from spite_malice.cli import main
from spite_malice.engine import Game, GameRecord

from .test_analysis import NOTATION


def record_with_a_missed_payoff(turns: int = 10) -> tuple[GameRecord, int]:
    """A dealt game, Hard on both sides, except that the first time seat 0 starts a turn with
    a pay-off card that fits, it discards instead; and the turn where it did so."""
    game = Game.new(10)
    bots = [make_bot("hard-1", 1), make_bot("hard-1", 2)]  # frozen: the deal stays apt
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    missed = 0
    while not game.is_over and game.turn <= turns:
        legal = game.legal_moves()
        starts = game.to_move == 0 and (not game.moves or game.moves[-1].is_discard)
        if not missed and starts and any(m.is_from_payoff for m in legal):
            missed = game.turn
            # keep the pay-off card back: discard the first hand card onto side stack 1
            game.play(next(m for m in legal if m.is_discard))
            continue
        game.play(bots[game.to_move].choose(game.observation(game.to_move)))
    assert missed, "the deal must give seat 0 a pay-off card to build"
    return GameRecord.from_game(game, ("Ann", "Hard")), missed


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    record, missed = record_with_a_missed_payoff()
    path = tmp_path_factory.mktemp("records") / "game.json"
    path.write_text(record.dumps())
    return path, missed


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["analyse", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_text_report_names_the_missed_payoff_turn(
    capsys: pytest.CaptureFixture[str], record_file: tuple[Path, int]
) -> None:
    path, missed = record_file
    status, out, err = run(capsys, str(path), "--samples", "8")
    assert status == 0, err
    assert out.startswith("How Ann played against Hard:")
    # the seat's own turn number: seat 0 plays the odd turns of the game
    assert re.search(rf"^1\. Your turn {(missed + 1) // 2}$", out, re.MULTILINE), out
    assert "Why: You could have played your pay-off card" in out
    assert "Your best turn: your turn" in out
    assert not NOTATION.search(out)


def test_the_json_report_is_the_same_analysis(
    capsys: pytest.CaptureFixture[str], record_file: tuple[Path, int]
) -> None:
    path, missed = record_file
    status, out, _ = run(capsys, str(path), "--samples", "8", "--json", "--seat", "0")
    assert status == 0
    data = json.loads(out)
    assert data["seat"] == 0
    assert data["worst"][0] == missed
    assert data["settings"]["samples"] == 8 and data["settings"]["adaptive"] is True
    status, out, _ = run(capsys, str(path), "--samples", "8", "--json", "--workers", "1")
    assert status == 0 and json.loads(out) == data  # the same report in one process
    status, out, _ = run(capsys, str(path), "--samples", "8", "--json", "--every-deal")
    every = json.loads(out)
    assert every["settings"]["adaptive"] is False
    assert all(d["samples"] in (0, 8) for t in every["turns"] for d in t["decisions"])
    (turn,) = [t for t in data["turns"] if t["turn"] == missed]
    assert turn["player_turn"] == (missed + 1) // 2
    assert any(m.startswith("P-") for m in turn["decisions"][0]["better"])
    assert not any(m.startswith("P-") for m in turn["decisions"][0]["played"])


def test_the_default_seat_is_the_one_no_computer_played(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record_file: tuple[Path, int]
) -> None:
    record = GameRecord.from_json(record_file[0].read_text())
    swapped = GameRecord(
        seed=record.seed, moves=record.moves, players=("Expert", "Bo"), first=record.first
    )
    path = tmp_path / "swapped.json"
    path.write_text(swapped.dumps())
    status, out, _ = run(capsys, str(path), "--samples", "2", "--json")
    assert status == 0
    assert json.loads(out)["seat"] == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seat", "2"], "--seat must be 0 or 1, not '2'"),
        (["--seat", "one"], "--seat must be 0 or 1, not 'one'"),
        (["--samples", "0"], "--samples must be a whole number from 2 to 10000, not '0'"),
        (["--samples", "many"], "--samples must be a whole number from 2 to 10000"),
        (["--workers", "0"], "--workers must be a whole number from 1 to 4, not '0'"),
        (["--workers", "two"], "--workers must be a whole number from 1 to 4, not 'two'"),
    ],
)
def test_bad_options_get_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str],
    record_file: tuple[Path, int],
    argv: list[str],
    message: str,
) -> None:
    path, _ = record_file
    status, out, err = run(capsys, str(path), *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("spite-malice analyse: ")
    assert message in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "there is no such file"),
        (b"\xff\xfe not text", "not UTF-8 text"),
        ("{not json", "JSON file"),
        ('{"format": 1, "seed": 3, "moves": ["HQ-C3"]}', "invalid game record: move 1"),
        ('{"format": 2, "seed": 3, "moves": []}', "invalid game record: format must be 1"),
        ("[1, 2]", "expected a JSON object"),
        ('{"to_move": 0, "turn": 1}', 'invalid game record: it has no "format"'),
    ],
)
def test_a_bad_record_gets_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str | bytes | None, message: str
) -> None:
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    status, out, err = run(capsys, str(path))
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("spite-malice analyse: ")
    assert message in err
    assert "Traceback" not in err
