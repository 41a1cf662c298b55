"""What the command line says when it cannot go on: one sentence in the player's language and
exit status 2, never a traceback (a store that cannot be opened, a file of the wrong kind,
options that make no sense together, a full-screen game without a terminal)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from spite_malice.cli import errors, main
from spite_malice.i18n import set_default_language

GOLDEN = Path(__file__).parent / "golden"
RECORD = GOLDEN / "drawn_stock_exhausted.json"
# A PostgreSQL URL nothing listens on (port 1 of this machine refuses at once).
UNREACHABLE = "postgresql+psycopg://spite:spite@127.0.0.1:1/nothing"


@pytest.fixture(autouse=True)
def _english_afterwards(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C")
    yield
    set_default_language("en")


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend the output is a terminal, so that the store is reached before the screen."""
    monkeypatch.setattr(errors, "stdout_is_a_terminal", lambda: True)


def _one_sentence(err: str, command: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert lines[0].startswith(f"spite-malice {command}: ")
    return lines[0]


@pytest.mark.usefixtures("terminal")
@pytest.mark.parametrize(
    "command",
    [
        ["play"],
        ["replay", "--list"],
        ["replay", "--last"],
        ["daily", "--stats"],
        ["daily"],
        ["serve", "--port", "0"],
    ],
)
def test_a_folder_as_the_database_is_one_sentence(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--db", str(tmp_path)]) == 2
    line = _one_sentence(capsys.readouterr().err, command[0])
    assert f"{tmp_path} is a folder, not a database" in line


@pytest.mark.usefixtures("terminal")
@pytest.mark.parametrize("command", [["replay", "--list"], ["daily", "--stats"], ["play"]])
def test_an_unreachable_postgresql_is_one_sentence(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--db", UNREACHABLE]) == 2
    line = _one_sentence(capsys.readouterr().err, command[0])
    assert "cannot open the database postgresql+psycopg://spite:***@127.0.0.1:1/nothing" in line
    assert "OperationalError" not in line and "spite:spite" not in line


def test_the_store_message_speaks_the_players_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert main(["replay", "--list", "--db", str(tmp_path)]) == 2
    line = _one_sentence(capsys.readouterr().err, "replay")
    assert f"{tmp_path} est un dossier, pas une base de données" in line


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("fr_FR.UTF-8", "'abc' n'est pas un nombre entier"),
        ("it_IT.UTF-8", "'abc' non è un numero intero"),
        ("ru_RU.UTF-8", "'abc' — не целое число"),
    ],
)
def test_argument_errors_speak_the_players_language(
    language: str,
    expected: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("LANG", language)
    with pytest.raises(SystemExit) as stopped:
        main(["arena", "x", "y", "--games", "abc"])
    assert stopped.value.code == 2
    assert expected in capsys.readouterr().err


def test_argparse_own_messages_are_translated(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    with pytest.raises(SystemExit):
        main(["play", "--level", "nobody"])
    err = capsys.readouterr().err
    assert "scelta non valida: 'nobody'" in err and "errore:" in err
    assert "invalid choice" not in err


@pytest.mark.parametrize("command", ["hint", "moves"])
def test_a_game_record_given_as_a_position_is_named_as_such(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, str(RECORD)]) == 2
    line = _one_sentence(capsys.readouterr().err, command)
    assert "is a game record, not a position" in line
    assert f"spite-malice replay {RECORD}" in line


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        (["--text", "--seat", "7", str(RECORD)], "the seat must be 0 or 1, not '7'"),
        (["--text", "--seat", "1", str(RECORD)], "--seat is for the replay screen"),
        (["--text"], "--text prints a record file"),
        (["--list", str(RECORD)], "--list picks one of your stored games"),
        (["--last", "--game", "3"], "--game and --last cannot go together"),
        (["--list", "--seat", "0"], "--list only lists your stored games"),
    ],
)
def test_replay_options_that_make_no_sense_together_are_refused(
    arguments: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", *arguments]) == 2
    assert reason in _one_sentence(capsys.readouterr().err, "replay")


@pytest.mark.parametrize("command", [["play"], ["daily"]])
def test_a_full_screen_game_without_a_terminal_is_refused(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # pytest's captured output is no terminal
    database = tmp_path / "games.db"
    assert main([*command, "--db", str(database)]) == 2
    captured = capsys.readouterr()
    assert "needs a terminal" in _one_sentence(captured.err, command[0])
    assert "\x1b[" not in captured.out  # not one escape code written into the pipe
    if command == ["play"]:
        assert not os.path.exists(database)  # refused before anything was opened


def test_a_stored_replay_without_a_terminal_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from spite_malice.cli import replay_commands
    from spite_malice.engine import GameRecord

    record = GameRecord.from_json(RECORD.read_text(encoding="utf-8"))
    monkeypatch.setattr(replay_commands, "_stored", lambda args: (record, 0))
    assert main(["replay", "--last"]) == 2
    captured = capsys.readouterr()
    assert "needs a terminal" in _one_sentence(captured.err, "replay")
    assert captured.out == ""


def test_file_errors_speak_the_players_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert main(["hint", str(tmp_path / "nowhere.json")]) == 2
    assert "такого файла нет" in _one_sentence(capsys.readouterr().err, "hint")
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    assert main(["moves", str(bad)]) == 2
    assert "file JSON non valido" in _one_sentence(capsys.readouterr().err, "moves")


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        (["play", "--no-db", "--db", "x.db"], "--no-db keeps nothing: --db says where"),
        (["play", "--no-db", "--player", "ann"], "--no-db keeps nothing: --player says where"),
        (["daily", "--json"], "--json prints the statistics as JSON: give it with --stats"),
    ],
)
def test_play_and_daily_options_that_make_no_sense_together_are_refused(
    arguments: list[str], reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = [*arguments]
    if arguments[0] == "daily":
        command += ["--db", str(tmp_path / "games.db")]
    assert main(command) == 2
    assert reason in _one_sentence(capsys.readouterr().err, arguments[0])
    assert not (tmp_path / "games.db").exists()
