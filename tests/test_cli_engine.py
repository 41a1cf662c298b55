"""The engine's subcommands of ``spite-malice``: ``moves`` and ``replay``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from spite_malice.cli import main
from spite_malice.engine import Game, GameRecord

GOLDEN = Path(__file__).resolve().parent / "golden"

FULL_DECK = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"] * 2


def _position(**piles: Any) -> dict[str, Any]:
    """A position with the given piles; every other card of the 104 at the bottom of the stock."""
    rest = list(FULL_DECK)
    players = piles["players"]
    center = piles.get("center", [[], [], []])
    for pile in [*center, *(p[key] for p in players for key in ("payoff", "hand"))]:
        for card in pile:
            rest.remove(card)
    return {"to_move": 0, "stock": rest, "center": center, "players": players}


def _write(tmp_path: Path, name: str, content: object) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


SIDES: list[list[str]] = [[], [], [], []]
POSITION = _position(
    center=[[], ["AS", "2S", "3S", "4S", "5S", "6S"], []],
    players=[
        {"payoff": ["QS"], "hand": ["AH", "7C"], "side": SIDES},
        {"payoff": ["QH"], "hand": ["2D"], "side": SIDES},
    ],
)


def test_moves_prints_the_legal_moves_one_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, lines, err = _run(capsys, "moves", _write(tmp_path, "pos.json", POSITION))
    assert (status, err) == (0, "")
    assert lines == [
        "HA-C1",
        "HA-C3",
        "HA-S1",
        "HA-S2",
        "HA-S3",
        "HA-S4",
        "H7-C2",
        "H7-S1",
        "H7-S2",
        "H7-S3",
        "H7-S4",
    ]
    assert lines == [str(m) for m in Game.from_position(POSITION).legal_moves()]


def test_replay_prints_the_game_move_by_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = GOLDEN / "quick_win_with_kings.json"
    record = GameRecord.from_json(json.loads(path.read_text()))
    status, lines, err = _run(capsys, "replay", str(path))
    assert (status, err) == (0, "")
    text = "\n".join(lines)
    assert "Ann" in lines[0] and "Bob" in lines[0] and str(record.seed) in lines[0]
    # Every move appears, in order, in its notation.
    shown = [
        m for line in lines for m in re.findall(r"\b(?:P|H[A2-9TJQK]|S[1-4])-[CS][1-4]\b", line)
    ]
    assert shown == list(record.moves)
    assert "player 1" not in text and "player 2" not in text  # players are named
    assert "Bob wins, scoring 8 points" in lines[-1]


def test_replay_of_a_drawn_game_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, lines, _ = _run(capsys, "replay", str(GOLDEN / "drawn_stock_exhausted.json"))
    assert status == 0
    assert lines[-1].strip().endswith("The game is drawn: stock exhausted")


@pytest.mark.parametrize("command", ["moves", "replay"])
@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"to_move": 0,', "invalid JSON file"),
        ("[1, 2]", "expected a JSON object"),
        ("", "invalid JSON file"),
    ],
)
def test_a_bad_input_file_is_a_clear_error_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, content: str, message: str
) -> None:
    path = _write(tmp_path, "bad.json", content)
    status, lines, err = _run(capsys, command, path)
    assert status == 2
    assert lines == []
    assert err.startswith(f"spite-malice {command}: ")
    assert message in err
    assert "Traceback" not in err


def test_a_position_that_breaks_the_rules_is_refused_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = json.loads(json.dumps(POSITION))
    broken["stock"].append("AS")
    status, lines, err = _run(capsys, "moves", _write(tmp_path, "pos.json", broken))
    assert (status, lines) == (2, [])
    assert err.strip() == "spite-malice moves: invalid position: AS appears 3 times; 2 decks hold 2"


def test_a_record_with_an_illegal_move_is_refused_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads((GOLDEN / "unfinished.json").read_text())
    data["moves"][3] = "P-S1"
    status, lines, err = _run(capsys, "replay", _write(tmp_path, "rec.json", data))
    assert (status, lines) == (2, [])
    assert "invalid game record: move 4 ('P-S1') fails: illegal move 'P-S1'" in err


@pytest.mark.parametrize("command", ["moves", "replay"])
def test_a_missing_file_is_a_clear_error_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    status, _, err = _run(capsys, command, str(tmp_path / "nowhere.json"))
    assert status == 2
    assert "there is no such file" in err and "nowhere.json" in err
    assert "Errno" not in err  # the reason in words, not the system's error number


def test_a_file_that_is_not_text_is_a_clear_error_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "bin.json", b"\xff\xfe{\x00")
    for command in ("moves", "replay"):
        status, lines, err = _run(capsys, command, path)
        assert (status, lines) == (2, [])
        assert err.startswith(f"spite-malice {command}: ") and "not UTF-8" in err


@pytest.mark.parametrize("command", ["moves", "replay"])
@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"to_move": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
        ('{"format": 1, "seed": ' + "7" * 5_000 + "}", "a number in it has too many digits"),
        ('{"to_move": NaN}', "not JSON: NaN is not a JSON number"),
    ],
    ids=["nested", "nested-value", "5000-digits", "NaN"],
)
def test_json_that_python_cannot_read_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, content: str, message: str
) -> None:
    path = _write(tmp_path, "hostile.json", content)
    status, lines, err = _run(capsys, command, path)
    assert (status, lines) == (2, [])
    assert err.count("\n") == 1 and err.endswith("\n")
    assert err == f"spite-malice {command}: invalid JSON file {path!r}: {message}\n"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"seed": 2**64},
            "invalid game record: seed must be a whole number from 0 to 2**63 - 1, not 1844",
        ),
        ({"format": True}, "invalid game record: format must be 1, not True"),
        (
            {"seed": -4},
            "invalid game record: seed must be a whole number from 0 to 2**63 - 1, not -4",
        ),
    ],
)
def test_a_record_with_wrong_values_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any], message: str
) -> None:
    data = json.loads((GOLDEN / "unfinished.json").read_text())
    data.update(change)
    status, lines, err = _run(capsys, "replay", _write(tmp_path, "rec.json", data))
    assert (status, lines) == (2, [])
    assert err.count("\n") == 1 and message in err and len(err) < 500
