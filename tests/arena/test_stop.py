"""Stopping ``spite-malice arena`` part-way, by Ctrl+C or by ``kill``: the run says where its
games are, prints no traceback, leaves no process behind (its workers, an outside program
bot), and its CSV resumes. Reads Linux's /proc to see which processes are still running."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

import pytest

from spite_malice.arena.report import read_csv, write_csv
from waiting import wait_for

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "first_fit_bot.py"

# Ctrl+C's signal handled as in a terminal's foreground job: a shell starts background jobs
# with it ignored, and Python then keeps ignoring it.
RUN = (
    "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from spite_malice.cli import main; sys.exit(main())"
)


def arena(bot_a: str, *extra: str) -> list[str]:
    """A run of ``bot_a`` against Easy far longer than any test, on two worker processes."""
    command = [sys.executable, "-c", RUN, "arena", bot_a, "easy", "--games", "20000"]
    return [*command, "--jobs", "2", *extra]


Ready = Callable[[subprocess.Popen[str]], bool]


def start(command: list[str], ready: Ready) -> subprocess.Popen[str]:
    """``command`` in a process group of its own (its workers join it), once ``ready``."""
    run = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    going: list[bool] = []

    def started() -> bool:
        if ready(run):
            going.append(True)
            return True
        return run.poll() is not None  # it ended without getting going

    with suppress(AssertionError):
        wait_for(started, 120, 0.2, "the run to get going")
    if going:
        return run
    os.killpg(run.pid, signal.SIGKILL)
    pytest.fail(f"the run did not get going: {run.communicate()[1]}")


def games_in(csv_path: Path) -> int:
    if not csv_path.exists():
        return 0
    return len(csv_path.read_text(encoding="utf-8").splitlines()) - 1


def finish(run: subprocess.Popen[str]) -> str:
    """What the stopped run printed on stderr, once it has ended (killed, with its group, if
    it has not within a minute)."""
    try:
        return run.communicate(timeout=60)[1]
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        pytest.fail(f"the run went on after it was told to stop: {run.communicate()[1]}")


def running(match: Callable[[Path], bool]) -> list[int]:
    """The processes still running (not ended and waiting to be collected) that ``match``
    accepts, given each one's /proc folder."""
    found = []
    for folder in Path("/proc").iterdir():
        if not folder.name.isdigit():
            continue
        try:
            stat = (folder / "stat").read_text()
            if stat[stat.rindex(")") + 2] != "Z" and match(folder):
                found.append(int(folder.name))
        except (OSError, ValueError):
            continue  # ended while we looked
    return found


def in_group(group: int) -> Callable[[Path], bool]:
    def match(folder: Path) -> bool:
        stat = (folder / "stat").read_text()
        return int(stat[stat.rindex(")") + 2 :].split()[2]) == group

    return match


def running_with(text: str) -> Callable[[Path], bool]:
    def match(folder: Path) -> bool:
        return text in (folder / "cmdline").read_bytes().decode(errors="replace")

    return match


def all_ended(match: Callable[[Path], bool], wait: float = 30.0) -> bool:
    """Whether every process ``match`` accepts has ended within ``wait`` seconds (those left
    are killed)."""
    with suppress(AssertionError):
        return wait_for(lambda: not running(match), wait, 0.2, "the processes to end")
    for pid in running(match):
        os.kill(pid, signal.SIGKILL)
    return False


@pytest.mark.parametrize(
    ("how", "to_group"),
    [("Ctrl+C", True), ("kill", False)],
    ids=["ctrl-c-to-the-terminal-group", "kill-of-the-main-process"],
)
def test_a_stopped_run_keeps_its_games_and_stops_its_workers(
    tmp_path: Path, how: str, to_group: bool
) -> None:
    csv_path = tmp_path / "games.csv"
    run = start(arena("medium", "--csv", str(csv_path)), lambda _: games_in(csv_path) >= 8)
    if to_group:
        os.killpg(run.pid, signal.SIGINT)  # what a terminal sends on Ctrl+C
    else:
        os.kill(run.pid, signal.SIGTERM)  # `kill PID`: the workers get no signal
    err = finish(run)
    assert run.returncode == 130, err
    assert all_ended(in_group(run.pid)), f"worker processes outlived the run stopped by {how}"
    assert "Traceback" not in err
    kept = read_csv(csv_path, "medium", "easy")  # whole pairs only, as --resume reads them
    assert len(kept) >= 8
    assert f"the {len(kept)} games finished are in {csv_path}" in err
    assert f"--resume {csv_path}" in err
    assert not list(tmp_path.glob(".*.part"))


def test_a_stopped_run_stops_an_outside_program_bot_too(tmp_path: Path) -> None:
    program = tmp_path / "stop_me_bot.py"  # a name no other process has
    # The example bot, made careless: after "quit" or the end of its input it lingers on.
    program.write_text(
        f"import runpy, time\nrunpy.run_path({str(EXAMPLE)!r})['main']()\ntime.sleep(600)\n"
    )
    csv_path = tmp_path / "games.csv"
    bot = shlex.join([sys.executable, str(program)])
    run = start(arena(bot, "--csv", str(csv_path)), lambda _: games_in(csv_path) >= 2)
    assert running(running_with(str(program))), "the program bot is not running"
    os.kill(run.pid, signal.SIGTERM)
    err = finish(run)
    assert run.returncode == 130, err
    assert "Traceback" not in err
    # The bot runs in a session of its own and outlives the end of its input, so only the
    # arena's own stop (ExternalBot.close, when its worker ends) stops it.
    assert all_ended(running_with(str(program))), "the program bot outlived the run"


def test_a_run_stopped_without_a_file_says_its_games_are_not_kept() -> None:
    def playing(run: subprocess.Popen[str]) -> bool:
        return len(running(in_group(run.pid))) >= 4  # the run, 2 workers, 1 tracker

    run = start(arena("medium"), playing)
    os.kill(run.pid, signal.SIGTERM)
    err = finish(run)
    assert run.returncode == 130, err
    assert "Traceback" not in err
    assert "stopped (no --csv file: the games are not kept)" in err
    assert all_ended(in_group(run.pid))


def test_what_a_stopped_run_says_when_its_file_holds_no_pair_yet(tmp_path: Path) -> None:
    from argparse import Namespace

    from spite_malice.cli.bot_commands import _stopped_text

    args = Namespace(bot_a="medium", bot_b="easy")
    missing = tmp_path / "not made yet.csv"  # stopped before the file was written
    assert _stopped_text(args, missing) == (
        f"stopped before a pair of games finished; nothing was written to {missing}"
    )
    empty = tmp_path / "empty.csv"
    write_csv(empty, [], "medium", "easy")
    assert _stopped_text(args, empty) == (
        f"stopped before a pair of games finished; {empty} holds none"
    )
    same = Namespace(bot_a="easy", bot_b="easy")  # kept, but a bot against itself won't resume
    assert _stopped_text(same, empty) == f"stopped; the games finished are in {empty}"
