"""The page's language (issue 15): the catalog endpoints, the middleware that answers each
request in its ``Accept-Language``, and the player's ``language`` setting."""

from __future__ import annotations

import json

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spite_malice.i18n import LANGUAGE_NAMES, LANGUAGES, Catalog, _, current_language, use_language
from spite_malice.i18n import catalogs as catalogs_module
from spite_malice.i18n.cards import a_value_word, card_name, rank_name
from spite_malice.web.language import LanguageMiddleware

from .conftest import new_player

NO_LANGUAGE = "There is no such language. The languages are: {names}."


def fake_catalogs(monkeypatch: pytest.MonkeyPatch, catalog: Catalog) -> None:
    """Every language reads ``catalog`` (the shipped catalogs are still empty)."""
    monkeypatch.setattr(catalogs_module, "catalog", lambda language: catalog)
    monkeypatch.setattr("spite_malice.i18n.text.catalog", lambda language: catalog)


def test_the_languages_are_listed_by_their_own_names_with_the_browsers_choice(
    client: TestClient,
) -> None:
    answer = client.get("/api/language", headers={"Accept-Language": "de-DE, it;q=0.8, en;q=0.5"})
    assert answer.status_code == 200
    body = answer.json()
    assert body["language"] == "it"
    assert [entry["code"] for entry in body["languages"]] == list(LANGUAGES)
    names = {entry["code"]: entry["name"] for entry in body["languages"]}
    assert names == LANGUAGE_NAMES
    assert names["ru"] == "Русский" and names["nl"] == "Nederlands"
    assert client.get("/api/language", headers={"Accept-Language": "ja"}).json()["language"] == "en"


