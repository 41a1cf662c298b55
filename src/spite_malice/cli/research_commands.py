"""Research subcommands: ``research-bench``, the adapters' speed beside the engine's."""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from ..engine.rules import PRESETS
from .arguments import positive, seed


def register(subparsers: Any) -> None:
    bench = subparsers.add_parser(
        "research-bench",
        help="games/s of first-fit self-play through the OpenSpiel, PettingZoo and "
        "Gymnasium adapters, beside the engine's fast path",
        description="Play N games of first-fit self-play through each research adapter and "
        "on the engine's fast path, interleaved run by run so that they share the machine's "
        "load, and print games/s, moves/s and how many times slower than the engine each "
        "adapter is (median of the runs). Needs the extras [openspiel], [pettingzoo], [gym].",
    )
    bench.add_argument("--games", type=positive, default=200, help="games per run (200)")
    bench.add_argument("--seed", type=seed, default=1, help="seed of the first game (1)")
    bench.add_argument("--runs", type=positive, default=3, help="runs; the median is shown (3)")
    bench.add_argument(
        "--rules", choices=sorted(PRESETS), default="standard", help="rules preset (standard)"
    )
    bench.add_argument(
        "--only",
        default="",
        help="comma-separated adapters to measure: pettingzoo, pettingzoo-raw, gymnasium, "
        "openspiel (all)",
    )
    bench.set_defaults(handler=_research_bench)


def _research_bench(args: argparse.Namespace) -> int:
    from ..bench.research import RUNNERS

    names = [name.strip() for name in args.only.split(",") if name.strip()] or [
        name for name in RUNNERS if name != "engine"
    ]
    unknown = [name for name in names if name not in RUNNERS]
    if unknown:
        print(
            f"spite-malice research-bench: unknown adapter {unknown[0]!r}; "
            f"known: {', '.join(RUNNERS)}"
        )
        return 2
    names = ["engine", *[name for name in names if name != "engine"]]
    results: dict[str, list[Any]] = {name: [] for name in names}
    for _ in range(args.runs):
        for name in names:
            results[name].append(RUNNERS[name](args.games, args.seed, PRESETS[args.rules]))
    print(
        f"first-fit self-play, {args.rules} rules, {args.games} games from seed {args.seed}, "
        f"median of {args.runs} run(s)"
    )
    engine_gps = statistics.median(r.games_per_second for r in results["engine"])
    engine_mps = statistics.median(r.moves_per_second for r in results["engine"])
    for name in names:
        gps = statistics.median(r.games_per_second for r in results[name])
        mps = statistics.median(r.moves_per_second for r in results[name])
        last = results[name][-1]
        slower = (
            ""
            if name == "engine"
            else (
                f"  {engine_gps / gps:4.1f}x the engine's time per game, "
                f"{engine_mps / mps:4.1f}x per move"
            )
        )
        print(
            f"{name:>15}: {gps:8,.0f} games/s {mps:10,.0f} moves/s "
            f"({last.moves / last.games:.0f} moves a game; {last.wins} won){slower}"
        )
    return 0
