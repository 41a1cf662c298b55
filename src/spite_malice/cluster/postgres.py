"""A private PostgreSQL server in a folder of its own, for trying the cluster on one machine.

It uses the machine's PostgreSQL programs (Debian's ``postgresql`` package puts them in
``/usr/lib/postgresql/N/bin``). PostgreSQL refuses to run as root, so as root the server runs
as the ``postgres`` user that the package creates.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from pathlib import Path

from .processes import free_port, wait_until

USER = "spite"
PASSWORD = "spite"
DATABASE = "spite_malice"
PROGRAMS = ("initdb", "pg_ctl", "pg_isready", "psql")


class PostgresMissing(RuntimeError):
    """No PostgreSQL server programs on this machine."""


def bin_dir() -> Path:
    """The folder of PostgreSQL's server programs (``initdb``, ``pg_ctl``)."""
    found = shutil.which("initdb")
    if found:  # often a link into the real folder, beside pg_ctl, psql and pg_isready
        folder = Path(found).resolve().parent
        if all((folder / name).exists() for name in PROGRAMS):
            return folder
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if not candidates:
        raise PostgresMissing(
            "PostgreSQL's server programs are not installed: run `make cluster` (which installs "
            "them with apt-get as root) or install the postgresql package"
        )
    return Path(candidates[-1]).parent


def _version(path: str) -> tuple[int, ...]:
    part = Path(path).parent.parent.name
    return tuple(int(piece) for piece in part.split(".") if piece.isdigit())


class PrivatePostgres:
    """A PostgreSQL server with its data in ``folder``, listening on loopback only."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.port = port or free_port()
        self.programs = bin_dir()
        self._as_other_user = os.geteuid() == 0

    @property
    def url(self) -> str:
        """The SQLAlchemy URL of the game's database on this server."""
        return f"postgresql+psycopg://{USER}:{PASSWORD}@127.0.0.1:{self.port}/{DATABASE}"

    def start(self) -> None:
        """Make the cluster folder on first use, start the server and create the database."""
        self.folder.mkdir(parents=True, exist_ok=True)
        if self._as_other_user:
            shutil.chown(self.folder, "postgres", "postgres")
        if not (self.data / "PG_VERSION").exists():
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8")
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.folder / "postgres.log"),
            "-o",
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} -c max_connections=300",
            "-w",
            "start",
        )
        wait_until(self._ready, 30, "PostgreSQL")
        self._sql(
            f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname='{USER}') THEN "
            f"CREATE ROLE {USER} LOGIN PASSWORD '{PASSWORD}'; END IF; END $$;"
        )
        exists = self._sql(f"SELECT 1 FROM pg_database WHERE datname='{DATABASE}'")
        if "1" not in exists:
            self._sql(f"CREATE DATABASE {DATABASE} OWNER {USER}")

    def stop(self) -> None:
        """Stop the server (fast shutdown: open transactions are rolled back)."""
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    def _ready(self) -> bool:
        done = subprocess.run(
            self._command("pg_isready", "-q", "-h", "127.0.0.1", "-p", str(self.port)),
            check=False,
        )
        return done.returncode == 0

    def _sql(self, statement: str) -> str:
        done = self._run(
            "psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-qAtc", statement
        )
        return done.stdout

    def _command(self, program: str, *args: str) -> list[str]:
        command = [str(self.programs / program), *args]
        if self._as_other_user:
            return ["runuser", "-u", "postgres", "--", *command]
        return command

    def _run(
        self, program: str, *args: str, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            self._command(program, *args), capture_output=True, text=True, check=False
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"{program} failed: {(done.stderr or done.stdout).strip()[-500:]}")
        return done
