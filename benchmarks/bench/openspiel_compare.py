"""OpenSpiel's per-move CPU cost in two source trees, measured alternately in one session.

Issue 16 asks that OpenSpiel's per-move cost fall; comparing figures taken at different times
on a shared machine says little, so this runs the same first-fit self-play loop on an old tree
(say a worktree of an earlier commit) and on a new one, alternating old and new round by
round, each in a fresh Python process with that tree's ``src`` first on the path. Each run
is timed with ``time.process_time`` inside its process (imports and game loading left out),
and the figure is the median over the rounds::

    python benchmarks/openspiel_compare.py --old /tmp/old --new . --games 150 --rounds 3

The loop is the one of ``research-bench --only openspiel``, written out here so that it runs
unchanged on trees whose benchmark modules live elsewhere: chance outcomes sampled from
``chance_outcomes()`` with :func:`~spite_malice.research.openspiel.sample_outcome`, moves
chosen by :func:`~spite_malice.research.actions.first_fit_action` from ``legal_actions()``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

_LOOP = """
import json, random, sys, time
import pyspiel
from spite_malice.research import openspiel
from spite_malice.research.actions import first_fit_action
from spite_malice.research.openspiel import sample_outcome

games, seed = int(sys.argv[1]), int(sys.argv[2])
game = pyspiel.load_game(openspiel.GAME_NAME)
uniform = random.Random(seed).random
moves = 0
start = time.process_time()
for _ in range(games):
    state = game.new_initial_state()
    players = state.table.players
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), uniform()))
            continue
        side = players[state.current_player()].side
        legal = state.legal_actions()
        state.apply_action(
            first_fit_action(legal, (not side[0], not side[1], not side[2], not side[3]))
        )
        moves += 1
seconds = time.process_time() - start
print(json.dumps({"moves": moves, "seconds": seconds, "file": openspiel.__file__}))
"""


def run_tree(tree: Path, games: int, seed: int) -> tuple[int, float]:
    """Play ``games`` first-fit games through OpenSpiel with ``tree``'s sources, in a fresh
    process: the moves played and the CPU seconds they took."""
    src = (tree / "src").resolve()
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-c", _LOOP, str(games), str(seed)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if not str(result["file"]).startswith(str(src)):
        raise RuntimeError(f"{tree} ran {result['file']}, not its own sources")
    return int(result["moves"]), float(result["seconds"])


def compare(
    old: Path, new: Path, games: int, seed: int, rounds: int
) -> dict[str, list[tuple[int, float]]]:
    """Moves and CPU seconds of each round for ``old`` and ``new``, alternating (old first in
    odd rounds, new first in even ones); every round plays from the same seed in both."""
    runs: dict[str, list[tuple[int, float]]] = {"old": [], "new": []}
    for i in range(rounds):
        order = (("old", old), ("new", new)) if i % 2 == 0 else (("new", new), ("old", old))
        for name, tree in order:
            runs[name].append(run_tree(tree, games, seed + i))
    return runs


def main(argv: list[str] | None = None) -> int:
    """Print each run's moves per CPU second, the medians and the per-move cost's change."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="the old tree (has src/)")
    parser.add_argument("--new", type=Path, default=Path("."), help="the new tree (has src/)")
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    runs = compare(args.old, args.new, args.games, args.seed, args.rounds)
    medians: dict[str, float] = {}
    for name, results in runs.items():
        rates = [moves / seconds for moves, seconds in results]
        cost = [seconds * 1e6 / moves for moves, seconds in results]
        medians[name] = statistics.median(cost)
        shown = ", ".join(f"{rate:,.0f}" for rate in rates)
        print(
            f"{name}: moves per CPU second {shown}; median {statistics.median(rates):,.0f} "
            f"({medians[name]:.2f} µs a move)"
        )
    change = medians["new"] / medians["old"] - 1
    print(f"new per-move CPU cost vs old: {change:+.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
