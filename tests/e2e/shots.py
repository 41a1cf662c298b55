"""Screenshots of the browser tests, for a person to look at: taken only when
$SPITE_MALICE_SHOTS names a folder (they cost the run time and nobody reads them otherwise).

    SPITE_MALICE_SHOTS=/tmp/shots pytest tests/e2e/test_phone.py tests/e2e/test_layout.py
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import Page


def shots_folder() -> Path | None:
    """The folder that $SPITE_MALICE_SHOTS names (made if need be), else None."""
    chosen = os.environ.get("SPITE_MALICE_SHOTS")
    if not chosen:
        return None
    folder = Path(chosen)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def screenshot(page: Page, label: str, *, full_page: bool = False) -> None:
    """The page as it shows now, as ``<label>.png`` in the shots folder, if one is set."""
    folder = shots_folder()
    if folder is not None:
        page.screenshot(path=str(folder / f"{label}.png"), full_page=full_page)
