"""The terminal game in the player's language: the locale's at the start, else the one chosen
in the settings (key g), kept with the player's settings in the store.

The catalogs are filled by the translators; until then these tests add a few translations of
their own to each catalog (only where the catalog has none), so they check the real
translation once there is one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets._footer import FooterKey

from spite_malice.cli import main
from spite_malice.daily import today
from spite_malice.i18n import Catalog, current_language, format_date
from spite_malice.i18n import catalogs as catalogs_module
from spite_malice.i18n import text as text_module
from spite_malice.i18n.catalogs import Key
from spite_malice.store import Store
from spite_malice.tui.persistence import NoPersistence
from spite_malice.tui.screens import HelpScreen
from spite_malice.tui.screens.language import LanguageScreen
from spite_malice.tui.store_link import StorePersistence
from spite_malice.tui.widgets import MoveLog, PileView, StatusBar

from .driver import make_app, settle, table

FAKES: dict[str, dict[Key, str]] = {
    "it": {
        (None, "Stock"): "Tallone",
        (None, "Moves"): "Mosse",
        (None, "Hint"): "Aiuto",
        (None, "your turn"): "tocca a te",
        (None, "needs an Ace"): "serve un Asso",
        (None, "Cards dealt; you start"): "Carte date; inizi tu",
        (None, "Cards dealt; {name} starts"): "Carte date; inizia {name}",
        (None, "Side {number}"): "Lato {number}",
        ("level", "Easy"): "Facile",
        (None, "The daily deal of {date} (UTC)."): "La partita del giorno, {date} (UTC).",
    },
    "ru": {
        (None, "Stock"): "Колода",
        (None, "Moves"): "Ходы",
        (None, "Hint"): "Подсказка",
        (None, "your turn"): "ваш ход",
        (None, "needs an Ace"): "нужен туз",
        (None, "Cards dealt; you start"): "Карты розданы; вы начинаете",
        (None, "Cards dealt; {name} starts"): "Карты розданы; начинает {name}",
        (None, "Side {number}"): "Запас {number}",
        ("level", "Easy"): "Лёгкий",
        (None, "No finished games are stored for you yet."): "Сохранённых партий пока нет.",
    },
}
"""A few texts of the table, with translations for tests (a real catalog's win)."""


def _catalog(language: str) -> Catalog:
    real = catalogs_module.catalog(language)
    fake = {key: text for key, text in FAKES.get(language, {}).items() if key not in real.singular}
    return Catalog(language, {**fake, **real.singular}, dict(real.plural), real.page_keys)


@pytest.fixture(autouse=True)
def catalogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalogs the game reads: the real ones with the test's few translations added."""
    monkeypatch.setattr(text_module, "catalog", _catalog)


def translated(language: str, message: str, context: str | None = None, **fields: object) -> str:
    """What the catalog says ``message`` is in ``language`` (as the game must show it)."""
    return _catalog(language).gettext(message, context).format(**fields)


def plain(text: object) -> str:
    return text.plain if isinstance(text, Text) else str(text)


@pytest.mark.parametrize(("locale", "language"), [("it_IT.UTF-8", "it"), ("ru_RU.UTF-8", "ru")])
async def test_the_terminal_speaks_the_locales_language(
    monkeypatch: pytest.MonkeyPatch, locale: str, language: str
) -> None:
    monkeypatch.setenv("LANG", locale)
    app = make_app()
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        assert current_language() == language
        screen = table(app)
        stock = plain(screen.query_one("#stock", PileView).border_title)
        assert translated(language, "Stock") in stock and "Stock" not in stock
        side = plain(screen.query_one("#side-0", PileView).border_title)
        assert translated(language, "Side {number}", number=1) in side
        log = screen.query_one(MoveLog)
        assert plain(log.border_title) == translated(language, "Moves")
        first = plain(log.entries[0])
        names = {"name": "Reference"}
        assert first in (
            translated(language, "Cards dealt; you start"),
            translated(language, "Cards dealt; {name} starts", **names),
        )
        centers = [plain(line) for line in screen.query_one("#center-0", PileView).lines]
        if not any("K" in line or "A" in line for line in centers):  # an empty center stack
            assert translated(language, "needs an Ace") in centers
        status = plain(screen.query_one(StatusBar).render())
        assert translated(language, "your turn") in status
        keys = [key.description for key in screen.query(FooterKey)]
        assert translated(language, "Hint") in keys and "Hint" not in keys
        await pilot.press("m")  # the levels by their names in the language
        await pilot.pause()
        levels = str(app.screen.query_one("#new-match-text").render())
        assert translated(language, "Easy", "level") in levels and "Easy" not in levels


async def test_the_setting_overrides_the_locale_and_is_kept(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = str(tmp_path / "games.db")
    persistence = StorePersistence.open(db)
    player = persistence.player
    persistence.store.save_settings(player, {"level": "hard", "animation_speed": "slow"})
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    app = make_app(persistence=persistence)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert current_language() == "it"
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, LanguageScreen)
        await pilot.press("3")  # the third language listed: Русский
        await settle(pilot)
        assert current_language() == "ru"
        stock = plain(table(app).query_one("#stock", PileView).border_title)
        assert translated("ru", "Stock") in stock
    with Store.open(db) as store:  # kept with the player's other settings, which stay
        assert store.settings(player) == {
            "level": "hard",
            "animation_speed": "slow",
            "language": "ru",
        }
    again = make_app(persistence=StorePersistence.open(db))
    async with again.run_test(size=(100, 30)) as pilot:  # under the Italian locale still
        await settle(pilot)
        assert current_language() == "ru"
        stock = plain(table(again).query_one("#stock", PileView).border_title)
        assert translated("ru", "Stock") in stock


async def test_escape_keeps_the_language_and_the_help_names_the_key() -> None:
    persistence = NoPersistence()
    app = make_app(persistence=persistence)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("g")
        await pilot.pause()
        await pilot.press("escape")
        await settle(pilot)
        assert current_language() == "en" and persistence.language() is None
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


class LongerCatalog(Catalog):
    """Every text 40% longer than the English (translations run up to 30% longer)."""

    def gettext(self, message: str, context: str | None = None) -> str:
        return message + "~" * (len(message) * 2 // 5)

    def ngettext(self, singular: str, plural: str, n: int, context: str | None = None) -> str:
        return self.gettext(singular if n == 1 else plural)


async def test_long_translations_still_fit_the_smallest_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(text_module, "catalog", lambda language: LongerCatalog(language))
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table(app)
        status = screen.query_one(StatusBar)
        line = str(status.render())
        assert "\n" not in line and len(line) <= 80
        # the line grew compact (the match's target left out) and kept the game's name
        assert line.startswith(" Spite & Malice ") and "your turn~~~" in line
        assert "game 1, turn 1~~~" in line
        message = screen.query_one("#message")
        assert message.size.height <= 2 and message.region.bottom <= 23
        keys = {key.action: key.region for key in screen.query(FooterKey)}
        assert keys["help"].right <= 80 and keys["quit_game"].right <= 80  # never cut off
        await pilot.press("m")
        await pilot.pause()
        box = app.screen.query_one("#new-match-box")
        assert box.region.right <= 80 and box.region.bottom <= 24
        assert "counts as lost).~~~" in str(app.screen.query_one("#new-match-text").render())


def test_the_commands_print_in_the_players_language(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "games.db")
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert main(["replay", "--list", "--db", db]) == 0
    out = capsys.readouterr().out.strip()
    assert out == translated("ru", "No finished games are stored for you yet.")
    persistence = StorePersistence.open(db)
    persistence.save_language("it")  # the setting wins over the Russian locale
    persistence.close()
    assert main(["daily", "--stats", "--db", db]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    date = format_date(today(), "it")
    assert first == translated("it", "The daily deal of {date} (UTC).", date=date)


KEY_BAR_ACTIONS = ("hint", "undo", "help", "quit_game", "new_match", "tutorial", "language")
"""What the table's key bar shows in a game that is going on."""


@pytest.mark.parametrize("language", ["en", "it", "ru", "pt", "fr", "nl"])
async def test_every_language_keeps_its_title_status_and_key_bar_at_80x24(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spite_malice.engine import Rules

    from .test_ascii import screen_text

    monkeypatch.setenv("LANG", f"{language}_XX.UTF-8")
    app = make_app(seed=7, rules=Rules.QUICK, level="medium")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("h")  # a hint: the game now counts as assisted
        await settle(pilot)
        drawn = screen_text(app).splitlines()
        status, key_bar = drawn[0], drawn[-1]
        assert status.startswith(" Spite & Malice "), status
        assert translated(language, "assisted") in status and not status.rstrip().endswith("…")
        assert translated(language, "Medium", "level") in status  # the level's name, whole
        keys = {key.action: key for key in table(app).query(FooterKey)}
        assert set(KEY_BAR_ACTIONS) <= set(keys), sorted(keys)
        for action in KEY_BAR_ACTIONS:
            assert keys[action].region.right <= 80, action
            assert keys[action].description in key_bar, (action, key_bar)
        assert "g " + translated(language, "Language") in key_bar
        assert "t " + translated(language, "Tutorial") in key_bar


@pytest.mark.parametrize("language", ["en", "it", "ru", "pt", "fr", "nl"])
async def test_a_long_status_keeps_the_title_and_assisted_at_80_columns(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", f"{language}_XX.UTF-8")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        status = table(app).query_one(StatusBar)
        expert = translated(language, "Expert", "level")
        status.show(player=translated(language, "You"), opponent=expert, score=(49, 48),
                    target=50, game_number=12, turn=123, whose_turn=translated(
                        language, "your turn"), assisted=True)  # fmt: skip
        line = str(status.render())
        assert len(line) <= 80 and line.startswith(" Spite & Malice "), line
        assert expert in line and translated(language, "assisted") in line
        assert "123" in line


@pytest.mark.parametrize("language", ["en", "it", "ru", "pt", "fr", "nl"])
async def test_the_key_bar_of_a_finished_game_fits_80_columns(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from .driver import QUICK_WIN, play_to_the_end

    monkeypatch.setenv("LANG", f"{language}_XX.UTF-8")
    app = make_app(seed=QUICK_WIN)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_to_the_end(pilot)
        await settle(pilot)
        keys = {key.action: key for key in table(app).query(FooterKey)}
        # a hint and undo leave with the game; the next game comes in their place
        assert "hint" not in keys and "undo" not in keys
        for action in ("next_game", "help", "quit_game", "new_match", "tutorial", "language"):
            assert keys[action].region.right <= 80, action
