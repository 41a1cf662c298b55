"""Analysis subcommand: ``analyse RECORD.json``, where a seat's game was won or lost."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..analysis import DEFAULT_SAMPLES, Settings, analyse_record
from ..analysis.pool import MAX_WORKERS
from ..engine.errors import ArgumentError, NotationError, quote
from ..engine.jsontext import load_json
from ..engine.record import GameRecord
from ..levels import LEVELS

MAX_SAMPLES = 10_000
"""More samples than this would take hours on a long game."""


def register(subparsers: Any) -> None:
    analyse = subparsers.add_parser(
        "analyse",
        aliases=["analyze"],
        help="where a game was lost: each turn of a seat against Expert's best choice",
        description="Value each turn of one seat of a game record against the best turn "
        "Expert's search finds, from that seat's view only; print the three costliest turns "
        "with the better turn and why, and the best turn, numbered as the seat counts its "
        "turns (docs/analysis.md; --json gives the figures in pay-off cards expected).",
    )
    analyse.add_argument("record", type=Path, help="a game record, RECORD.json")
    analyse.add_argument(
        "--seat",
        default=None,
        help="the seat to analyse, 0 or 1 as in the record (default: the seat not played by "
        "a computer level, else 0)",
    )
    analyse.add_argument("--json", action="store_true", help="print the report as JSON")
    analyse.add_argument(
        "--samples",
        default=str(DEFAULT_SAMPLES),
        help=f"sampled deals of the hidden cards per decision ({DEFAULT_SAMPLES}); fewer is "
        "faster and noisier",
    )
    analyse.add_argument(
        "--workers",
        default=None,
        help=f"processes to analyse in, 1 to {MAX_WORKERS} (default: the cores, up to "
        f"{MAX_WORKERS}); the report is the same",
    )
    analyse.add_argument(
        "--every-deal",
        action="store_true",
        help="value every candidate on every one of the --samples deals instead of stopping "
        "once a decision is clear (slower; the figures before the analysis stopped early)",
    )
    analyse.set_defaults(handler=_analyse)


def _read_record(path: Path) -> GameRecord:
    """The record in the file; a file that is not a JSON record is one clear error."""
    try:
        data = load_json(path.read_text(encoding="utf-8"), "JSON file")
    except UnicodeDecodeError:
        raise NotationError("JSON file", path, "not UTF-8 text", shown=repr(str(path))) from None
    except NotationError as error:
        raise NotationError("JSON file", path, error.reason, shown=repr(str(path))) from None
    return GameRecord.from_json(data)


def _seat(text: str | None, record: GameRecord) -> int:
    if text is None:
        computer = [name.strip().lower() in LEVELS for name in record.players]
        return 1 if computer == [True, False] else 0
    if text.strip() not in ("0", "1"):
        raise ArgumentError(f"--seat must be 0 or 1, not {quote(text)}")
    return int(text)


def _samples(text: str) -> int:
    value = text.strip()
    if not value.isascii() or not value.isdigit() or not 2 <= int(value) <= MAX_SAMPLES:
        raise ArgumentError(
            f"--samples must be a whole number from 2 to {MAX_SAMPLES}, not {quote(text)}"
        )
    return int(value)


def _workers(text: str | None) -> int | None:
    if text is None:
        return None
    value = text.strip()
    if not value.isascii() or not value.isdigit() or not 1 <= int(value) <= MAX_WORKERS:
        raise ArgumentError(
            f"--workers must be a whole number from 1 to {MAX_WORKERS}, not {quote(text)}"
        )
    return int(value)


def _analyse(args: argparse.Namespace) -> int:
    samples = _samples(args.samples)
    workers = _workers(args.workers)
    record = _read_record(args.record)
    seat = _seat(args.seat, record)
    show = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show:
            end = "\n" if done == total else ""
            print(f"\rLooked at {done} of {total} decisions", end=end, file=sys.stderr)

    settings = Settings(samples=samples, adaptive=not args.every_deal)
    report = analyse_record(record, seat, settings=settings, progress=progress, workers=workers)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(report.to_text())
    return 0
