"""Make what the page needs to play offline (``make setup`` runs it; ``docs/offline.md``).

1. Pyodide, the npm package ``pyodide`` at :data:`PYODIDE_VERSION`, fetched with ``npm pack``
   (once: it is kept in ``.cache/``), checked against :data:`PYODIDE_SHA256`, and the files
   the worker loads copied to ``static/offline/build/pyodide/``.
2. Our package as a zip archive of the source (``static/offline/build/spite_malice.zip``):
   the modules the offline session imports (engine, bots, table, translations and this
   package), byte for byte the files the server runs, and the translations compiled to JSON
   (read here with Babel, which Pyodide lacks).
3. Beside each of those files that gzip makes at least :data:`MIN_GAIN` smaller, its gzip
   copy (``<name>.gz``, level 9, no timestamp), which the server sends to the browsers that
   take gzip (``web/static_files.py``): nothing is compressed per request.
4. ``static/offline/build/manifest.json``: every file with its size and SHA-256 (and its
   gzip copy's), and a version made of them, which the service worker's cache is named
   after.

Without these files the page says that offline play is not installed; nothing else needs
them. ``python -m spite_malice.offline.build`` (``--check`` only says whether they are
there and match).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

from ..i18n.catalogs import LANGUAGES, SOURCE_LANGUAGE, compile_catalog, compiled_path

PYODIDE_VERSION = "314.0.8"
"""The pinned npm package ``pyodide`` (Python 3.14.2 in WebAssembly)."""
PYODIDE_SHA256 = "9a52704e0ae5b07aaacb8e4fed9f1658e8024694a078695ea45ac79dee4cefcb"
"""SHA-256 of ``pyodide-314.0.8.tgz`` as the npm registry serves it."""
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""What the worker loads from the package (the rest is its console and type stubs)."""
PACKAGES = (
    "engine",
    "match_records",
    "bots",
    "table",
    "i18n",
    "offline",
    "bot_protocol",
    "tutorial",
)
"""Our subpackages the offline session and lessons import (tests/offline checks the list)."""
MODULES = ("__init__.py", "bot_registry.py", "levels.py", "py.typed")
LEFT_OUT = ("offline/build.py",)
"""Source files of those packages the page does not need."""

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
REPO_ROOT = PACKAGE_ROOT.parent.parent
OUT = PACKAGE_ROOT / "web" / "static" / "offline" / "build"
CACHE = REPO_ROOT / ".cache" / "pyodide"
ARCHIVE = "spite_malice.zip"
MANIFEST = "manifest.json"
GZIP_SUFFIX = ".gz"
"""A file's gzip copy is named so (:func:`gzip_copy`; ``web/static_files.py`` serves them)."""
MIN_GAIN = 0.1
"""A gzip copy is written when it is at least this much smaller than its file: the
WebAssembly, Pyodide's scripts and lock file are (63 to 80 % smaller); the two zip
archives, compressed already, are not (2 %), and go as they are."""


class BuildError(Exception):
    """What went wrong, for the person running ``make setup``."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fetch_pyodide(cache: Path = CACHE) -> bytes:
    """The checked npm tarball of Pyodide (from the cache, else ``npm pack``)."""
    name = f"pyodide-{PYODIDE_VERSION}.tgz"
    path = cache / name
    if path.is_file() and sha256(path.read_bytes()) == PYODIDE_SHA256:
        return path.read_bytes()
    cache.mkdir(parents=True, exist_ok=True)
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError("npm is needed to fetch Pyodide (apt-get install npm)")
    try:
        subprocess.run(
            [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--silent"],
            cwd=cache,
            check=True,
            stdout=subprocess.DEVNULL,
            timeout=300,
        )
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        raise BuildError(f"npm could not fetch pyodide@{PYODIDE_VERSION}: {error}") from None
    data = path.read_bytes()
    found = sha256(data)
    if found != PYODIDE_SHA256:
        path.unlink()
        raise BuildError(f"{name} has SHA-256 {found}, not the pinned {PYODIDE_SHA256}: refused")
    return data


def extract_pyodide(tarball: bytes, out: Path) -> None:
    """Copy :data:`PYODIDE_FILES` out of the npm tarball into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as tar:
        for name in PYODIDE_FILES:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise BuildError(f"the Pyodide package has no {name}")
            (out / name).write_bytes(member.read())


def source_files(root: Path = PACKAGE_ROOT) -> list[Path]:
    """The files of our package that the archive holds, in a stable order."""
    files = [root / name for name in MODULES if (root / name).is_file()]
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*")):
            relative = path.relative_to(root).as_posix()
            if not path.is_file() or "__pycache__" in path.parts or relative in LEFT_OUT:
                continue
            if path.suffix in (".py", ".json", ".typed"):
                files.append(path)
    return files


