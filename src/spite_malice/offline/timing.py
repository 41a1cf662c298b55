"""How long the computer takes to choose a move, measured the same way in the page's offline
engine (Pyodide) and on the server (CPython): ``benchmarks/offline_timing.py`` runs both.

:func:`think_times` plays matches against ``level`` on a table, the person's side by the
reference bot, and times every decision of the computer (``Table.think``).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from ..bots import ReferenceBot
from ..engine.rules import Rules
from .record import COMPUTER_SEAT, PERSON, new_table


def think_times(level: str, decisions: int = 60, seed: int = 1) -> dict[str, Any]:
    """Seconds of ``decisions`` decisions of ``level`` (5-card pay-off piles, as quick games),
    summed up: mean, median, 95th percentile and the longest, in milliseconds."""
    times: list[float] = []
    person = ReferenceBot(seed)
    game_seed = seed
    while len(times) < decisions:
        table = new_table(level, Rules(payoff_size=5, match_target=1), game_seed, "Timer")
        table.apply(table.check_deal())
        while not table.is_game_over and len(times) < decisions:
            if table.game.to_move == COMPUTER_SEAT:
                started = time.perf_counter()
                move = table.think()
                times.append(time.perf_counter() - started)
                table.apply(table.check_move(COMPUTER_SEAT, move))
            else:
                move = person.choose(table.observation(PERSON))
                table.apply(table.check_move(PERSON, move))
        table.close()
        game_seed += 1
    ordered = sorted(times)
    return {
        "level": level,
        "decisions": len(times),
        "mean_ms": round(statistics.fmean(times) * 1000, 2),
        "median_ms": round(statistics.median(times) * 1000, 2),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 2),
        "max_ms": round(ordered[-1] * 1000, 2),
    }
