"""Outside bots over the text protocol: a well-behaved one plays whole games, and every kind
of misbehaviour (garbage, illegal moves, silence, crashes) becomes a BotError with a clear
reason, after which the program is gone."""

from __future__ import annotations

import io
import os
import shlex
import sys
import textwrap
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest

from spite_malice.bot_client import observation_from_json, serve
from spite_malice.bot_protocol import GREETING, PROTOCOL_VERSION
from spite_malice.bot_protocol.external import ExternalBot
from spite_malice.bot_registry import make_bot
from spite_malice.bots import Bot, BotError, ReferenceBot
from spite_malice.engine import Game
from waiting import wait_for

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "first_fit_bot.py"

# The start of every test bot: answer the greeting, then hand each request to `answer`.
PRELUDE = """\
import json, os, sys, time
def say(text):
    sys.stdout.write(text + "\\n"); sys.stdout.flush()
"""


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(PRELUDE + textwrap.dedent(body))
    return shlex.join([sys.executable, str(path)])


def _bot(command: str, move_time: float = 5.0) -> ExternalBot:
    return ExternalBot(command, seed=1, move_time=move_time, start_time=10.0)


def _play(bots: list[Bot], seed: int) -> Game:
    game = Game.new(seed)
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    while not game.is_over:
        move = bots[game.to_move].choose(game.observation(game.to_move))
        game.play(move)
    return game


def _first_choice(bot: ExternalBot, seed: int = 3) -> None:
    game = Game.new(seed)
    bot.new_game(game.to_move)
    bot.choose(game.observation(game.to_move))


def _loop(answer: str) -> str:
    """A bot body that greets properly and answers every `go` with `answer` (Python code)."""
    return f"""
    for line in sys.stdin:
        word = line.split(" ", 1)[0].strip()
        if word == "spite-malice-protocol":
            say("ready 1 Test Bot")
        elif word == "position":
            position = json.loads(line.split(" ", 1)[1])
        elif word == "moves":
            moves = line.split()[1:]
        elif word == "go":
            {answer}
        elif word == "quit":
            break
    """


def test_the_example_bot_plays_whole_games_like_the_reference_bot() -> None:
    assert os.access(EXAMPLE, os.X_OK), "the example must be executable"
    outside = make_bot(str(EXAMPLE), seed=1)
    assert isinstance(outside, ExternalBot)
    try:
        for seed in (1, 2):
            through_protocol = _play([outside, ReferenceBot()], seed)
            in_process = _play([ReferenceBot(), ReferenceBot()], seed)
            assert through_protocol.moves == in_process.moves
            assert through_protocol.outcome == in_process.outcome
        assert outside.program_name == "First Fit (example)"
    finally:
        outside.close()
    assert outside._process is None


def test_our_own_bot_served_over_the_protocol_plays_the_same_game() -> None:
    command = shlex.join([sys.executable, "-m", "spite_malice.bot_client", "reference"])
    served = _bot(command)
    example = make_bot(str(EXAMPLE))
    try:
        game = _play([example, served], 4)
        assert game.moves == _play([ReferenceBot(), ReferenceBot()], 4).moves
        assert served.program_name == "Reference"
    finally:
        served.close()
        example.close()


def test_garbage_is_reported(tmp_path: Path) -> None:
    bot = _bot(_script(tmp_path, "garbage", _loop('say("I think H7 is nice")')))
    with pytest.raises(BotError, match="answered garbage: 'I think H7 is nice'") as caught:
        _first_choice(bot)
    assert caught.value.bot == bot.name
    assert bot._process is None


def test_a_move_that_does_not_parse_is_reported(tmp_path: Path) -> None:
    bot = _bot(_script(tmp_path, "nonsense", _loop('say("move H7-C9")')))
    with pytest.raises(BotError, match=r"invalid move.*'H7-C9'"):
        _first_choice(bot)


def test_an_illegal_move_is_reported(tmp_path: Path) -> None:
    bot = _bot(_script(tmp_path, "illegal", _loop('say("move P-S1")')))  # R3.5
    with pytest.raises(BotError, match="illegal move 'P-S1'; legal moves: "):
        _first_choice(bot)
    assert bot._process is None


def test_silence_past_the_time_limit_is_reported_and_the_program_stopped(
    tmp_path: Path,
) -> None:
    bot = _bot(_script(tmp_path, "sleepy", _loop("time.sleep(30)")), move_time=0.5)
    _first_choice_started = time.monotonic()
    with pytest.raises(BotError, match=r"no move within 0\.5 s"):
        _first_choice(bot)
    assert time.monotonic() - _first_choice_started < 20  # far less than the bot's 30 s
    assert bot._process is None


