"""The terminal's tests start in English whatever the machine's locale, and leave the
process's default language as they found it (the terminal game sets it at its start)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from spite_malice.i18n import set_default_language


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    yield
    set_default_language("en")
