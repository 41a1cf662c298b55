"""End to end (issue 15): a game started and played for a turn with the browser set to each of
the six languages. The lobby's and the table's texts are the shipped catalog's translations of
known texts (looked up with ``spite_malice.i18n.catalog``), and choosing another language in
Settings switches the page. It needs complete catalogs: the translators' work."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from spite_malice.i18n import LANGUAGES, catalog, use_language
from spite_malice.i18n.cards import a_value_word, card_name, rank_name

from .player import TABLE, ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e

BROWSER_LOCALES = {
    "en": "en-US",
    "it": "it-IT",
    "ru": "ru-RU",
    "pt": "pt-BR",
    "fr": "fr-FR",
    "nl": "nl-NL",
}
RANKS = "A23456789TJQK"
SUITS = "SHDC"


def tr(language: str, message: str, context: str | None = None, **fields: object) -> str:
    """``message`` as the shipped catalog of ``language`` has it, its fields filled."""
    text = catalog(language).gettext(message, context)
    return text.format(**fields) if fields else text


def name_of(language: str, code: str) -> str:
    """A card of the notation ("7H") by its name in ``language`` ("Sette di cuori")."""
    face = SUITS.index(code[1]) * 13 + RANKS.index(code[0])
    with use_language(language):
        return card_name(face)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_game_in_each_language(
    server: ServerProcess, new_context: ContextFactory, language: str
) -> None:
    if language != "en":
        # a translated catalog, not the English fallback
        assert tr(language, "Play the computer") != "Play the computer"
        assert tr(language, "Your turn") != "Your turn"
    me = Player.open(new_context(locale=BROWSER_LOCALES[language]), server.url, f"lang-{language}")
    page = me.page

    # The lobby.
    me.goto("play")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator(".lobby h1")).to_have_text(tr(language, "Play the computer"))
    expect(page.locator("#start-computer")).to_have_text(tr(language, "Start a match"))
    expect(page.locator('.nav a[data-route="settings"]')).to_have_text(tr(language, "Settings"))
    page.click("label[for=level-easy]")
    page.click("#start-computer")
    page.wait_for_url("**/#/game/*")
    me.wait_started()

    # The table, on my turn: the banner, the captions, a card's name.
    me.wait_phase("mine", timeout_ms=120_000)
    expect(page.locator("#turn-banner")).to_have_text(tr(language, "Your turn"))
    expect(page.locator("#hint-button")).to_have_text(tr(language, "Hint"))
    opponent = page.locator(".seat-opponent .seat-name")
    expect(opponent).to_contain_text(tr(language, "Easy", "level"))
    stock_caption = page.locator(f"{TABLE} [data-stock] + .pile-caption")
    expect(stock_caption).to_have_text(tr(language, "Stock", "caption"))
    first = page.locator(f"{TABLE} .hand-card").first
    card = first.get_attribute("data-card") or ""
    label = tr(language, "{card}, hand card {n}", card=name_of(language, card), n=1)
    expect(first).to_have_attribute("aria-label", label)

    # One turn: greedy moves until the discard; the log tells the discard in the language.
    discarded = None
    while me.phase == "mine":
        move = me.greedy_choice(me.legal_moves())
        target = move.split("-")[1]
        me.play_move(move)
        if target.startswith("S"):
            # the card that went there (a hand source names a rank, not one card)
            discarded = (me.side_cards("me")[int(target[1]) - 1][-1], target[1])
            break
        me.wait_phase("mine", "theirs", "over")
    if discarded is not None:
        code, stack = discarded
        sentence = tr(
            language,
            "You discard the {card} onto side stack {n}.",
            card=name_of(language, code),
            n=stack,
        )
        expect(page.locator("#move-log")).to_contain_text(sentence)
    me.wait_phase("mine", "theirs", "over", timeout_ms=120_000)

    # Settings: another language switches the page at once.
    other = LANGUAGES[(LANGUAGES.index(language) + 1) % len(LANGUAGES)]
    me.goto("settings")
    expect(page.locator(".settings h1")).to_have_text(tr(language, "Settings"))
    page.select_option("#language", other)
    expect(page.locator("html")).to_have_attribute("lang", other)
    expect(page.locator(".settings h1")).to_have_text(tr(other, "Settings"))
    expect(page.locator('.nav a[data-route="play"]')).to_have_text(tr(other, "Play"))
    assert me.errors == []


CARD_WORDS_IN_THE_PAGE = """async () => {
  const cards = await import('/static/js/cards.js');
  const values = [...Array(13).keys()].map((i) => i + 1);
  return {
    ranks: values.map((value) => cards.valueName(value)),
    values: values.map((value) => cards.aValue(value)),
    cards: cards.SUITS.map((suit) => cards.RANKS.map((rank) => cards.cardName(rank + suit))),
  };
}"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_rank_and_card_words_are_the_servers(
    server: ServerProcess, new_context: ContextFactory, language: str
) -> None:
    """The page holds no rank or card words: every one it says (a rank, a value with its
    article, each of the 52 cards' names) is the server's in the page's language, English
    included, and a change of language brings the other language's."""
    me = Player.open(new_context(locale=BROWSER_LOCALES[language]), server.url, f"words-{language}")
    page = me.page
    me.goto("play")
    expect(page.locator("html")).to_have_attribute("lang", language)

    def server_words(code: str) -> dict[str, list[object]]:
        with use_language(code):
            return {
                "ranks": [rank_name(value) for value in range(1, 14)],
                "values": [a_value_word(value) for value in range(1, 14)],
                "cards": [[card_name(suit * 13 + rank) for rank in range(13)] for suit in range(4)],
            }

    assert page.evaluate(CARD_WORDS_IN_THE_PAGE) == server_words(language)
    other = LANGUAGES[(LANGUAGES.index(language) + 1) % len(LANGUAGES)]
    me.goto("settings")
    page.select_option("#language", other)
    expect(page.locator("html")).to_have_attribute("lang", other)
    assert page.evaluate(CARD_WORDS_IN_THE_PAGE) == server_words(other)
    assert me.errors == []