def test_a_crash_is_reported_with_its_error_output(tmp_path: Path) -> None:
    body = _loop('sys.stderr.write("Traceback: something broke\\n"); sys.exit(3)')
    bot = _bot(_script(tmp_path, "crashy", body))
    with pytest.raises(BotError, match=r"crashed: exited with status 3.*something broke"):
        _first_choice(bot)
    assert bot._process is None


def test_a_crash_before_the_greeting_is_reported(tmp_path: Path) -> None:
    bot = _bot(_script(tmp_path, "dead", "raise SystemExit(5)\n"))
    with pytest.raises(BotError, match="crashed: exited with status 5"):
        _first_choice(bot)


def test_a_wrong_protocol_version_is_reported(tmp_path: Path) -> None:
    body = """
    sys.stdin.readline()
    say("ready 9 Future Bot")
    time.sleep(30)
    """
    bot = _bot(_script(tmp_path, "future", body))
    with pytest.raises(BotError, match="protocol version '9'"):
        _first_choice(bot)
    assert bot._process is None


def test_after_a_failure_the_next_game_starts_the_program_afresh(tmp_path: Path) -> None:
    # The first run crashes on its first move; later runs play properly.
    marker = tmp_path / "ran-once"
    body = _loop(
        f"""if not os.path.exists({str(marker)!r}):
                open({str(marker)!r}, "w").close(); sys.exit(1)
            say("move " + moves[-1])"""
    )
    bot = _bot(_script(tmp_path, "flaky", body))
    with pytest.raises(BotError, match="crashed"):
        _first_choice(bot)
    _first_choice(bot)  # a new game: a new process, which answers
    bot.close()


