"""The installable app's manifest (docs/offline.md): in the language the page links it in
(``?lang=``), else the browser's (``Accept-Language``); and the service worker keeps it in
every language, so the installed app finds it with no network."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from spite_malice.i18n import catalog
from spite_malice.web import pwa

DESCRIPTION = "Spite & Malice, the two-player card race: play the computer or a friend."


def test_the_manifest_speaks_the_language_the_page_links_it_in(client: TestClient) -> None:
    answer = client.get("/manifest.webmanifest?lang=pt", headers={"Accept-Language": "en"})
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    body = answer.json()
    assert body["lang"] == "pt"
    portuguese = catalog("pt").gettext(DESCRIPTION)
    assert portuguese != DESCRIPTION  # translated, so the check below means something
    assert body["description"] == portuguese


@pytest.mark.parametrize("asked", ["", "xx", "PT-br"])
def test_without_a_known_lang_the_browser_s_language_serves(client: TestClient, asked: str) -> None:
    body = client.get(f"/manifest.webmanifest?lang={asked}", headers={"Accept-Language": "it"})
    expected = "pt" if asked == "PT-br" else "it"  # a region or a case is the same language
    assert body.json()["lang"] == expected


def test_the_service_worker_keeps_the_manifest_in_every_language() -> None:
    shell = pwa.worker_config()["shell"]
    assert "/manifest.webmanifest" in shell
    for language in pwa.LANGUAGES:
        assert f"/manifest.webmanifest?lang={language}" in shell
