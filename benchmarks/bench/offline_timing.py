"""The installable app's figures (docs/offline.md, README): what the offline engine costs to
download, how long the installed app takes, with no network, from opening to the first move
you can make, and how long the computer takes to answer in the page against the same bots on
the server.

It starts a server on this machine, opens the page in headless chromium (Debian's, at
$SPITE_MALICE_CHROMIUM), keeps the engine (offline play on), then, with the network cut,
opens the app ``--runs`` times (each a new tab: the engine boots from the cache, "warm") and
starts a match against Medium. The decision times run :func:`spite_malice.offline.timing.
think_times` in the page's worker (Pyodide) and in this process (CPython).

    python benchmarks/offline_timing.py [--runs 5] [--decisions 60]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from spite_malice.offline import build
from spite_malice.offline.timing import think_times
from spite_malice.web.pwa import STATIC, shell_files

ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _serve(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    command = [sys.executable, "-m", "spite_malice", "serve", "--port", str(port), "--db", str(db)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(url + "/api/health", timeout=1):
                return process, url
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


def _sent(url: str) -> int:
    """The bytes the server sends for ``url`` to a browser, which takes gzip (urllib leaves
    the body as it comes)."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return len(answer.read())


def sizes(url: str) -> dict[str, int]:
    """Bytes of the offline engine and of the page: their files', and what the server at
    ``url`` sends a browser (the engine's gzip copies, web/static_files.py)."""
    manifest = json.loads((build.OUT / build.MANIFEST).read_text())
    engine = [f"/static/offline/build/{name}" for name in sorted(manifest["files"])]
    shell = shell_files()
    return {
        "engine_bytes": sum(int(f["bytes"]) for f in manifest["files"].values()),
        "engine_sent_bytes": sum(_sent(url + path) for path in engine),
        "page_bytes": sum(path.stat().st_size for path in shell),
        "page_sent_bytes": sum(
            _sent(f"{url}/static/{path.relative_to(STATIC).as_posix()}") for path in shell
        ),
    }


def _in_page(args: argparse.Namespace, url: str) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("SPITE_MALICE_CHROMIUM", "/usr/bin/chromium")
    found: dict[str, Any] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
        context = browser.new_context()
        page = context.new_page()
        page.goto(url + "/#/play")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
        page.evaluate(
            """async () => {
              const secret = JSON.parse(localStorage.getItem('spite-malice.player-record')).secret;
              await fetch('/api/settings', {method: 'PUT', headers: {'Content-Type':
                'application/json', 'X-Player-Secret': secret}, body: JSON.stringify(
                {rules: {payoff_size: 5, match_target: 1}, preset: null, level: 'medium',
                 animation_speed: 'off'})});
              window.spiteMaliceOffline.setOfflineWanted(true);
            }"""
        )
        page.reload()
        page.wait_for_function(
            "() => document.documentElement.dataset.offlineEngine === 'installed'",
            timeout=300_000,
        )
        page.close()
        context.set_offline(True)
        runs: list[float] = []
        boots: list[Any] = []
        for _ in range(args.runs):
            started = time.perf_counter()
            page = context.new_page()
            page.goto(url + "/#/play")
            page.click("#start-computer")
            page.wait_for_selector("#table[data-phase=mine]", timeout=120_000)
            runs.append(time.perf_counter() - started)
            boots.append(
                page.evaluate(
                    "async () => (await import('/static/offline/client.js')).engineBootMs()"
                )
            )
            page.close()
        found["open_to_first_move_s"] = runs
        found["engine_boot_ms"] = boots
        page = context.new_page()
        page.goto(url + "/#/play")
        times = {}
        for level, decisions in (
            ("easy", args.decisions),
            ("hard", args.decisions),
            ("expert", max(10, args.decisions // 4)),
        ):
            times[level] = page.evaluate(
                """([level, decisions]) => new Promise((resolve) => {
                  const worker = new Worker('/static/offline/worker.js', {type: 'module'});
                  worker.onmessage = ({data}) => {
                    if (data.op === 'think-times') { resolve(data.times); worker.terminate(); }
                  };
                  worker.postMessage({op: 'think-times', req: 1, level, decisions});
                })""",
                [level, decisions],
            )
        found["page_think"] = times
        browser.close()
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--decisions", type=int, default=60)
    args = parser.parse_args(argv)
    problem = build.check()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as folder:
        process, url = _serve(Path(folder) / "bench.db")
        try:
            sent = sizes(url)
            page = _in_page(args, url)
        finally:
            process.terminate()
            process.wait(timeout=30)
    server = {
        level: think_times(level, decisions)
        for level, decisions in (
            ("easy", args.decisions),
            ("hard", args.decisions),
            ("expert", max(10, args.decisions // 4)),
        )
    }
    figures = {"sizes": sent, **page, "server_think": server}
    print(json.dumps(figures, indent=1))
    runs = figures["open_to_first_move_s"]
    print(
        f"\nopen offline to first move: median {statistics.median(runs):.2f} s "
        f"(runs {', '.join(f'{r:.2f}' for r in runs)})"
    )
    print("| level | page median / p95 ms | server median / p95 ms |")
    for level in server:
        mine, theirs = page["page_think"][level], server[level]
        print(
            f"| {level} | {mine['median_ms']} / {mine['p95_ms']} | "
            f"{theirs['median_ms']} / {theirs['p95_ms']} |"
        )
    return 0