def test_paths_that_cannot_run_are_refused_at_once(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no bot program"):
        make_bot("./no/such/bot")
    script = tmp_path / "plain.py"
    script.write_text("print('hi')\n")
    with pytest.raises(ValueError, match="not executable"):
        make_bot(str(script))


# A bot that answers the greeting, then ignores everything, "quit" too.
STUBBORN = """
sys.stdin.readline()
say("ready 1 Stubborn")
while True:
    time.sleep(1)
"""


def test_close_stops_a_program_that_ignores_quit(tmp_path: Path) -> None:
    bot = _bot(_script(tmp_path, "stubborn", STUBBORN))
    bot.new_game(0)
    process = bot._process
    assert process is not None and process.poll() is None
    bot.close()
    assert process.poll() is not None


def test_serve_speaks_the_protocol() -> None:
    game = Game.new(6)
    observation = game.observation(game.to_move)
    import json

    requests = "\n".join(
        [
            f"{GREETING} {PROTOCOL_VERSION}",
            f"newgame {game.to_move} 17",
            "position " + json.dumps(observation.to_json()),
            "moves " + " ".join(str(m) for m in observation.legal_moves),
            "go 1000",
            "quit",
            "go 1000",
        ]
    )
    seen = []

    def choose(position: dict[str, Any], moves: list[str]) -> str:
        seen.append(observation_from_json(position))
        return moves[0]

    out = io.StringIO()
    assert serve(choose, "Tester", stdin=io.StringIO(requests + "\n"), stdout=out) == 0
    assert out.getvalue().splitlines() == [
        "ready 1 Tester",
        f"move {observation.legal_moves[0]}",
    ]
    assert seen == [observation]  # the position JSON carries the whole observation


def test_a_program_that_stops_reading_cannot_block_the_engine(tmp_path: Path) -> None:
    from spite_malice.bot_protocol.external import _Failure

    body = """
    sys.stdin.readline()
    say("ready 1 Deaf")
    time.sleep(30)
    """
    bot = _bot(_script(tmp_path, "deaf", body))
    bot.new_game(0)
    started = time.monotonic()
    with pytest.raises(_Failure, match="did not read its input"):
        bot._send("info " + "x" * 300_000 + "\n", limit=0.5)  # far more than a pipe holds
    assert time.monotonic() - started < 20
    bot.close()
    assert bot._process is None


# ----------------------------------------------------------------- floods and leftovers


def _alive(pid: int) -> bool:
    """Whether the process runs (a zombie, dead and waiting to be reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] not in "ZX"


def test_a_million_info_lines_with_the_move_are_read_in_time(tmp_path: Path) -> None:
    """Issue 12: reading them one by one took longer than the default 5 s limit."""
    answer = 'sys.stdout.write("info thinking\\n" * 1_000_000 + "move " + moves[-1] + "\\n"); ' + (
        "sys.stdout.flush()"
    )
    bot = _bot(_script(tmp_path, "chatty", _loop(answer)), move_time=5.0)
    try:
        game = Game.new(3)
        bot.new_game(game.to_move)
        observation = game.observation(game.to_move)
        for _ in range(3):
            assert bot.choose(observation) == observation.legal_moves[-1]
    finally:
        bot.close()


def test_info_and_blank_lines_may_come_before_the_greeting_and_between_moves(
    tmp_path: Path,
) -> None:
    body = """
    for line in sys.stdin:
        word = line.split(" ", 1)[0].strip()
        if word == "spite-malice-protocol":
            sys.stdout.write("info hello\\n\\n  info  indented\\ninfo\\n" * 1000)
            say("ready 1 Chatty")
        elif word == "moves":
            moves = line.split()[1:]
        elif word == "go":
            sys.stdout.write("info a\\n\\r\\ninfo b\\r\\n" * 1000 + "move " + moves[0] + "\\r\\n")
            sys.stdout.flush()
    """
    bot = _bot(_script(tmp_path, "chatty2", body))
    try:
        game = Game.new(4)
        bot.new_game(game.to_move)
        observation = game.observation(game.to_move)
        assert bot.choose(observation) == observation.legal_moves[0]
        assert bot.program_name == "Chatty"
    finally:
        bot.close()


def test_a_line_starting_with_info_is_not_info_unless_the_word_is(tmp_path: Path) -> None:
    bot = _bot(_script(tmp_path, "informer", _loop('say("information " + moves[0])')))
    with pytest.raises(BotError, match="answered garbage: 'information "):
        _first_choice(bot)


def test_standard_error_is_kept_as_a_bounded_tail(tmp_path: Path) -> None:
    """Issue 12: 300 MB of standard error took the arena to 948 MB. Here 40 MB are written
    before the move and 40 MB more before a crash: the engine's memory stays far below it,
    and the crash still quotes the last lines."""
    import tracemalloc

    from spite_malice.bot_protocol import external

    answer = """sys.stderr.write(("x" * 1023 + "\\n") * 40_000); sys.stderr.flush()
            if position["turn"] > 1 or len(position["history"]) > 0:
                sys.stderr.write("the last words\\n"); sys.stderr.flush(); sys.exit(4)
            say("move " + moves[-1])"""
    bot = _bot(_script(tmp_path, "noisy", _loop(answer)), move_time=60.0)
    game = Game.new(5)
    tracemalloc.start()
    try:
        bot.new_game(game.to_move)
        move = bot.choose(game.observation(game.to_move))
        game.play(move)
        while game.to_move != bot._seat:
            game.play(game.legal_moves()[-1])
        with pytest.raises(BotError, match=r"crashed: exited with status 4.*the last words"):
            bot.choose(game.observation(game.to_move))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        bot.close()
    assert peak < 16 * 1024 * 1024, f"peak {peak / 2**20:.0f} MiB for 80 MiB of error output"
    assert len(bot._stderr) <= external.STDERR_TAIL


SPAWNER = """
def spawn(path):
    # A child in the bot's group, a child that leaves it with setsid, and a grandchild of
    # that one, forked twice so that its parent is gone; each writes its number to `path`.
    if os.fork() == 0:
        open(path + ".grouped", "w").write(str(os.getpid())); time.sleep(120); os._exit(0)
    if os.fork() == 0:
        os.setsid()
        open(path + ".session", "w").write(str(os.getpid()))
        if os.fork() == 0:
            if os.fork() == 0:
                open(path + ".orphan", "w").write(str(os.getpid())); time.sleep(120)
            os._exit(0)
        time.sleep(120); os._exit(0)
    for suffix in (".grouped", ".session", ".orphan"):
        while not os.path.exists(path + suffix) or not open(path + suffix).read():
            time.sleep(0.01)
"""


def _spawned(path: Path) -> list[int]:
    return [
        int(Path(str(path) + suffix).read_text()) for suffix in (".grouped", ".session", ".orphan")
    ]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("ending", ["close", "quit-and-exit", "failure"])
def test_the_bots_whole_process_tree_ends_with_it(tmp_path: Path, ending: str) -> None:
    """Issue 12: a bot that calls setsid left processes behind. Whether it is closed while
    it runs, exits on `quit` by itself, or fails, none of its processes is left running."""
    pids = tmp_path / "pids"
    answer = {
        "close": 'say("move " + moves[-1])',
        "quit-and-exit": 'say("move " + moves[-1])',
        "failure": 'say("no idea")',
    }[ending]
    body = (
        SPAWNER
        + f"""
spawn({str(pids)!r})
for line in sys.stdin:
    word = line.split(" ", 1)[0].strip()
    if word == "spite-malice-protocol":
        say("ready 1 Spawner")
    elif word == "moves":
        moves = line.split()[1:]
    elif word == "go":
        {answer}
    elif word == "quit":
        {"sys.exit(0)" if ending == "quit-and-exit" else "pass"}
"""
    )
    path = tmp_path / "spawner.py"
    path.write_text(PRELUDE + body)
    bot = _bot(shlex.join([sys.executable, str(path)]))
    game = Game.new(6)
    try:
        bot.new_game(game.to_move)
        children = _spawned(pids)
        assert all(_alive(pid) for pid in children)
        if ending == "failure":
            with pytest.raises(BotError, match="answered garbage"):
                bot.choose(game.observation(game.to_move))
        else:
            bot.choose(game.observation(game.to_move))
    finally:
        bot.close()
    # SIGKILL is delivered at once; this only waits for the kernel to reap them
    with suppress(AssertionError):
        wait_for(lambda: not any(_alive(pid) for pid in children), 30, what="the children to end")
    assert not [pid for pid in children if _alive(pid)]


def test_a_bot_that_closes_its_standard_error_is_not_polled_in_a_busy_loop(
    tmp_path: Path,
) -> None:
    """A closed standard error is always "readable" (at its end): it must be dropped from
    the selectors, or waiting for a slow reader spins on it."""
    body = """
    os.close(2)
    sys.stdin.readline()
    say("ready 1 Quiet")
    time.sleep(1.0)  # the engine's next, long line waits for this bot to read
    for line in sys.stdin:
        word = line.split(" ", 1)[0].strip()
        if word == "moves":
            moves = line.split()[1:]
        elif word == "go":
            say("move " + moves[-1])
    """
    bot = _bot(_script(tmp_path, "closed_stderr", body))
    drains = 0
    drain = bot._drain_stderr

    def counted() -> None:
        nonlocal drains
        drains += 1
        drain()

    bot._drain_stderr = counted  # type: ignore[method-assign]
    try:
        game = Game.new(7)
        bot.new_game(game.to_move)
        bot._send("info " + "x" * 300_000 + "\n")  # far more than a pipe holds
        observation = game.observation(game.to_move)
        for _ in range(3):
            assert bot.choose(observation) == observation.legal_moves[-1]
    finally:
        bot.close()
    assert drains < 20, f"standard error was polled {drains} times"


class _Stopped(BaseException):
    """What a signal handler raises in an arena worker told to stop (like SystemExit)."""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_a_program_whose_start_was_cut_short_is_still_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stop that lands in Popen after the fork leaves a program the bot never learnt of:
    close finds it by its run's marker."""
    import subprocess

    started: list[subprocess.Popen[bytes]] = []
    real = subprocess.Popen

    def cut_short(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        started.append(real(*args, **kwargs))
        raise _Stopped

    monkeypatch.setattr(subprocess, "Popen", cut_short)
    bot = _bot(_script(tmp_path, "sleeper", "time.sleep(600)\n"))
    with pytest.raises(_Stopped):
        bot.new_game(0)
    assert bot._process is None and started[0].poll() is None
    bot.close()
    assert started[0].wait(timeout=30) is not None


def test_close_stops_the_program_even_when_told_to_stop_while_it_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An arena worker told to stop while close waits for the program to quit still ends it."""
    from spite_malice.bot_protocol import external

    bot = _bot(_script(tmp_path, "stubborn", STUBBORN))
    bot.new_game(0)
    process = bot._process
    assert process is not None and process.poll() is None
    real = external._exit_status

    def interrupted(process: Any, timeout: float) -> int | None:
        if timeout > 0:
            raise _Stopped
        return real(process, timeout)

    monkeypatch.setattr(external, "_exit_status", interrupted)
    with pytest.raises(_Stopped):
        bot.close()
    assert process.poll() is not None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_a_stop_that_lands_inside_the_bots_own_stop_still_ends_the_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An arena worker's stop handler may run in the middle of the bot's own stop, after it
    has let go of the process and before the kill (the window a loaded machine widens):
    end_every_program, which the handler calls, ends the program all the same."""
    from spite_malice.bot_protocol import external

    bot = _bot(_script(tmp_path, "stubborn", STUBBORN))
    bot.new_game(0)
    process = bot._process
    assert process is not None and process.poll() is None

    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise _Stopped

    with monkeypatch.context() as patch:
        patch.setattr(external, "_end_process_tree", interrupted)
        with pytest.raises(_Stopped):
            bot.close()
    assert bot._process is None and process.poll() is None  # cut short: left running
    external.end_every_program()
    assert process.wait(timeout=30) is not None
