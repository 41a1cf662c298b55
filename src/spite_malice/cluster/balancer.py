"""HAProxy in front of the instances, run with the repository's ``deploy/haproxy.cfg``."""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from .processes import answers, free_port, stop, wait_until

INSTANCE_VARIABLE = "SPITE_MALICE_INSTANCE_{}"


class BalancerMissing(RuntimeError):
    """HAProxy is not installed, or its configuration file cannot be found."""


def find_config(start: Path | None = None) -> Path:
    """``deploy/haproxy.cfg`` of the repository holding ``start`` (the working folder)."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / "deploy" / "haproxy.cfg"
        if candidate.is_file():
            return candidate
    raise BalancerMissing(
        "deploy/haproxy.cfg was not found: run the cluster from the spite-malice repository, "
        "or pass --haproxy-config"
    )


def server_slots(config: Path) -> int:
    """How many instances the configuration lists (its ``SPITE_MALICE_INSTANCE_N`` lines)."""
    text = config.read_text(encoding="utf-8")
    count = 0
    while INSTANCE_VARIABLE.format(count + 1) in text:
        count += 1
    return count


class Balancer:
    """One HAProxy process listening on ``port`` and sending requests to ``instances``."""

    def __init__(
        self,
        config: Path,
        instances: Sequence[str],
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        log: Path | None = None,
    ) -> None:
        program = shutil.which("haproxy") or (
            "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
        )
        if program is None:
            raise BalancerMissing(
                "HAProxy is not installed: run `make cluster` (which installs it with apt-get "
                "as root) or install the haproxy package"
            )
        slots = server_slots(config)
        if len(instances) > slots:
            raise BalancerMissing(
                f"{config} lists {slots} instances, not {len(instances)}: add a server line"
            )
        self.program = program
        self.config = config
        self.slots = slots
        """How many server lines the configuration has (instances fill the first ones)."""
        self.instances = list(instances)
        self.host = host
        self.port = port or free_port(host)
        self.stats_port = free_port()
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def stats_address(self) -> str:
        return f"http://127.0.0.1:{self.stats_port}/"

    def environment(self) -> dict[str, str]:
        """The variables that ``deploy/haproxy.cfg`` reads."""
        env = dict(os.environ)
        env["SPITE_MALICE_BIND"] = f"{self.host}:{self.port}"
        env["SPITE_MALICE_STATS"] = f"127.0.0.1:{self.stats_port}"
        for slot in range(self.slots):
            # A slot with no instance points at a closed port: HAProxy marks it down.
            target = self.instances[slot] if slot < len(self.instances) else "127.0.0.1:9"
            env[INSTANCE_VARIABLE.format(slot + 1)] = target
        return env

    def start(self) -> None:
        """Check the configuration, start HAProxy and wait until it answers."""
        env = self.environment()
        checked = subprocess.run(
            [self.program, "-c", "-q", "-f", str(self.config)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if checked.returncode != 0:
            raise BalancerMissing(f"{self.config} is not valid: {checked.stderr.strip()[-500:]}")
        output = self.log.open("ab") if self.log else subprocess.DEVNULL
        self.process = subprocess.Popen(
            [self.program, "-db", "-f", str(self.config)],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_until(self._listening, 15, "HAProxy")
        # HAProxy counts a server up until its checks fail: a request in the first second
        # could go to a slot with no instance, and be cut off when the slot is marked down.
        wait_until(self._unused_slots_down, 15, "HAProxy's check of the unused server slots")

    def _listening(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise BalancerMissing(f"HAProxy exited at once (status {self.process.returncode})")
        return answers(self.stats_address)

    def server_states(self) -> dict[str, str]:
        """Each server of the ``instances`` backend and its state (``UP``, ``DOWN``, ...)
        from HAProxy's statistics page (CSV)."""
        with urllib.request.urlopen(f"{self.stats_address};csv", timeout=1.0) as reply:
            text = reply.read().decode("utf-8")
        rows = csv.DictReader(io.StringIO(text.removeprefix("# ")))
        return {
            row["svname"]: row["status"]
            for row in rows
            if row["pxname"] == "instances" and row["svname"] not in ("FRONTEND", "BACKEND")
        }

    def _unused_slots_down(self) -> bool:
        unused = range(len(self.instances) + 1, self.slots + 1)
        try:
            states = self.server_states()
        except OSError:
            return False
        return all(states.get(f"instance{slot}", "").startswith("DOWN") for slot in unused)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
