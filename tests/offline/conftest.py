"""Helpers of the offline tests: offline matches played to the end on CPython."""

from __future__ import annotations

from typing import Any

from spite_malice.bots import ReferenceBot
from spite_malice.offline import OfflineSession
from spite_malice.offline.session import make_rules

SHORT = {"payoff_size": 5, "match_target": 1}
"""A match of one game with 5-card pay-off piles (R1.2, R5.1)."""


def play_out(session: OfflineSession, *, limit: int = 5000) -> list[dict[str, Any]]:
    """Play ``session`` to the end of its match, the person's side by the reference bot;
    the messages of the person's moves, in order."""
    person = ReferenceBot(1)
    sent: list[dict[str, Any]] = []
    for count in range(limit):
        if session.record()["over"]:
            return sent
        if session.computer_to_move:
            sent += session.computer_move()
            continue
        if session.table.is_game_over:
            sent += session.handle({"type": "new_game", "id": count})
            continue
        move = person.choose(session.table.observation(0))
        sent += session.handle({"type": "move", "id": count, "move": str(move)})
    raise AssertionError("the match did not end")


def new_session(level: str = "medium", seed: int = 11, rules: Any = None) -> OfflineSession:
    return OfflineSession.new(
        level=level, rules=make_rules(rules or SHORT, None), name="Ann", seed=seed
    )
