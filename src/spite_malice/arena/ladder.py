"""The ladder: every level against every other, and Elo ratings fitted to the results."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine.rules import Rules
from .ratings import Record, fit_elo
from .stats import Summary, summarize
from .tournament import run_arena


@dataclass(frozen=True, slots=True)
class LadderResult:
    """The pairings played (``summaries``, A the first-named bot) and the ratings."""

    names: tuple[str, ...]
    games: int
    seed: int
    summaries: tuple[Summary, ...]
    ratings: dict[str, float]

    def ranked(self) -> list[tuple[str, float]]:
        """Bots by rating, best first."""
        return sorted(self.ratings.items(), key=lambda item: -item[1])


def run_ladder(
    names: Sequence[str],
    games: int,
    seed: int = 1,
    *,
    jobs: int = 1,
    rules: Rules = Rules.STANDARD,
    progress: Callable[[str, int], None] | None = None,
) -> LadderResult:
    """Play ``games`` games for every pair of ``names`` and fit Elo ratings.

    ``progress(pairing, finished)`` is called as games finish, ``pairing`` naming the pair.
    """
    if len(names) < 2:
        raise ValueError("a ladder needs at least two bots")
    summaries: list[Summary] = []
    records: dict[tuple[str, str], Record] = {}
    for i, name_a in enumerate(names):
        for name_b in names[i + 1 :]:
            label = f"{name_a} v {name_b}"

            def report(done: int, label: str = label) -> None:
                if progress is not None:
                    progress(label, done)

            results = run_arena(
                name_a, name_b, games, seed, jobs=jobs, rules=rules, progress=report
            )
            summary = summarize(results, name_a, name_b)
            summaries.append(summary)
            records[name_a, name_b] = (summary.wins, summary.losses, summary.draws)
    return LadderResult(tuple(names), games, seed, tuple(summaries), fit_elo(records))
