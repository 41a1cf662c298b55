"""What the cluster tests share: whether the services are here, players, a simple policy and
the stored history of a room."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import httpx

from spite_malice.cluster.postgres import PostgresMissing, bin_dir
from spite_malice.store import Store
from spite_malice.table import Table

REPOSITORY = Path(__file__).resolve().parents[2]
HAPROXY_CONFIG = REPOSITORY / "deploy" / "haproxy.cfg"
QUICK = {"payoff_size": 5}
LONG = {"payoff_size": 20}
"""For a test that needs a computer turn after the person's first: with 5 pay-off cards, on
some deals one side wins in its first turn."""


def have_postgres() -> bool:
    """Whether PostgreSQL's server programs are installed (.ci/run installs them)."""
    try:
        bin_dir()
    except PostgresMissing:
        return False
    return True


def have_services() -> bool:
    """Whether PostgreSQL's server programs and HAProxy are both installed."""
    return have_postgres() and (
        shutil.which("haproxy") is not None or Path("/usr/sbin/haproxy").exists()
    )


def new_player(base: str, name: str) -> dict[str, str]:
    """The header of a new player of the server at ``base``."""
    answer = httpx.post(f"{base}/api/players", json={"name": name}, timeout=30)
    assert answer.status_code == 201, answer.text
    return {"X-Player-Secret": answer.json()["secret"]}


def greedy(observation: dict[str, Any]) -> str:
    """The pay-off card, then side stacks, then hand builds, else the last discard."""
    legal: list[str] = observation["legal_moves"]
    for prefix in ("P-", "S1-C", "S2-C", "S3-C", "S4-C"):
        for move in legal:
            if move.startswith(prefix):
                return move
    builds = [m for m in legal if "-C" in m and not m.startswith("HK")]
    return builds[0] if builds else [m for m in legal if "-S" in m][-1]


def stored_history(db: str, room: str) -> list[str]:
    """The moves of the room's current game, replayed from the move log."""
    with Store.open(db) as store:
        stored = store.load_room(room)
        assert stored is not None
        header = stored.header
        table = Table.restore(header.rules, header.seed, header.meta, stored.steps)
        return [str(move) for move in table.game.moves]
