"""``make setup`` writes a gzip copy beside each engine file that gzip makes smaller, which
the server sends instead of the file (``web/static_files.py``); the manifest says what is
sent and ``--check`` finds a copy that is missing or changed (docs/offline.md)."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

from spite_malice.offline import build


def _built(out: Path) -> dict[str, object]:
    """A build in ``out`` with a compressible "WebAssembly", an incompressible file and our
    archive, as ``build.build`` lays them out (without fetching Pyodide)."""
    (out / "pyodide").mkdir(parents=True)
    (out / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\0asm" + bytes(range(256)) * 400)
    (out / "pyodide" / "python_stdlib.zip").write_bytes(os.urandom(50_000))
    (out / build.ARCHIVE).write_bytes(build.build_archive())
    build.compress(out)
    made = build.manifest(out)
    (out / build.MANIFEST).write_text(json.dumps(made))
    return made


def test_a_compressible_file_gets_its_gzip_copy_and_the_others_none(tmp_path: Path) -> None:
    made = _built(tmp_path)
    wasm = tmp_path / "pyodide" / "pyodide.asm.wasm"
    copy = tmp_path / "pyodide" / "pyodide.asm.wasm.gz"
    assert gzip.decompress(copy.read_bytes()) == wasm.read_bytes()
    assert not (tmp_path / "pyodide" / "python_stdlib.zip.gz").exists()
    files = made["files"]
    assert isinstance(files, dict)
    # the copies are not files of their own for the service worker to keep
    assert sorted(files) == ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", build.ARCHIVE]
    entry = files["pyodide/pyodide.asm.wasm"]
    assert entry["sent_bytes"] == entry["gzip"]["bytes"] == copy.stat().st_size
    assert entry["sent_bytes"] < entry["bytes"] // 10
    stdlib = files["pyodide/python_stdlib.zip"]
    assert "gzip" not in stdlib and stdlib["sent_bytes"] == stdlib["bytes"]
    sent, plain = build.sizes(made)
    assert sent == sum(int(e["sent_bytes"]) for e in files.values())
    assert plain == sum(int(e["bytes"]) for e in files.values()) > sent
    assert build.check(tmp_path) is None


def test_the_copies_are_the_same_bytes_at_every_build(tmp_path: Path) -> None:
    _built(tmp_path)
    copy = tmp_path / "pyodide" / "pyodide.asm.wasm.gz"
    first = copy.read_bytes()
    build.compress(tmp_path)
    assert copy.read_bytes() == first  # no timestamp in them: the same version


def test_check_finds_a_missing_changed_or_stray_copy(tmp_path: Path) -> None:
    _built(tmp_path)
    copy = tmp_path / "pyodide" / "pyodide.asm.wasm.gz"
    kept = copy.read_bytes()
    copy.write_bytes(gzip.compress(b"something else"))
    assert "pyodide.asm.wasm.gz is missing or changed" in str(build.check(tmp_path))
    copy.unlink()
    assert "pyodide.asm.wasm.gz is missing or changed" in str(build.check(tmp_path))
    copy.write_bytes(kept)
    stray = tmp_path / "pyodide" / "python_stdlib.zip.gz"
    stray.write_bytes(b"")
    assert "python_stdlib.zip.gz should not be there" in str(build.check(tmp_path))
    stray.unlink()
    assert build.check(tmp_path) is None
