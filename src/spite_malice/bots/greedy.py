"""The greedy policy on an observation's JSON (the form the web server and the text protocol
send): the pay-off card first, then side stack tops 1 to 4, then hand builds (Kings last),
else a discard of the highest card. Clients that play through the wire use it (the web
tests, the server load benchmark); it plays otherwise than the reference first-fit policy
(:mod:`.reference`), so it stays a policy of its own and the games recorded with it keep."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def greedy(observation: Mapping[str, Any]) -> str:
    """The greedy move among ``observation["legal_moves"]`` (move notation, in the order the
    engine lists them; at least one)."""
    legal: list[str] = observation["legal_moves"]
    for prefix in ("P-", "S1-C", "S2-C", "S3-C", "S4-C"):
        for move in legal:
            if move.startswith(prefix):
                return move
    builds = [m for m in legal if "-C" in m and not m.startswith("HK")]
    if builds:
        return builds[0]
    discards = [m for m in legal if "-S" in m]
    plain = [m for m in discards if not m.startswith("HK")]
    return (plain or discards)[-1]
