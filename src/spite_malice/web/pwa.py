"""The installable app (``docs/offline.md``): the web app manifest, the service worker and the
offline engine's worker script, and the offline games' endpoints (:mod:`.offline_games`).

The service worker is served at ``/sw.js`` (its scope is the whole site) with the page's
version and the lists of files it keeps put in front of ``static/sw.js``: the version is a
hash of every file under ``static/`` (and of the offline engine's build), so any change of
the page makes the browser fetch the new worker in the background, and the page offers to
reload.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, JSONResponse, Response

from ..i18n import _, current_language, normalise, use_language
from ..offline import build
from .headers import CONTENT_SECURITY_POLICY
from .offline_games import router as offline_games_router

STATIC = Path(__file__).parent / "static"
ENGINE = build.OUT
VERSION_ENV = "SPITE_MALICE_PAGE_VERSION"
"""An environment variable whose value goes into the page's version (an operator's way to
make every installed app update; the tests use it to publish a new version)."""
LANGUAGES = ("en", "it", "ru", "pt", "fr", "nl")
THEME = "#14532d"
BACKGROUND = "#f6f1e7"
WORKER_POLICY = CONTENT_SECURITY_POLICY.replace(
    "script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'"
)
"""The offline engine's worker may compile WebAssembly (Pyodide), nothing else more."""

router = APIRouter()
router.include_router(offline_games_router)

_versions: dict[tuple[object, ...], str] = {}


def shell_files() -> list[Path]:
    """The page's own files, kept by the service worker when it installs."""
    found = []
    for path in sorted(STATIC.rglob("*")):
        relative = path.relative_to(STATIC)
        if not path.is_file() or relative.parts[:2] == ("offline", "build"):
            continue
        if path.suffix in (".py", ".pyc", ".map") or "__pycache__" in relative.parts:
            continue
        found.append(path)
    return found


def _engine_files() -> list[str]:
    """The offline engine's files (``make setup``), kept once offline play is wanted."""
    manifest = ENGINE / build.MANIFEST
    if not manifest.is_file():
        return []
    files = json.loads(manifest.read_text())["files"]
    return [f"/static/offline/build/{name}" for name in [*sorted(files), build.MANIFEST]]


def page_version() -> str:
    """A hash of the page's files, the engine's build and :data:`VERSION_ENV`."""
    shell = shell_files()
    manifest = ENGINE / build.MANIFEST
    files = [*shell, *([manifest] if manifest.is_file() else [])]
    stamps = [(str(path), path.stat().st_mtime_ns, path.stat().st_size) for path in files]
    signature = (*stamps, os.environ.get(VERSION_ENV, ""))
    known = _versions.get(signature)
    if known is not None:
        return known
    digest = hashlib.sha256(os.environ.get(VERSION_ENV, "").encode())
    for path in shell:
        digest.update(path.relative_to(STATIC).as_posix().encode())
        digest.update(path.read_bytes())
    if manifest.is_file():
        digest.update(manifest.read_bytes())
    _versions.clear()
    _versions[signature] = version = digest.hexdigest()[:16]
    return version


def worker_config() -> dict[str, Any]:
    """What the service worker is told: its version and the files it keeps."""
    files = [f"/static/{p.relative_to(STATIC).as_posix()}" for p in shell_files()]
    # the sounds are kept with the engine (offline play wanted), or as the page plays them
    sounds = [url for url in files if url.startswith("/static/sounds/")]
    # the manifest as the page links it, in each language (see manifest())
    manifests = [f"/manifest.webmanifest?lang={lang}" for lang in LANGUAGES]
    shell = ["/", "/manifest.webmanifest", *manifests, *(url for url in files if url not in sounds)]
    # the translations of every language; the page's other reads are kept as it reads them
    pages = ["/api/language", *(f"/api/language/{lang}" for lang in LANGUAGES)]
    engine = ENGINE / build.MANIFEST
    engine_version = json.loads(engine.read_text())["version"] if engine.is_file() else None
    return {
        "version": page_version(),
        "shell": shell,
        "api": pages,
        "engine": _engine_files(),
        "extras": sounds,
        "engine_version": engine_version,
    }


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    config = json.dumps(worker_config(), separators=(",", ":"))
    body = f"const CONFIG = {config};\n" + (STATIC / "sw.js").read_text(encoding="utf-8")
    return Response(
        body,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/static/offline/worker.js", include_in_schema=False)
async def engine_worker() -> Response:
    return FileResponse(
        STATIC / "offline" / "worker.js",
        media_type="text/javascript",
        headers={"Content-Security-Policy": WORKER_POLICY, "Cache-Control": "no-cache"},
    )


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest(lang: str | None = None) -> JSONResponse:
    """The web app manifest, in the player's language: ``?lang=`` (the page links the
    manifest in the language it speaks), else ``Accept-Language``; an unknown ``lang`` is
    ignored, as the page's other language choices are."""
    with use_language(normalise(lang or "")):
        return _manifest()


def _manifest() -> JSONResponse:
    icons = [
        {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {
            "src": "/static/icons/icon-maskable-512.png",
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    body = {
        "id": "/",
        "name": "Spite & Malice",
        "short_name": "Spite & Malice",
        "description": _(
            "Spite & Malice, the two-player card race: play the computer or a friend."
        ),
        "lang": current_language(),
        "start_url": "/#/play",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "categories": ["games"],
        "icons": icons,
    }
    return JSONResponse(body, media_type="application/manifest+json")


__all__ = ["page_version", "router", "worker_config"]
