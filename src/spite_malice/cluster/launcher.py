"""Start PostgreSQL, N game instances and HAProxy together, and stop them together."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .balancer import Balancer, BalancerMissing, find_config, server_slots
from .postgres import PostgresMissing, PrivatePostgres
from .processes import answers, free_port, kill, listens, stop, wait_until

SERVE = "import sys; from spite_malice.cli import main; sys.exit(main())"


class ClusterError(RuntimeError):
    """The cluster could not start: a missing program, or a part that did not come up."""


BALANCER_ADDRESS = "127.0.0.1"
"""Where the balancer's connections to the instances come from (all on this machine)."""


@dataclass
class Instance:
    """One ``spite-malice serve`` process of the cluster."""

    number: int
    port: int
    database: str
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return f"http://{self.address}"

    def start(self) -> None:
        output = self.log.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                SERVE,
                "serve",
                "--port",
                str(self.port),
                "--db",
                self.database,
                # the balancer, on this machine, forwards each player's own address
                "--trusted-proxies",
                BALANCER_ADDRESS,
            ],
            stdout=output,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )

    def is_up(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise ClusterError(
                f"instance {self.number} exited (status {self.process.returncode}); see {self.log}"
            )
        mine = self.process is None or listens(self.process.pid, self.port) is not False
        return mine and answers(f"{self.url}/api/health")

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)

    def kill(self) -> None:
        """End the instance as a crash would (SIGKILL)."""
        if self.process is not None:
            kill(self.process)


@dataclass
class Cluster:
    """PostgreSQL (a private server unless ``database`` names one), instances and HAProxy."""

    instances_wanted: int = 3
    database: str | None = None
    host: str = "127.0.0.1"
    port: int | None = None
    config: Path | None = None
    folder: Path | None = None
    instances: list[Instance] = field(default_factory=list)
    postgres: PrivatePostgres | None = None
    balancer: Balancer | None = None
    _made_folder: bool = False

    @property
    def address(self) -> str:
        assert self.balancer is not None
        return self.balancer.address

    def start(self) -> None:
        """Start every part, in order; on any failure stop what was started and raise."""
        try:
            self._start()
        except (PostgresMissing, BalancerMissing, TimeoutError, RuntimeError) as error:
            self.stop()
            raise ClusterError(str(error)) from error

    def _start(self) -> None:
        config = self.config or find_config()
        if self.instances_wanted < 1 or self.instances_wanted > server_slots(config):
            raise ClusterError(
                f"{config} has room for 1 to {server_slots(config)} instances, "
                f"not {self.instances_wanted}"
            )
        if self.folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix="spite-malice-cluster-"))
            # as root, PostgreSQL runs as its own user, which must reach its folder inside
            self.folder.chmod(0o755)
            self._made_folder = True
        folder = self.folder
        folder.mkdir(parents=True, exist_ok=True)
        database = self.database
        if database is None:
            self.postgres = PrivatePostgres(folder / "postgres")
            self.postgres.start()
            database = self.postgres.url
        for number in range(1, self.instances_wanted + 1):
            instance = Instance(number, free_port(), database, folder / f"instance{number}.log")
            self.instances.append(instance)
        # The first instance makes or migrates the schema alone; the others start together.
        first, *others = self.instances
        first.start()
        wait_until(first.is_up, 60, "instance 1")
        for instance in others:
            instance.start()
        for instance in others:
            wait_until(instance.is_up, 60, f"instance {instance.number}")
        self.balancer = Balancer(
            config,
            [instance.address for instance in self.instances],
            host=self.host,
            port=self.port,
            log=folder / "haproxy.log",
        )
        self.balancer.start()
        wait_until(lambda: answers(f"{self.address}/api/health"), 30, "the balancer's backends")

    def restart(self, instance: Instance) -> None:
        """Start a stopped or killed instance again, on its port (nothing if it runs)."""
        if instance.process is not None and instance.process.poll() is None:
            return
        instance.start()
        wait_until(instance.is_up, 60, f"instance {instance.number}")

    def stop(self) -> None:
        """Stop the balancer, the instances and the private PostgreSQL server (in that order)."""
        if self.balancer is not None:
            self.balancer.stop()
        for instance in self.instances:
            instance.stop()
        if self.postgres is not None:
            self.postgres.stop()

    def remove_folder(self) -> None:
        """Delete the temporary folder the cluster made (its database and logs)."""
        if self._made_folder and self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
