"""The bots' benchmarks live in ``spite_malice.bench`` (``bots_expert``, ``bots_noise``,
``bots_targets``, ``bots_tune``, ``bots_weights``); the scripts of the same names in
``benchmarks/``, which the docs name as commands, only launch them."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((REPOSITORY / "benchmarks").glob("bots_*.py"))


def test_the_bots_benchmarks_are_the_four_launchers() -> None:
    names = [path.stem for path in SCRIPTS]
    assert names == ["bots_expert", "bots_noise", "bots_targets", "bots_tune", "bots_weights"]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_each_script_only_launches_its_module(script: Path) -> None:
    tree = ast.parse(script.read_text(encoding="utf-8"))
    ours = [
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("spite")
    ]
    assert ours == [f"spite_malice.bench.{script.stem}"]
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]
    assert callable(importlib.import_module(f"spite_malice.bench.{script.stem}").main)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_each_script_still_answers_help(script: Path) -> None:
    if script.stem == "bots_tune":
        pytest.importorskip("optuna")
    env = {**os.environ, "PYTHONPATH": str(REPOSITORY / "src")}
    done = subprocess.run(
        [sys.executable, str(script), "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: {script.name}")
