"""Pseudo-translations for tests: every text comes out marked with its language (``[it] ...``),
so a test sees which language each text was made in while the real catalogs are still empty.
A text that was never marked stays bare English and shows up as such."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from spite_malice.i18n import Catalog
from spite_malice.i18n import catalogs as catalogs_module


@dataclass(frozen=True)
class PseudoCatalog(Catalog):
    """A catalog that "translates" every message by prefixing its language."""

    def gettext(self, message: str, context: str | None = None) -> str:
        return f"[{self.language}] {message}"

    def ngettext(self, singular: str, plural: str, n: int, context: str | None = None) -> str:
        return f"[{self.language}] {singular if n == 1 else plural}"


def use_pseudo_catalogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every language but English speaks through a :class:`PseudoCatalog`."""
    real = catalogs_module.catalog

    def catalog(language: str) -> Catalog:
        return real(language) if language == "en" else PseudoCatalog(language)

    monkeypatch.setattr(catalogs_module, "catalog", catalog)
    monkeypatch.setattr("spite_malice.i18n.text.catalog", catalog)


def use_catalog(monkeypatch: pytest.MonkeyPatch, fake: Catalog) -> None:
    """``fake`` for its language (English and the rest as they are)."""
    real = catalogs_module.catalog

    def catalog(language: str) -> Catalog:
        return fake if language == fake.language else real(language)

    monkeypatch.setattr(catalogs_module, "catalog", catalog)
    monkeypatch.setattr("spite_malice.i18n.text.catalog", catalog)
