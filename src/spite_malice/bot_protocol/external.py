"""The engine side of the text protocol: an outside program as a :class:`Bot`.

``make_bot("./mybot")`` (a name with ``/`` or starting with ``.``) gives an
:class:`ExternalBot`. It starts the program on first use, greets it, and for each move sends
the position (the seat's observation as one line of JSON), the legal moves and ``go``; the
program answers ``move <MOVE>``. Whatever goes wrong (the program cannot start, answers
garbage or an illegal move, says nothing within the time limit, or exits) makes
:meth:`ExternalBot.choose` raise :class:`BotError` with the reason; the program is then
stopped, and started afresh for the next game.

Stopping the program ends its whole process tree: its process group, and on Linux every
process descended from it or carrying its run's marker in the environment, even one that
left the group with ``setsid``. Its standard error is kept as a bounded tail
(:data:`STDERR_TAIL` bytes), and its output is read in bulk, so that a program that writes a
million ``info`` lines with its move is not slowed down to a loss on time.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import selectors
import shlex
import shutil
import signal
import subprocess
import time
from collections import deque
from collections.abc import Sequence
from pathlib import Path

from ..bots.base import Bot, BotError
from ..engine.errors import NotationError
from ..engine.moves import Move, parse_move
from ..engine.observation import Observation
from . import GREETING, PROTOCOL_VERSION

MOVE_TIME = 5.0
"""Seconds a program may think about one move, unless told otherwise."""
START_TIME = 10.0
"""Seconds a program may take to start and answer the greeting."""
STDERR_TAIL = 64 * 1024
"""Bytes of the program's standard error that are kept (the last ones); the rest is read
and dropped, so a program that writes gigabytes there costs no memory."""
_MAX_LINE = 1 << 20
_CHUNK = 1 << 20
_MOVE_TIME_VARIABLE = "SPITE_MALICE_MOVE_TIME"
RUN_VARIABLE = "SPITE_MALICE_BOT_RUN"
"""Set in the program's environment to a token of its run: how :meth:`ExternalBot.close`
finds descendants that left its process group (Linux)."""
_PROC = Path("/proc")
_LIVE_RUNS: set[str] = set()
"""The run markers of this process's programs not yet known to be ended (see
:func:`end_every_program`)."""


class _Failure(Exception):
    """A reason to give up on the program; becomes a :class:`BotError`."""


class ExternalBot(Bot):
    """A bot played by an outside program speaking the protocol of ``docs/bot-protocol.md``.

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
        self._run = ""
        self._starting = False
        """While the program is being started: a stop then finds it by its run's marker."""
        self._known: dict[int, int] = {}
        """The program's descendants seen before it was asked to quit (see close)."""
        self._selector: selectors.BaseSelector | None = None
        self._partial = b""
        """The start of a line not yet ended."""
        self._lines: deque[bytes] = deque()
        """Lines read and not yet handled, ``info`` and blank lines left out."""
        self._stderr = bytearray()
        """The last :data:`STDERR_TAIL` bytes of the program's standard error."""
        self._stderr_closed = False
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
            line = self._read_line(deadline, f"no move within {self.move_time:g} s")
            word, _, rest = line.partition(" ")
            if word == "move":
                return self._check_move(rest.strip(), legal)
            raise _Failure(f"answered garbage: {_quote(line)} (expected 'move <MOVE>')")
        except _Failure as failure:
            raise self._fail(str(failure)) from None

    def close(self) -> None:
        """Ask the program to quit, and stop it if it does not within a second (stopped
        whatever happens meanwhile: a worker of the arena told to stop ends in here)."""
        process = self._process
        if process is None:
            self._stop()  # one whose start was cut short is found by its run's marker
            return
        try:
            if _exit_status(process, 0) is None:
                if _PROC.is_dir():  # once the program exits, its children lose their parent
                    self._known = _descendants(process.pid)
                self._send("quit\n", limit=1.0)
                _exit_status(process, 1.0)
        except _Failure:
            pass
        finally:
            self._stop()

    # ----------------------------------------------------------------- the process

    def _send_new_game(self, seat: int) -> None:
        if self._process is None or _exit_status(self._process, 0) is not None:
            self._start()
        self._send(f"newgame {seat} {self.rng.getrandbits(31)}\n")
        self._seat = seat

    def _start(self) -> None:
        self._stop()
        self._run = secrets.token_hex(16)
        _LIVE_RUNS.add(self._run)
        self._starting = True
        try:
            self._process = process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # its own session and group, which _stop ends
                env={**os.environ, RUN_VARIABLE: self._run},
            )
        except OSError as error:
            raise _Failure(f"could not start: {error}") from None
        self._starting = False
        assert process.stdin is not None and process.stdout is not None
        assert process.stderr is not None
        for stream in (process.stdin, process.stderr):
            os.set_blocking(stream.fileno(), False)  # see _send and _drain_stderr
        self._selector = selectors.DefaultSelector()
        self._selector.register(process.stdout.fileno(), selectors.EVENT_READ)
        self._selector.register(process.stderr.fileno(), selectors.EVENT_READ)
        self._partial = b""
        self._lines.clear()
        self._stderr.clear()
        self._stderr_closed = False
        self._send(f"{GREETING} {PROTOCOL_VERSION}\n")
        deadline = time.monotonic() + self.start_time
        while True:
            line = self._read_line(deadline, f"no greeting within {self.start_time:g} s")
            word, _, rest = line.partition(" ")
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
                if process.stderr is not None and not self._stderr_closed:
                    selector.register(process.stderr.fileno(), selectors.EVENT_READ)
                while data:
                    left = deadline - time.monotonic()
                    ready = selector.select(left) if left > 0 else []
                    if not ready:
                        raise _Failure(f"did not read its input for {limit:g} s")
                    if any(key.fd != fd for key, _ in ready):
                        self._drain_stderr()
                        if self._stderr_closed and process.stderr is not None:
                            selector.unregister(process.stderr.fileno())
                    if not any(key.fd == fd for key, _ in ready):
                        continue
                    try:
                        data = data[os.write(fd, data) :]
                    except BlockingIOError:
                        continue
        except OSError:  # BrokenPipeError among others: the program has gone
            raise _Failure(self._exit_reason()) from None

    def _read_line(self, deadline: float, timeout_reason: str) -> str:
        """The next line from the program that is neither blank nor ``info``, stripped; a
        failure after ``deadline``.

        Output is read in chunks of up to a megabyte and split in one go; ``info`` and blank
        lines are dropped there, so a million of them cost a fraction of a second.
        """
        process, selector = self._process, self._selector
        assert process is not None and process.stdout is not None and selector is not None
        fd = process.stdout.fileno()
        while not self._lines:
            left = deadline - time.monotonic()
            ready = selector.select(left) if left > 0 else []
            if not ready:
                raise _Failure(timeout_reason)
            if any(key.fd != fd for key, _ in ready):
                self._drain_stderr()
            if not any(key.fd == fd for key, _ in ready):
                continue
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                raise _Failure(self._exit_reason())
            *lines, self._partial = (self._partial + chunk).split(b"\n")
            if len(self._partial) > _MAX_LINE:
                raise _Failure(f"answered garbage: a line longer than {_MAX_LINE} bytes")
            self._lines.extend(
                line
                for line in lines
                if (text := line.strip()) and text != b"info" and not text.startswith(b"info ")
            )
        raw = self._lines.popleft()
        try:
            return raw.decode().strip()
        except UnicodeDecodeError:
            raise _Failure(f"answered garbage: {raw[:60]!r} is not UTF-8 text") from None

    def _drain_stderr(self) -> None:
        """Read what the program wrote on standard error, keeping only the last
        :data:`STDERR_TAIL` bytes."""
        process = self._process
        if process is None or process.stderr is None:
            return
        if self._stderr_closed:
            return
        fd = process.stderr.fileno()
        for _ in range(64):  # at most 64 MB a call: the rest waits for the next one
            try:
                chunk = os.read(fd, _CHUNK)
            except (BlockingIOError, OSError):
                return
            if not chunk:  # closed: never select it again, or every select returns at once
                self._stderr_closed = True
                if self._selector is not None:
                    with contextlib.suppress(KeyError, ValueError):
                        self._selector.unregister(fd)
                return
            self._stderr += chunk
            if len(self._stderr) > STDERR_TAIL:
                del self._stderr[:-STDERR_TAIL]

    def _exit_reason(self) -> str:
        """Why the program stopped talking: it exited (with what), or closed its output."""
        process = self._process
        assert process is not None
        status = _exit_status(process, 1.0)
        if status is None:
            return "closed its output"
        how = f"was killed by signal {-status}" if status < 0 else f"exited with status {status}"
        text = f"crashed: {how}" if status else f"quit unasked ({how})"
        tail = self._stderr_tail()
        return f"{text}; its last error output: {tail}" if tail else text

    def _stderr_tail(self) -> str:
        """The last three lines of the program's standard error, at most 300 characters."""
        self._drain_stderr()
        lines = self._stderr.decode(errors="replace").strip().splitlines()
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
        """End the program and every process it started (see :func:`_end_process_tree`)."""
        process, self._process = self._process, None
        self._seat = None
        if process is None and self._starting:  # Popen was cut short, perhaps after the fork
            _end_process_tree(None, self._run)
            _LIVE_RUNS.discard(self._run)
        self._starting = False
        if self._selector is not None:
            self._selector.close()
            self._selector = None
        if process is not None:
            # Not reaped yet, the program's number (and so its group's and session's) is still
            # its own: no other process can have it.
            unreaped = process.returncode is None
            _end_process_tree(process.pid if unreaped else None, self._run, self._known)
            _LIVE_RUNS.discard(self._run)
            self._known = {}
            if unreaped:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)  # the group, where /proc is absent
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5.0)
            for stream in (process.stdin, process.stdout, process.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        self._lines.clear()
        self._partial = b""

    def __del__(self) -> None:
        if getattr(self, "_process", None) is not None:
            self._stop()


def end_every_program() -> None:
    """End, on Linux, every program this process's bots started and have not yet seen ended,
    with each one's whole run (the processes carrying its run's marker), whatever the bots
    are doing meanwhile. For a stop signal's handler: such a handler may run in the middle of
    a bot's own stop, which, cut short there, would leave its program running."""
    for run in sorted(_LIVE_RUNS):
        _end_process_tree(None, run)
        _LIVE_RUNS.discard(run)


def _descendants(root: int) -> dict[int, int]:
    """The live processes descended from ``root`` (itself included), each with its start
    time, so that a later kill can tell it from a new process that got its number."""
    table = _process_table()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _group, _session, _started) in table.items():
        children.setdefault(ppid, []).append(pid)
    found: dict[int, int] = {}
    stack = [root]
    while stack:
        pid = stack.pop()
        if pid in table and pid not in found:
            found[pid] = table[pid][3]
            stack.extend(children.get(pid, ()))
    return found


