"""The offline engine's files are sent compressed (docs/offline.md, "How it is served"): a
request that accepts gzip gets the gzip copy ``make setup`` wrote, with the file's type and
``Content-Encoding: gzip``; any other gets the file itself; nothing is compressed per
request, and the rest of ``/static`` is served as before."""

from __future__ import annotations

import gzip
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.routing import Mount

from spite_malice.offline import build
from spite_malice.web import create_app
from spite_malice.web.static_files import PrecompressedFiles, accepts_gzip

WASM = b"\0asm" + bytes(range(256)) * 400
PLAIN = {"Accept-Encoding": "identity"}
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[TestClient]:
    """``/static`` over ``tmp_path``, its ``engine/`` sent compressed, as ``make setup``
    leaves it: the WebAssembly with its gzip copy, a script without one."""
    engine = tmp_path / "engine"
    engine.mkdir()
    (engine / "pyodide.asm.wasm").write_bytes(WASM)
    (engine / "pyodide.asm.wasm.gz").write_bytes(gzip.compress(WASM, 9, mtime=0))
    (engine / "plain.mjs").write_text("export const x = 1;\n")
    (tmp_path / "page.js").write_text("console.log(1);\n")
    static = PrecompressedFiles(directory=tmp_path, compressed=engine)
    with TestClient(Starlette(routes=[Mount("/static", static)])) as client:
        yield client


def _raw(client: TestClient, url: str, headers: dict[str, str]) -> tuple[bytes, Headers]:
    """The body as sent (not decoded) and the headers."""
    with client.stream("GET", url, headers=headers) as answer:
        assert answer.status_code == 200
        return b"".join(answer.iter_raw()), Headers(raw=answer.headers.raw)


def test_a_client_taking_gzip_gets_the_compressed_copy(served: TestClient) -> None:
    body, headers = _raw(served, "/static/engine/pyodide.asm.wasm", GZIP)
    assert headers["content-encoding"] == "gzip"
    assert headers["content-type"] == "application/wasm"
    assert headers["vary"] == "Accept-Encoding"
    assert int(headers["content-length"]) == len(body) < len(WASM) // 10
    assert gzip.decompress(body) == WASM


def test_a_client_not_taking_gzip_gets_the_file_itself(served: TestClient) -> None:
    for refused in (PLAIN, {"Accept-Encoding": "gzip;q=0, br"}, {"Accept-Encoding": ""}):
        body, headers = _raw(served, "/static/engine/pyodide.asm.wasm", refused)
        assert body == WASM and "content-encoding" not in headers
        assert headers["content-type"] == "application/wasm"
        assert headers["vary"] == "Accept-Encoding"
        assert int(headers["content-length"]) == len(WASM)


def test_each_way_has_its_own_etag_and_answers_not_modified(served: TestClient) -> None:
    url = "/static/engine/pyodide.asm.wasm"
    packed = served.get(url, headers=GZIP).headers["etag"]
    plain = served.get(url, headers=PLAIN).headers["etag"]
    assert packed != plain
    again = served.get(url, headers={**GZIP, "If-None-Match": packed})
    assert again.status_code == 304 and again.headers["vary"] == "Accept-Encoding"
    assert served.get(url, headers={**PLAIN, "If-None-Match": packed}).status_code == 200


def test_a_head_request_says_the_size_sent(served: TestClient) -> None:
    answer = served.head("/static/engine/pyodide.asm.wasm", headers=GZIP)
    assert answer.status_code == 200 and answer.headers["content-encoding"] == "gzip"
    assert int(answer.headers["content-length"]) == len(gzip.compress(WASM, 9, mtime=0))


def test_a_file_without_a_copy_and_the_other_files_go_as_they_are(served: TestClient) -> None:
    body, headers = _raw(served, "/static/engine/plain.mjs", GZIP)
    assert body == b"export const x = 1;\n" and "content-encoding" not in headers
    assert headers["vary"] == "Accept-Encoding"
    body, headers = _raw(served, "/static/page.js", GZIP)
    assert body == b"console.log(1);\n" and "content-encoding" not in headers
    assert "vary" not in headers


def test_the_copies_have_no_address_of_their_own(served: TestClient) -> None:
    assert served.get("/static/engine/pyodide.asm.wasm.gz", headers=GZIP).status_code == 404


def test_a_copy_older_than_its_file_is_not_sent(served: TestClient, tmp_path: Path) -> None:
    """A build cut short between a file and its copy: the file goes, never a stale copy."""
    wasm = tmp_path / "engine" / "pyodide.asm.wasm"
    copy = tmp_path / "engine" / "pyodide.asm.wasm.gz"
    later = copy.stat().st_mtime_ns + 10**9
    os.utime(wasm, ns=(later, later))
    body, headers = _raw(served, "/static/engine/pyodide.asm.wasm", GZIP)
    assert body == WASM and "content-encoding" not in headers


@pytest.mark.parametrize(
    ("header", "taken"),
    [
        ("gzip", True),
        ("GZIP;q=0.5", True),
        ("deflate, *", True),
        ("br, gzip;q=0", False),
        ("*;q=0", False),
        ("gzip;q=oops", False),
        ("identity", False),
        ("", False),
    ],
)
def test_accept_encoding_is_read_with_its_weights(header: str, taken: bool) -> None:
    assert accepts_gzip(Headers({"accept-encoding": header})) is taken


def test_the_built_engine_is_served_compressed(tmp_path: Path) -> None:
    """The server itself, on the files ``make setup`` built (skipped when not built)."""
    problem = build.check()
    if problem is not None:
        pytest.skip(problem)
    wasm = build.OUT / "pyodide" / "pyodide.asm.wasm"
    url = "/static/offline/build/pyodide/pyodide.asm.wasm"
    with TestClient(create_app(str(tmp_path / "web.db"))) as client:
        body, headers = _raw(client, url, GZIP)
        assert headers["content-encoding"] == "gzip"
        assert headers["content-type"] == "application/wasm"
        assert gzip.decompress(body) == wasm.read_bytes()
        plain, headers = _raw(client, url, PLAIN)
        assert plain == wasm.read_bytes() and "content-encoding" not in headers
