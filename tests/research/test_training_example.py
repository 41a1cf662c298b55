"""examples/train_maskable_ppo.py runs end to end on a few steps: it trains, evaluates,
writes the curve (CSV and PNG) and the model. Skipped without the ``learn-rl`` extra."""

from __future__ import annotations

import csv
import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")
pytest.importorskip("matplotlib")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_maskable_ppo.py"


def test_the_training_example_writes_its_curve_and_model(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = example  # its dataclass looks its module up there
    try:
        spec.loader.exec_module(example)
    finally:
        del sys.modules[spec.name]
    arguments = ["--out", str(tmp_path), "--steps", "1024", "--eval-every", "1024"]
    arguments += ["--eval-games", "2", "--envs", "2", "--payoff-size", "5"]
    assert example.main(arguments) == 0
    with (tmp_path / "curve.csv").open() as file:
        rows = list(csv.DictReader(file))
    # the untrained point, then one after each block against each opponent
    assert [row["training_against"] for row in rows] == ["-", "reference", "easy"]
    assert int(rows[-1]["steps"]) >= 2048
    for row in rows:
        assert 0.0 <= float(row["win_reference"]) <= 1.0 and 0.0 <= float(row["win_easy"]) <= 1.0
    assert (tmp_path / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "model.zip").stat().st_size > 0
