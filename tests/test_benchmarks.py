"""One benchmark home: the code of every benchmark is the package ``bench`` in the
repository's ``benchmarks/`` folder, outside the shipped ``spite_malice``; the scripts beside
it that the docs name as commands only launch it, the bots' benchmarks (``benchmarks/bots_*``)
and the engine's speed (``benchmarks/engine.py``) among them."""

from __future__ import annotations

import ast
import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sources import parse_file

REPOSITORY = Path(__file__).resolve().parents[1]
BENCHMARKS = REPOSITORY / "benchmarks"
SRC = REPOSITORY / "src"

# the commands the README and docs name, and the module each launches
LAUNCHERS = {
    "load.py": "server_load",
    "cluster_load.py": "cluster_load",
    "store_moves.py": "store_append",
    "analysis.py": "analysis_time",
    "web_analysis.py": "web_analysis_time",
    "ws_floor.py": "ws_floor",
    "floods.py": "floods",
    "bots_expert.py": "bots_expert",
    "bots_blockade.py": "bots_blockade",
    "bots_leaf.py": "bots_leaf",
    "bots_leaf_explore.py": "bots_leaf_explore",
    "bots_candidates.py": "bots_candidates",
    "bots_noise.py": "bots_noise",
    "bots_reply.py": "bots_reply",
    "bots_targets.py": "bots_targets",
    "bots_tune.py": "bots_tune",
    "bots_weights.py": "bots_weights",
    "arena_compare.py": "arena_compare",
    "offline_timing.py": "offline_timing",
    "pairing.py": "pairing_load",
    "rating_update.py": "rating_update",
    "engine.py": "engine",
    "research.py": "research",
    "bots_search_time.py": "bots_search_time",
    "openspiel_compare.py": "openspiel_compare",
    "mirrors.py": "mirrors",
    "state_cost.py": "state_cost",
}


def _run(script: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    """``benchmarks/<script> ARGUMENTS`` with this checkout's package, its output kept."""
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *arguments],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        timeout=120,
        check=False,
    )


def _scripts() -> list[Path]:
    return sorted(BENCHMARKS.glob("*.py"))


def test_every_benchmark_script_is_a_launcher_of_the_package() -> None:
    assert sorted(path.name for path in _scripts()) == sorted(LAUNCHERS)
    for path in _scripts():
        tree = parse_file(path)
        ours = [
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            and (node.module or "").startswith(("spite", "bench"))
        ]
        assert ours == [f"bench.{LAUNCHERS[path.name]}"], path.name
        # a docstring, the future import, the import of main, maybe sys, and the call
        assert len(tree.body) <= 5, f"{path.name} holds more than a launcher"
        functions = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]
        assert not functions, f"{path.name} defines {functions[0].name}: move it to bench"


@pytest.mark.parametrize("module", sorted(LAUNCHERS.values()))
def test_each_launched_module_has_a_main(module: str) -> None:
    loaded = importlib.import_module(f"bench.{module}")
    assert callable(loaded.main)


_HELP_OF_EACH = """
import contextlib, io, json, runpy, sys
answers = {}
for path in sys.argv[1:]:
    out, err = io.StringIO(), io.StringIO()
    sys.argv = [path, "--help"]
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            runpy.run_path(path, run_name="__main__")
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
        except Exception as error:
            code, err = 1, io.StringIO(repr(error))
    answers[path] = [code, out.getvalue(), err.getvalue()]
sys.__stdout__.write(json.dumps(answers))
"""
"""Runs each launcher given as ``benchmarks/<script> --help``, in turn in one process (a
process each spent most of its time importing the same modules); prints what each printed
and the code it exited with."""


@pytest.fixture(scope="module")
def help_answers() -> dict[str, list[Any]]:
    """``--help`` of every launcher: its exit code, stdout and stderr, by script name."""
    paths = [str(BENCHMARKS / script) for script in sorted(LAUNCHERS)]
    done = subprocess.run(
        [sys.executable, "-c", _HELP_OF_EACH, *paths],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{BENCHMARKS}"},
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers: dict[str, list[Any]] = json.loads(done.stdout)
    return {Path(path).name: answer for path, answer in answers.items()}


@pytest.mark.parametrize("script", sorted(LAUNCHERS))
def test_the_commands_of_the_docs_still_run(
    script: str, help_answers: dict[str, list[Any]]
) -> None:
    """``benchmarks/<script> --help`` answers as before: usage under the script's own name."""
    if script == "bots_tune.py":
        pytest.importorskip("optuna")
    code, out, err = help_answers[script]
    assert code == 0, err
    assert out.startswith(f"usage: {script} ")


def test_cluster_rounds_are_chosen_by_number() -> None:
    """``cluster_load.py --rounds 3,1`` runs rounds 1 and 3, once each, in order."""
    from bench.cluster_load import _rounds

    assert _rounds("3,1,1") == (1, 3)
    assert _rounds("2") == (2,)


@pytest.mark.parametrize("value", ["4", "0,1", "one", "", "1,,2"])
def test_cluster_rounds_refuse_what_is_not_a_round(value: str) -> None:
    """A bad ``--rounds`` is refused with a message naming it."""
    import argparse

    from bench.cluster_load import _rounds

    with pytest.raises(argparse.ArgumentTypeError, match=re.escape(repr(value))):
        _rounds(value)


def test_a_bad_round_is_refused_before_any_cluster_starts() -> None:
    """The command itself refuses a bad ``--rounds`` (argparse's exit 2) at once."""
    done = _run("cluster_load.py", "--rounds", "4")
    assert done.returncode == 2, done.stderr
    assert "--rounds" in done.stderr
    assert "'4'" in done.stderr
    assert "starting PostgreSQL" not in done.stdout


def test_the_engine_benchmark_prints_games_and_moves_per_second_for_both_paths(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bench.engine import main

    assert main(["--games", "5", "--runs", "1"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    lines = captured.out.splitlines()
    assert "5 games from seed 1" in lines[0]
    results = [line for line in lines[1:] if "games/s" in line]
    assert len(results) >= 2
    assert any(line.strip().startswith("fast:") for line in results)
    assert any(line.strip().startswith("checked") for line in results)
    for line in results:
        match = re.search(r"([\d,]+) games/s +([\d,]+) moves/s .*; (\d+) won, (\d+) drawn\)", line)
        assert match, line
        assert int(match[3]) + int(match[4]) == 5
    # The figures are not checked: no timed assertions.


@pytest.mark.parametrize(
    ("module", "option", "value", "message"),
    [
        ("engine", "--games", "abc", "'abc' is not a whole number"),
        ("engine", "--games", "0", "must be at least 1, not 0"),
        ("engine", "--seed", "-1", "must be 0 to 2**63 - 1, not -1"),
        ("research", "--runs", "0", "must be at least 1, not 0"),
        ("research", "--seed", "x", "'x' is not a whole number"),
    ],
)
def test_the_speed_benchmarks_refuse_a_bad_number_in_a_sentence(
    module: str, option: str, value: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    loaded = importlib.import_module(f"bench.{module}")
    with pytest.raises(SystemExit) as caught:
        loaded.main([option, value])
    assert caught.value.code == 2
    assert f"{option}: {message}" in capsys.readouterr().err


def test_the_engine_benchmark_takes_the_largest_seed() -> None:
    from bench.engine import main

    assert main(["--games", "1", "--runs", "1", "--seed", str(2**63 - 1)]) == 0