def test_a_languages_catalog_has_the_page_texts_and_plural_forms(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = Catalog(
        "ru",
        singular={(None, "Your turn"): "Ваш ход", (None, "Server only"): "Только сервер"},
        plural={(None, "{n} card"): ("{n} карта", "{n} карты", "{n} карт")},
        page_keys=frozenset({(None, "Your turn"), (None, "{n} card")}),
    )
    fake_catalogs(monkeypatch, fake)
    body = client.get("/api/language/ru").json()
    assert body["language"] == "ru"
    assert body["plural"] == {"one": 0, "few": 1, "many": 2, "other": 2}
    assert body["messages"] == {
        "Your turn": "Ваш ход",
        "{n} card": ["{n} карта", "{n} карты", "{n} карт"],
    }


def test_english_has_no_translations_but_its_card_words(client: TestClient) -> None:
    body = client.get("/api/language/en").json()
    assert {key: value for key, value in body.items() if key != "cards"} == {
        "language": "en",
        "plural": {"one": 0, "other": 1},
        "messages": {},
    }
    cards = body["cards"]
    assert cards["ranks"][0] == "Ace" and cards["ranks"][6] == "Seven"
    assert cards["ranks"][12] == "King"
    assert cards["values"][0] == "an Ace" and cards["values"][4] == "a five"
    assert cards["cards"][1][6] == "Seven of hearts" and cards["cards"][0][11] == "Queen of spades"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_catalog_carries_every_card_word_the_page_shows(
    client: TestClient, language: str
) -> None:
    """The page holds no rank or card words (web/static/js/cards.js): each language's
    catalog brings all of them, the server's own words in that language, whatever the
    language the request itself speaks."""
    cards = client.get(f"/api/language/{language}", headers={"Accept-Language": "fr"}).json()[
        "cards"
    ]
    with use_language(language):
        assert cards["ranks"] == [rank_name(rank) for rank in range(1, 14)]
        assert cards["values"] == [a_value_word(rank) for rank in range(1, 14)]
        assert cards["cards"] == [
            [card_name(suit * 13 + rank) for rank in range(13)] for suit in range(4)
        ]
    assert len({*cards["ranks"]}) == 13 and len({*cards["values"]}) == 13
    names = [name for suit in cards["cards"] for name in suit]
    assert len(set(names)) == 52
    if language != "en":
        assert cards["ranks"][10] != "Jack" and cards["values"][4] != "a five"
    # the page's messages no longer carry the rank, suit and card words (they come here)
    messages = client.get(f"/api/language/{language}").json()["messages"]
    assert not [key for key in messages if key.split("\x04")[0] in ("rank", "suit", "value")]


@pytest.mark.parametrize("code", ["de", "EN", "x" * 40, "it-IT", "en%00"])
def test_an_unknown_language_is_a_clear_404(client: TestClient, code: str) -> None:
    answer = client.get(f"/api/language/{code}")
    assert answer.status_code == 404
    error = answer.json()["error"]
    assert error["code"] == "unknown_language"
    assert error["message"] == NO_LANGUAGE.format(names=", ".join(LANGUAGES))


def test_the_refusal_itself_speaks_the_requesters_language(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = Catalog(
        "it", singular={(None, NO_LANGUAGE): "Questa lingua non c'è. Le lingue sono: {names}."}
    )
    fake_catalogs(monkeypatch, fake)
    answer = client.get("/api/language/de", headers={"Accept-Language": "it-IT,it;q=0.9"})
    assert answer.json()["error"]["message"].startswith("Questa lingua non c'è. Le lingue sono: en")
    assert answer.headers["content-language"] == "it"


def test_every_http_request_runs_in_its_accept_language() -> None:
    app = FastAPI()
    app.add_middleware(LanguageMiddleware)

    @app.get("/now")
    async def now() -> dict[str, str]:
        return {"language": current_language(), "text": _("Your turn")}

    @app.get("/sync")
    def sync() -> dict[str, str]:  # a handler run in a thread sees the language too
        return {"language": current_language()}

    with TestClient(app) as client:
        for header, expected in (
            ("fr-CH, fr;q=0.9, en;q=0.8", "fr"),
            ("pt-BR", "pt"),
            ("de", "en"),
            ("", "en"),
            ("ru;q=banana, nl;q=0.3", "nl"),
        ):
            answer = client.get("/now", headers={"Accept-Language": header})
            assert answer.json()["language"] == expected, header
            assert answer.headers["content-language"] == expected
            assert client.get("/sync", headers={"Accept-Language": header}).json() == {
                "language": expected
            }
        assert client.get("/now").json()["language"] == "en"
    # the block ends with the request: nothing leaks into the process default
    assert current_language() == "en"


def test_a_handlers_text_is_translated_for_the_requester(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = Catalog("nl", singular={(None, "Your turn"): "Jij bent aan de beurt"})
    fake_catalogs(monkeypatch, fake)
    app = FastAPI()
    app.add_middleware(LanguageMiddleware)

    @app.get("/now")
    async def now() -> dict[str, str]:
        return {"text": _("Your turn")}

    with TestClient(app) as client:
        assert client.get("/now", headers={"Accept-Language": "nl-BE"}).json() == {
            "text": "Jij bent aan de beurt"
        }


def test_the_language_setting_is_kept_per_player(client: TestClient) -> None:
    assert client.get("/api/settings").json()["language"] is None
    saved = client.put("/api/settings", json={"language": "ru"})
    assert saved.status_code == 200, saved.text
    assert saved.json()["language"] == "ru"
    assert client.get("/api/settings").json()["language"] == "ru"
    # other settings leave it alone; "" follows the browser again
    client.put("/api/settings", json={"animation_speed": "fast"})
    assert client.get("/api/settings").json()["language"] == "ru"
    client.put("/api/settings", json={"language": ""})
    assert client.get("/api/settings").json()["language"] is None


def test_another_player_keeps_their_own_language(client: TestClient) -> None:
    client.put("/api/settings", json={"language": "fr"})
    other = new_player(client, "bob")
    assert client.get("/api/settings", headers=other).json()["language"] is None
    assert client.get("/api/settings").json()["language"] == "fr"


@pytest.mark.parametrize("value", ["de", "English", "x" * 16, "en-US"])
def test_an_unknown_language_setting_is_refused_and_nothing_changes(
    client: TestClient, value: str
) -> None:
    client.put("/api/settings", json={"language": "it"})
    answer = client.put("/api/settings", json={"language": value})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["code"] == "invalid"
    assert answer.json()["error"]["message"] == NO_LANGUAGE.format(names=", ".join(LANGUAGES))
    assert client.get("/api/settings").json()["language"] == "it"


def test_a_non_string_language_setting_is_refused(client: TestClient) -> None:
    for value in (3, ["it"], {"it": 1}, True):
        answer = client.put("/api/settings", json={"language": value})
        assert answer.status_code in (400, 422), answer.text
    assert client.get("/api/settings").json()["language"] is None


def test_the_offline_copy_keeps_every_languages_catalog_english_included(
    client: TestClient,
) -> None:
    """The page reads its card words from the catalog in every language, so the service
    worker keeps English's too (a page offline still names its cards)."""
    body = client.get("/sw.js").text
    config = json.loads(body.split("const CONFIG = ", 1)[1].split(";\n", 1)[0])
    assert {f"/api/language/{code}" for code in LANGUAGES} <= set(config["api"])
