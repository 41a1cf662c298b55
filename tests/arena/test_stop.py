"""Stopping ``spite-malice arena`` part-way, by Ctrl+C or by ``kill``: the run says where its
games are, prints no traceback, leaves no worker process behind, and its CSV resumes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spite_malice.arena.report import read_csv

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and groups")

RUN = "import sys; from spite_malice.cli import main; sys.exit(main())"
ARENA = [sys.executable, "-c", RUN, "arena", "medium", "easy", "--games", "20000", "--jobs", "2"]
"""A run far longer than any test, on two worker processes."""


def popen(command: list[str]) -> subprocess.Popen[str]:
    """``command`` in a process group of its own (its workers join it), with Ctrl+C's signal
    handled as in a terminal's foreground job (a shell starts background jobs with it
    ignored, and Python then keeps ignoring it)."""
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def start_run(csv_path: Path) -> subprocess.Popen[str]:
    """An arena run (see :func:`popen`), once it has written a few games."""
    run = popen([*ARENA, "--csv", str(csv_path)])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if csv_path.exists() and len(csv_path.read_text(encoding="utf-8").splitlines()) > 8:
            return run
        if run.poll() is not None:
            break
        time.sleep(0.2)
    run.kill()
    pytest.fail(f"the run wrote no games: {run.communicate()[1]}")


def finish(run: subprocess.Popen[str]) -> str:
    """What the stopped run printed on stderr, once it has ended (killed, with its group, if
    it has not within a minute)."""
    try:
        return run.communicate(timeout=60)[1]
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        pytest.fail(f"the run went on after it was told to stop: {run.communicate()[1]}")


def group_gone(group: int, wait: float = 30.0) -> bool:
    """Whether every process of the group has ended within ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.2)
    os.killpg(group, signal.SIGKILL)
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
    run = start_run(csv_path)
    group = run.pid  # a new session: the run leads its own process group
    if to_group:
        os.killpg(group, signal.SIGINT)  # what a terminal sends on Ctrl+C
    else:
        os.kill(run.pid, signal.SIGTERM)  # `kill PID`: the workers get no signal
    err = finish(run)
    assert run.returncode == 130, err
    assert group_gone(group), f"worker processes outlived the run stopped by {how}"
    assert "Traceback" not in err
    kept = read_csv(csv_path, "medium", "easy")  # whole pairs only
    assert kept, "no game was kept"
    written = len(csv_path.read_text(encoding="utf-8").splitlines()) - 1
    assert f"the {written} games finished are in {csv_path}" in err
    assert f"--resume {csv_path}" in err
    assert len(kept) in (written, written - 1)


def children(pid: int) -> list[str]:
    """The processes ``pid`` started (Linux's /proc; none on other systems)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return path.read_text().split() if path.exists() else []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads Linux's /proc")
def test_a_run_stopped_without_a_file_says_its_games_are_not_kept() -> None:
    run = popen(ARENA)
    deadline = time.monotonic() + 120
    while len(children(run.pid)) < 3 and time.monotonic() < deadline:  # 2 workers, 1 tracker
        time.sleep(0.2)
    os.kill(run.pid, signal.SIGTERM)
    err = finish(run)
    assert run.returncode == 130, err
    assert "Traceback" not in err
    assert "stopped (no --csv file: the games are not kept)" in err
    assert group_gone(run.pid)  # its own group (a new session): the workers have ended