def _exit_status(process: subprocess.Popen[bytes], timeout: float) -> int | None:
    """The program's exit status (minus the signal that killed it) once it has exited, waiting
    up to ``timeout`` seconds; None while it runs. It is not reaped (see :meth:`_stop`)."""
    if process.returncode is not None:
        return process.returncode
    deadline = time.monotonic() + timeout
    while True:
        try:
            info = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:  # reaped already
            return process.poll()
        if info is not None:
            killed = info.si_code in (os.CLD_KILLED, os.CLD_DUMPED)
            return -info.si_status if killed else info.si_status
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.01)


def _end_process_tree(root: int | None, run: str, known: dict[int, int] | None = None) -> None:
    """Kill, where ``/proc`` shows them (Linux), every process of a bot's run: those in the
    session or process group of ``root`` (the bot, started in a session of its own), those
    descended from ``root`` while it lives, those in ``known`` (from :func:`_descendants`,
    taken before the bot exited) that still run, and those whose environment carries
    ``run`` as :data:`RUN_VARIABLE`. A bot that calls ``setsid`` leaves its group but not
    its parent chain or its environment; one that also forks twice and exits keeps the
    environment. Each round stops what it finds, so that nothing forks meanwhile, and looks
    again; then everything found is killed.

    ``root`` must be an unreaped child of this process, whose number (and so its group's and
    session's) no other process can have; None when it has been reaped, and then only
    ``known`` and the environment are used.
    """
    if not _PROC.is_dir():
        return
    marker = f"{RUN_VARIABLE}={run}".encode()
    me = os.getpid()
    found: set[int] = set()
    for _ in range(20):
        table = _process_table()
        new = {pid for pid, started in (known or {}).items() if _started(table, pid) == started}
        if root is not None:
            new.update(_descendants(root))
        for pid, (ppid, group, session, _when) in table.items():
            in_run = root is not None and root in (group, session)
            if in_run or ppid in found or (run and _has_marker(pid, marker)):
                new.add(pid)
        new -= found | {me}
        if not new:
            break
        for pid in new:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGSTOP)
        found |= new
    for pid in found:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def _started(table: dict[int, tuple[int, int, int, int]], pid: int) -> int:
    entry = table.get(pid)
    return -1 if entry is None else entry[3]


def _process_table() -> dict[int, tuple[int, int, int, int]]:
    """Every live process's parent, process group, session and start time, from
    ``/proc/PID/stat`` (zombies left out: they are dead already)."""
    table: dict[int, tuple[int, int, int, int]] = {}
    try:
        entries = list(_PROC.iterdir())
    except OSError:
        return table
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()  # after "pid (command) "
        if len(fields) < 20 or fields[0] in (b"Z", b"X"):
            continue
        table[int(entry.name)] = (int(fields[1]), int(fields[2]), int(fields[3]), int(fields[19]))
    return table


def _has_marker(pid: int, marker: bytes) -> bool:
    try:
        environment = (_PROC / str(pid) / "environ").read_bytes()
    except OSError:  # another user's process, or gone
        return False
    return marker in environment.split(b"\0")


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
