"""The page's files under ``/static``, with the offline engine's sent compressed
(``docs/offline.md``, "How it is served").

``make setup`` writes a gzip copy beside each engine file that gzip makes smaller
(:func:`spite_malice.offline.build.compress`: the WebAssembly, Pyodide's scripts and its
lock file). A request for such a file that accepts gzip gets the copy, with
``Content-Encoding: gzip``, the file's own ``Content-Type`` and the copy's ``Content-Length``
and ``ETag``; any other gets the file itself. Both carry ``Vary: Accept-Encoding``. Nothing
is compressed per request. The copies have no address of their own (404): each is only the
other way of sending its file.
"""

from __future__ import annotations

import os
import stat
from mimetypes import guess_type
from pathlib import Path

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, PathLike, StaticFiles
from starlette.types import Scope

from ..offline.build import GZIP_SUFFIX, gzip_copy


def accepts_gzip(headers: Headers) -> bool:
    """Whether ``Accept-Encoding`` takes gzip (named, or ``*``, with a weight above 0)."""
    for part in headers.get("accept-encoding", "").split(","):
        coding, *params = (piece.strip() for piece in part.split(";"))
        if coding.lower() not in ("gzip", "x-gzip", "*"):
            continue
        weight = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if weight > 0:
            return True
    return False


class PrecompressedFiles(StaticFiles):
    """:class:`StaticFiles` over ``directory`` that sends the files under ``compressed`` as
    their gzip copies to the clients that take gzip."""

    def __init__(self, *, directory: Path, compressed: Path) -> None:
        super().__init__(directory=directory)
        self.compressed = Path(os.path.realpath(compressed))

    def file_response(
        self,
        full_path: PathLike,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        path = Path(full_path)
        if not path.is_relative_to(self.compressed):
            return super().file_response(full_path, stat_result, scope, status_code)
        if path.name.endswith(GZIP_SUFFIX):
            raise HTTPException(status_code=404)
        request = Headers(scope=scope)
        headers = {"Vary": "Accept-Encoding"}
        served, served_stat = path, stat_result
        if accepts_gzip(request):
            packed = _copy_of(path, stat_result)
            if packed is not None:
                served, served_stat = packed
                headers["Content-Encoding"] = "gzip"
        response = FileResponse(
            served,
            status_code=status_code,
            headers=headers,
            media_type=guess_type(path.name)[0] or "application/octet-stream",
            stat_result=served_stat,
        )
        if self.is_not_modified(response.headers, request):
            return NotModifiedResponse(response.headers)
        return response


def _copy_of(path: Path, plain: os.stat_result) -> tuple[Path, os.stat_result] | None:
    """The gzip copy of ``path`` and its stat, when there is one made since the file was."""
    packed = gzip_copy(path)
    try:
        found = packed.stat()
    except OSError:
        return None
    if not stat.S_ISREG(found.st_mode) or found.st_mtime_ns < plain.st_mtime_ns:
        return None  # none, or older than its file (a build cut short): the file itself
    return packed, found
