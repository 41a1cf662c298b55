"""The engine side of the text protocol: an outside program as a :class:`Bot`.

``make_bot("./mybot")`` (a name with ``/`` or starting with ``.``) gives an
:class:`ExternalBot`. It starts the program on first use, greets it, and for each move sends
the position (the seat's observation as one line of JSON), the legal moves and ``go``; the
program answers ``move <MOVE>``. Whatever goes wrong (the program cannot start, answers
garbage or an illegal move, says nothing within the time limit, or exits) makes
:meth:`ExternalBot.choose` raise :class:`BotError` with the reason; the program is then
stopped, and started afresh for the next game.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from typing import IO

from ..bots.base import Bot, BotError
from ..engine.errors import NotationError
from ..engine.moves import Move, parse_move
from ..engine.observation import Observation
from . import GREETING, PROTOCOL_VERSION

MOVE_TIME = 5.0
"""Seconds a program may think about one move, unless told otherwise."""
START_TIME = 10.0
"""Seconds a program may take to start and answer the greeting."""
_MAX_LINE = 1 << 20
_MOVE_TIME_VARIABLE = "SPITE_MALICE_MOVE_TIME"


class _Failure(Exception):
    """A reason to give up on the program; becomes a :class:`BotError`."""


class ExternalBot(Bot):
    """A bot played by an outside program speaking the protocol of ``docs/protocol.md``.

    ``command`` is a path (``./mybot``) or a command line (``"python3 bots/mine.py"``), or
    a list of arguments. ``move_time`` is the time limit per move in seconds (default
    :data:`MOVE_TIME`, or the environment variable ``SPITE_MALICE_MOVE_TIME``);
    ``start_time`` bounds the start and greeting.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        seed: int | None = None,
        *,
        move_time: float | None = None,
        start_time: float = START_TIME,
    ) -> None:
        super().__init__(seed)
        if isinstance(command, str):
            self.argv = shlex.split(command)
            self.command = command
        else:
            self.argv = list(command)
            self.command = shlex.join(self.argv)
        if not self.argv:
            raise ValueError("an outside bot needs a command to run")
        self.argv[0] = _resolve(self.argv[0])
        self.name = self.command
        if move_time is None:
            move_time = float(os.environ.get(_MOVE_TIME_VARIABLE, MOVE_TIME))
        if move_time <= 0 or start_time <= 0:
            raise ValueError("time limits must be positive")
        self.move_time = move_time
        self.start_time = start_time
        self.program_name: str | None = None
        """The name the program gave in its greeting."""
        self._process: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._buffer = b""
        self._seat: int | None = None
        self._error: BotError | None = None

    # ----------------------------------------------------------------- the Bot interface

    def new_game(self, seat: int) -> None:
        """Tell the program a game begins (starting it first if need be). A failure here is
        kept and raised by the next :meth:`choose`."""
        self._error = None
        self._seat = None
        try:
            self._send_new_game(seat)
        except _Failure as failure:
            self._error = self._fail(str(failure))

    def choose(self, observation: Observation) -> Move:
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        try:
            if self._seat != observation.seat:
                self._send_new_game(observation.seat)
            legal = observation.legal_moves
            position = json.dumps(observation.to_json(), separators=(",", ":"))
            limit_ms = max(1, round(self.move_time * 1000))
            self._send(
                f"position {position}\nmoves {' '.join(str(m) for m in legal)}\ngo {limit_ms}\n"
            )
            deadline = time.monotonic() + self.move_time
            while True:
                line = self._read_line(deadline, f"no move within {self.move_time:g} s")
                word, _, rest = line.partition(" ")
                if word == "move":
                    return self._check_move(rest.strip(), legal)
                if word == "info" or not line:
                    continue
                raise _Failure(f"answered garbage: {_quote(line)} (expected 'move <MOVE>')")
        except _Failure as failure:
            raise self._fail(str(failure)) from None

    def close(self) -> None:
        """Ask the program to quit, and stop it if it does not within a second."""
        process = self._process
        if process is None:
            return
        try:
            if process.poll() is None:
                self._send("quit\n", limit=1.0)
                process.wait(timeout=1.0)
        except (_Failure, subprocess.TimeoutExpired):
            pass
        self._stop()

    # ----------------------------------------------------------------- the process

    def _send_new_game(self, seat: int) -> None:
        if self._process is None or self._process.poll() is not None:
            self._start()
        self._send(f"newgame {seat} {self.rng.getrandbits(31)}\n")
        self._seat = seat

    def _start(self) -> None:
        self._stop()
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - kept open while the program runs
        try:
            self._process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                start_new_session=True,  # its own process group, so that _stop reaches children
            )
        except OSError as error:
            raise _Failure(f"could not start: {error}") from None
        assert self._process.stdin is not None
        os.set_blocking(self._process.stdin.fileno(), False)  # see _send
        self._buffer = b""
        self._send(f"{GREETING} {PROTOCOL_VERSION}\n")
        deadline = time.monotonic() + self.start_time
        while True:
            line = self._read_line(deadline, f"no greeting within {self.start_time:g} s")
            word, _, rest = line.partition(" ")
            if word == "info" or not line:
                continue
            if word != "ready":
                expected = f"ready {PROTOCOL_VERSION}"
                raise _Failure(f"answered the greeting with {_quote(line)} (expected {expected!r})")
            version, _, name = rest.strip().partition(" ")
            if version != str(PROTOCOL_VERSION):
                raise _Failure(
                    f"speaks protocol version {_quote(version)}; this engine speaks "
                    f"{PROTOCOL_VERSION}"
                )
            self.program_name = name.strip() or None
            return

    def _send(self, text: str, limit: float | None = None) -> None:
        """Write to the program; one that stops reading its input fails after ``limit``
        seconds (by default the longer time limit) instead of blocking the engine."""
        process = self._process
        assert process is not None and process.stdin is not None
        data = text.encode()
        fd = process.stdin.fileno()
        if limit is None:
            limit = max(self.move_time, self.start_time)
        deadline = time.monotonic() + limit
        try:
            with selectors.DefaultSelector() as selector:
                selector.register(fd, selectors.EVENT_WRITE)
                while data:
                    left = deadline - time.monotonic()
                    if left <= 0 or not selector.select(left):
                        raise _Failure(f"did not read its input for {limit:g} s")
                    try:
                        data = data[os.write(fd, data) :]
                    except BlockingIOError:
                        continue
        except OSError:  # BrokenPipeError among others: the program has gone
            raise _Failure(self._exit_reason()) from None

    def _read_line(self, deadline: float, timeout_reason: str) -> str:
        """The next line from the program, without its newline; a failure after ``deadline``."""
        process = self._process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > _MAX_LINE:
                    raise _Failure(f"answered garbage: a line longer than {_MAX_LINE} bytes")
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise _Failure(timeout_reason)
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise _Failure(self._exit_reason())
                self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\n", 1)
        try:
            return raw.decode().strip()
        except UnicodeDecodeError:
            raise _Failure(f"answered garbage: {raw[:60]!r} is not UTF-8 text") from None

    def _exit_reason(self) -> str:
        """Why the program stopped talking: it exited (with what), or closed its output."""
        process = self._process
        assert process is not None
        try:
            status = process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "closed its output"
        how = f"was killed by signal {-status}" if status < 0 else f"exited with status {status}"
        text = f"crashed: {how}" if status else f"quit unasked ({how})"
        tail = self._stderr_tail()
        return f"{text}; its last error output: {tail}" if tail else text

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        try:
            self._stderr.seek(0)
            data = self._stderr.read()
        except (OSError, ValueError):
            return ""
        lines = data.decode(errors="replace").strip().splitlines()
        return " | ".join(line.strip() for line in lines[-3:])[-300:]

    def _check_move(self, text: str, legal: Sequence[Move]) -> Move:
        try:
            move = parse_move(text)
        except NotationError as error:
            raise _Failure(f"answered an invalid move: {error.reason} ({_quote(text)})") from None
        if move not in legal:
            shown = " ".join(str(m) for m in legal[:12]) + (" ..." if len(legal) > 12 else "")
            raise _Failure(f"answered an illegal move {_quote(text)}; legal moves: {shown}")
        return move

    def _fail(self, reason: str) -> BotError:
        """Stop the program after a failure; the next game starts it afresh."""
        self._stop()
        return BotError(self.name, reason)

    def _stop(self) -> None:
        process, self._process = self._process, None
        self._seat = None
        if process is not None:
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5.0)
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def __del__(self) -> None:
        if getattr(self, "_process", None) is not None:
            self._stop()


def _resolve(program: str) -> str:
    """The program to run: a path must be an executable file; a bare name is looked up."""
    if "/" in program or program.startswith("."):
        if not os.path.isfile(program):
            raise ValueError(f"no bot program at {program!r}")
        if not os.access(program, os.X_OK):
            raise ValueError(
                f"the bot program {program!r} is not executable: chmod +x it, or give a "
                f"command such as 'python3 {program}'"
            )
        return program
    found = shutil.which(program)
    if found is None:
        raise ValueError(f"no program {program!r} on the PATH")
    return program


def _quote(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:77] + "...")


__all__ = ["MOVE_TIME", "START_TIME", "ExternalBot"]
