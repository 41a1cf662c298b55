"""Our package in Pyodide, as the page's worker runs it: the archive that ``make setup``
builds imports there and plays a match, and the server replays that match (its computer's
moves too) on CPython. Run under Node (Pyodide runs there as in the browser)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spite_malice.i18n import _, ngettext, use_language
from spite_malice.offline import build, replay_record

HERE = Path(__file__).parent


def _built() -> Path:
    problem = build.check()
    if problem is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI runs make setup first, yet {problem}")
        pytest.skip(problem)
    if shutil.which("node") is None:
        pytest.skip("no node to run Pyodide in")
    return build.OUT


def test_the_archive_holds_every_module_the_offline_session_imports() -> None:
    code = (
        "import sys, spite_malice.offline.bridge;"
        "print(sorted(m for m in sys.modules if m.startswith('spite_malice')))"
    )
    loaded = json.loads(
        subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True
        ).stdout.replace("'", '"')
    )
    archived = {
        "spite_malice." + path.relative_to(build.PACKAGE_ROOT).with_suffix("").as_posix()
        for path in build.source_files()
        if path.suffix == ".py"
    }
    archived = {name.replace("/", ".").removesuffix(".__init__") for name in archived}
    archived.add("spite_malice")
    assert set(loaded) <= archived, sorted(set(loaded) - archived)


def test_the_pinned_pyodide_is_checked_and_brings_python_3_14() -> None:
    out = _built()
    manifest = json.loads((out / build.MANIFEST).read_text())
    assert manifest["pyodide"] == build.PYODIDE_VERSION
    lock = json.loads((out / "pyodide" / "pyodide-lock.json").read_text())
    assert lock["info"]["python"].startswith("3.14")


MATCHES = (("medium", 5), ("hard", 6))
"""The matches played in Pyodide: a level and a deal each."""


@pytest.fixture(scope="module")
def played_in_pyodide() -> dict[tuple[str, int], dict[str, Any]]:
    """Each of :data:`MATCHES` played in one Pyodide (one start of it for all), by level and
    deal: the record, Pyodide's Python version and texts translated there."""
    out = _built()
    node = shutil.which("node")
    assert node is not None
    asked = [str(part) for match in MATCHES for part in match]
    done = subprocess.run(
        [node, str(HERE / "pyodide_play.mjs"), str(out), *asked],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout)
    assert len(results) == len(MATCHES)
    return dict(zip(MATCHES, results, strict=True))


@pytest.mark.parametrize(("level", "seed"), MATCHES)
def test_a_match_played_in_pyodide_replays_on_the_server(
    level: str, seed: int, played_in_pyodide: dict[tuple[str, int], dict[str, Any]]
) -> None:
    played = played_in_pyodide[level, seed]
    assert (played["record"]["level"], played["record"]["seed"]) == (level, str(seed))
    assert played["python"].startswith("3.14")
    replayed = replay_record(played["record"])  # every computer move thought again
    assert replayed.match_over and len(replayed.games) == 1
    # the translations, plural forms too, as on the server (Pyodide has no Babel)
    for language, texts in played["texts"].items():
        with use_language(language):
            assert texts[0] == _("Claiming a game is for games between friends.")
            for n, text in zip((1, 2, 5, 21), texts[1:], strict=True):
                assert text == ngettext(
                    "builds {n} card, then discards the {rank} onto side stack {side}",
                    "builds {n} cards, then discards the {rank} onto side stack {side}",
                    n,
                    rank="K",
                    side=1,
                )
        assert texts[0] != "Claiming a game is for games between friends."