def build_archive(root: Path = PACKAGE_ROOT) -> bytes:
    """Our package as a zip (``spite_malice/...``), the same bytes for the same source."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in source_files(root):
            name = "spite_malice/" + path.relative_to(root).as_posix()
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
        for language in LANGUAGES:  # read with Babel here: Pyodide has no Babel
            if language == SOURCE_LANGUAGE:
                continue
            relative = compiled_path(language).relative_to(root).as_posix()
            info = zipfile.ZipInfo("spite_malice/" + relative, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            text = json.dumps(compile_catalog(language), ensure_ascii=False, sort_keys=True)
            archive.writestr(info, text.encode("utf-8"))
    return buffer.getvalue()


def built_files(out: Path) -> list[Path]:
    """The built files the service worker keeps (not the manifest, nor the gzip copies)."""
    return [
        path
        for path in sorted(out.rglob("*"))
        if path.is_file() and path.name != MANIFEST and not path.name.endswith(GZIP_SUFFIX)
    ]


def gzip_copy(path: Path) -> Path:
    """Where ``path``'s gzip copy is written (and read by ``web/static_files.py``)."""
    return path.with_name(path.name + GZIP_SUFFIX)


def compress(out: Path) -> None:
    """Write the gzip copy of each built file it makes :data:`MIN_GAIN` smaller (always
    written, so that it is never older than its file); remove the others' copies."""
    for path in built_files(out):
        data = path.read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) <= (1 - MIN_GAIN) * len(data):
            gzip_copy(path).write_bytes(packed)
        else:
            gzip_copy(path).unlink(missing_ok=True)


def manifest(out: Path) -> dict[str, object]:
    """Every built file with its size and hash, and its gzip copy's when it has one
    (``sent_bytes``: what a browser that takes gzip downloads); the version is their hash."""
    files: dict[str, dict[str, object]] = {}
    for path in built_files(out):
        data = path.read_bytes()
        entry: dict[str, object] = {"bytes": len(data), "sha256": sha256(data)}
        entry["sent_bytes"] = len(data)
        packed = gzip_copy(path)
        if packed.is_file():
            copy = packed.read_bytes()
            entry["gzip"] = {"bytes": len(copy), "sha256": sha256(copy)}
            entry["sent_bytes"] = len(copy)
        files[path.relative_to(out).as_posix()] = entry
    version = sha256(json.dumps(files, sort_keys=True).encode())[:16]
    return {"pyodide": PYODIDE_VERSION, "python": "3.14", "version": version, "files": files}


def sizes(made: dict[str, object]) -> tuple[int, int]:
    """The bytes a browser downloads for the engine with gzip, and the files' own."""
    files = made["files"]
    assert isinstance(files, dict)
    sent = sum(int(entry["sent_bytes"]) for entry in files.values())
    return sent, sum(int(entry["bytes"]) for entry in files.values())


def build(out: Path = OUT, cache: Path = CACHE) -> dict[str, object]:
    """Fetch, check and write everything (quick when the cache holds Pyodide already)."""
    extract_pyodide(fetch_pyodide(cache), out / "pyodide")
    (out / ARCHIVE).write_bytes(build_archive())
    compress(out)
    made = manifest(out)
    (out / MANIFEST).write_text(json.dumps(made, indent=1, sort_keys=True) + "\n")
    return made


def check(out: Path = OUT) -> str | None:
    """None when the built files are there and match their manifest, else what is wrong."""
    path = out / MANIFEST
    if not path.is_file():
        return "offline play is not built (make setup)"
    written = json.loads(path.read_text())
    for name, entry in written["files"].items():
        target = out / name
        if not target.is_file() or sha256(target.read_bytes()) != entry["sha256"]:
            return f"{name} is missing or changed (make setup)"
        packed = gzip_copy(target)
        copy = entry.get("gzip")
        if copy is None:
            if packed.exists():
                return f"{packed.name} should not be there (make setup)"
        elif not packed.is_file() or sha256(packed.read_bytes()) != copy["sha256"]:
            return f"{packed.name} is missing or changed (make setup)"
    if (out / ARCHIVE).read_bytes() != build_archive():
        return "the package archive is older than the source (make setup)"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only check the built files")
    args = parser.parse_args(argv)
    if args.check:
        problem = check()
        print(problem or "offline play is built")
        return 1 if problem else 0
    try:
        made = build()
    except BuildError as error:
        print(f"offline play not built: {error}", file=sys.stderr)
        return 1
    sent, plain = sizes(made)
    print(
        f"offline play built: version {made['version']}, {sent / 1e6:.1f} MB sent with gzip "
        f"({plain / 1e6:.1f} MB of files)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
