"""The tutorial speaks the learner's language: every text a lesson shows is a marked message
that Babel extracts, translated when it is shown (docs/translating.md).

The real catalogs are being written, so these tests use fake ones: a catalog that wraps every
extracted message in ⟦ ⟧ shows any text that bypassed the catalogs (it is left bare), and
a catalog with a few real Italian sentences shows the translation reaches the player.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")

from sources import parse_file, parse_source  # noqa: E402
from spite_malice.engine.moves import parse_move  # noqa: E402
from spite_malice.i18n import Catalog, catalog_tools, use_language  # noqa: E402
from spite_malice.i18n.catalogs import Key  # noqa: E402
from spite_malice.tutorial import LESSONS, Lesson, LessonRun, lesson_named  # noqa: E402

OPEN, CLOSE = "⟦", "⟧"
TRIED = (
    *(f"P-{to}" for to in ("C1", "C2", "C3", "C4", "S1")),
    *(f"H{rank}-C{n}" for rank in "A23456789TJQK" for n in (1, 2, 3, 4)),
    *(f"S{n}-C1" for n in (1, 2, 3, 4)),
    "S1-S2",
)
"""Moves tried at every step: those the engine refuses there are refused with its reason."""
_INNERMOST = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")


def _wrapped(text: str) -> str:
    return f"{OPEN}{text}{CLOSE}"


@pytest.fixture(scope="module")
def template() -> Any:
    """Every message Babel extracts from the sources (read once for the module)."""
    return catalog_tools.template()


@pytest.fixture(scope="module")
def extracted(template: Any) -> Catalog:
    """Every message Babel extracts from the sources, each "translated" to itself in ⟦ ⟧."""
    singular: dict[Key, str] = {}
    plural: dict[Key, tuple[str, ...]] = {}
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, (list, tuple)):
            plural[(message.context, message.id[0])] = tuple(_wrapped(f) for f in message.id)
        else:
            singular[(message.context, message.id)] = _wrapped(message.id)
    return Catalog("it", singular, plural)


def _speak(monkeypatch: pytest.MonkeyPatch, fake: Catalog) -> None:
    """``fake`` is the catalog of its language; every other language has an empty one."""
    monkeypatch.setattr(
        "spite_malice.i18n.text.catalog",
        lambda language: fake if language == fake.language else Catalog(language),
    )


def _bare(text: str) -> str:
    """What is left of ``text`` outside every ⟦ ⟧ (nested ones too)."""
    while True:
        stripped = _INNERMOST.sub("", text)
        if stripped == text:
            return text
        text = stripped


def _assert_marked(text: str, where: str) -> None:
    assert text, where
    assert OPEN in text, f"{where}: not from the catalogs: {text!r}"
    assert not re.search(r"[A-Za-z]", _bare(text)), f"{where}: unmarked words in {text!r}"


def _every_text(lesson: Lesson) -> Iterator[tuple[str, str]]:
    """(where, text) for every text the lesson can show on its way through its examples:
    title, intro, each step's instruction, its "show me", its tip (after a move that is not
    one), each wrong legal move's explanation, each illegal move's refusal (the engine's
    reason, translated by table/words.py, then the tip), what a done step says, and the
    summary."""
    yield "title", lesson.title
    yield "intro", lesson.intro
    run = LessonRun(lesson)
    while not run.is_finished:
        where = f"{lesson.key} step {run.index + 1}"
        step = run.step
        assert step is not None
        yield f"{where} instruction", run.instruction
        shown = run.show_me()
        assert shown is not None
        yield f"{where} show me", shown[1]
        yield f"{where} not a move", run.attempt("nonsense").text
        for move in run.legal_moves():
            if step.goal(run.game, move):
                continue
            if step.free is not None and step.free(run.game, move):
                continue  # accepted: see _free_moves_said
            yield f"{where} wrong {move.notation}", run.attempt(move).text
        for notation in TRIED:
            if run.game.why_illegal(parse_move(notation)) is not None:
                yield f"{where} illegal {notation}", run.attempt(notation).text
        done = run.attempt(step.example)
        assert done.finished_step, done.text
        yield f"{where} done", done.text
    yield "summary", run.instruction
    yield "finished", run.attempt(lesson.examples[0]).text


def _free_moves_said(lesson: Lesson) -> Iterator[tuple[str, str]]:
    """What each step says to a free move (a harmless build the step lets through)."""
    run = LessonRun(lesson)
    while not run.is_finished:
        step = run.step
        assert step is not None
        if step.free is not None:
            for move in run.legal_moves():
                if not step.goal(run.game, move) and step.free(run.game, move):
                    trial = LessonRun.replay(lesson, run.moves)
                    attempt = trial.attempt(move)
                    assert attempt.accepted and not attempt.finished_step
                    yield f"{lesson.key} step {run.index + 1} free {move.notation}", attempt.text
        run.attempt(step.example)


@pytest.mark.parametrize("key", [lesson.key for lesson in LESSONS])
def test_every_lesson_text_is_extracted_and_shown_translated(
    monkeypatch: pytest.MonkeyPatch, extracted: Catalog, key: str
) -> None:
    _speak(monkeypatch, extracted)
    lesson = lesson_named(key)
    with use_language("it"):
        texts = [*_every_text(lesson), *_free_moves_said(lesson)]
    assert len(texts) > 5
    for where, text in texts:
        _assert_marked(text, where)


def test_a_lesson_with_a_free_move_says_so_in_the_catalogs_words(
    monkeypatch: pytest.MonkeyPatch, extracted: Catalog
) -> None:
    _speak(monkeypatch, extracted)
    with use_language("it"):
        said = list(_free_moves_said(lesson_named("block")))
    assert said  # the block lesson lets a safe build through before its discard
    for where, text in said:
        _assert_marked(text, where)


ITALIAN = Catalog(
    "it",
    {
        (None, "Building from your pay-off pile"): "Costruire dalla pila di pagamento",
        (None, "Well done. The Ace starts the stack, and the next card of your pay-off "
         "pile, the Two of hearts, is now face up."): "Ben fatto. L'Asso apre la pila.",
        (None, "That is not a move."): "Questa non è una mossa.",
        (
            None,
            "Pick your pay-off card, the Ace of spades, and put it on an empty center stack.",
        ): "Prendi la tua carta di pagamento, l'Asso di picche.",
        (None, "Show me: build the {card} from your pay-off pile on center {center}."): (
            "Mostrami: costruisci {card} dalla pila di pagamento sulla pila centrale {center}."
        ),
        ("card", "{rank} of {suit}"): "{rank} di {suit}",
        ("rank", "Ace"): "Asso",
        ("suit", "spades"): "picche",
    },
    {
        (None, "You emptied your pay-off pile and won the game. You score one point for each "
         "card left in your opponent's pay-off pile: {n} point, which brings you to {total}. "
         "Reaching {target} wins the match."): (
            "Hai vinto la partita: {n} punto, arrivi a {total} (ne servono {target}).",
            "Hai vinto la partita: {n} punti, arrivi a {total} (ne servono {target}).",
        ),
    },
)  # fmt: skip


def test_a_lesson_speaks_the_language_current_when_it_is_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _speak(monkeypatch, ITALIAN)
    lesson = lesson_named("payoff")
    run = LessonRun(lesson)
    assert lesson.title == "Building from your pay-off pile"  # outside any block: English
    with use_language("it"):
        assert lesson.title == "Costruire dalla pila di pagamento"
        shown = run.show_me()
        assert shown is not None
        assert shown[1] == (
            "Mostrami: costruisci Asso di picche dalla pila di pagamento sulla pila centrale 1."
        )
        assert run.attempt("zz").text == (
            "Questa non è una mossa. Prendi la tua carta di pagamento, l'Asso di picche."
        )
        assert run.attempt("P-C1").text == "Ben fatto. L'Asso apre la pila."
    assert run.instruction.startswith("The stack with your Ace needs a two")
    with use_language("ru"):  # a catalog without the text: English, never a blank
        assert run.instruction.startswith("The stack with your Ace needs a two")


def test_the_score_lesson_counts_points_in_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    _speak(monkeypatch, ITALIAN)
    run = LessonRun(lesson_named("score"))
    with use_language("it"):
        attempt = run.attempt("P-C1")
    assert attempt.finished_step
    assert attempt.text == "Hai vinto la partita: 8 punti, arrivi a 50 (ne servono 50)."


def test_every_lesson_field_is_a_message_babel_extracts(template: Any) -> None:
    """The texts a lesson holds as strings (marked with ``N_`` at import time) are message
    ids of the catalogs, so the translators get each one."""
    ids = {(m.context, m.id) for m in template if isinstance(m.id, str)}
    for lesson in LESSONS:
        held = [lesson.english_title, lesson.english_intro]
        if isinstance(lesson.summary, str):
            held.append(lesson.summary)
        for step in lesson.steps:
            held += [step.say, step.tip]
            held += [t for t in (step.free_said, step.done) if isinstance(t, str) and t]
        for text in held:
            assert text and (None, text) in ids, f"{lesson.key}: not extracted: {text!r}"


def test_the_tutorials_endpoints_answer_in_the_requests_language(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from fastapi.testclient import TestClient

    from spite_malice.web import create_app
    from spite_malice.web.api import PLAYER_HEADER

    _speak(monkeypatch, ITALIAN)
    italian = {"Accept-Language": "it"}
    with TestClient(create_app(str(tmp_path / "web.db"))) as client:
        secret = client.post("/api/players", json={"name": "Ann"}).json()["secret"]
        client.headers.update({PLAYER_HEADER: secret})
        overview = client.get("/api/tutorial", headers=italian).json()
        tried = client.post(
            "/api/tutorial/lessons/payoff", json={"move": "P-C1"}, headers=italian
        ).json()
        english = client.post("/api/tutorial/lessons/payoff", json={}).json()
    assert overview["lessons"][0]["title"] == "Costruire dalla pila di pagamento"
    assert tried["lesson"]["title"] == "Costruire dalla pila di pagamento"
    assert tried["attempt"]["text"] == "Ben fatto. L'Asso apre la pila."
    assert english["lesson"]["title"] == "Building from your pay-off pile"
    assert english["show"]["text"] == (
        "Show me: build the Ace of spades from your pay-off pile on center 1."
    )


MARKERS = {"_", "N_", "NP_", "gettext", "ngettext", "pgettext", "npgettext"}
SOURCES = ("tutorial/*.py", "web/tutorial.py", "web/rules_page.py")
_SENTENCE = re.compile(r"^[A-Z][a-z']*( [\w',:;{}-]+)+[.!?]?$")


def _unmarked_sentences(tree: ast.AST) -> list[tuple[int, str]]:
    """String literals that read like a sentence for players, outside a marking call and
    outside docstrings."""
    marked: set[int] = set()
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name in MARKERS:
                marked.update(id(inner) for arg in node.args for inner in ast.walk(arg))
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            docstrings.add(id(node.value))  # an attribute's docstring
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in marked or id(node) in docstrings:
                continue
            if _SENTENCE.match(node.value):
                found.append((node.lineno, node.value))
    return found


def test_the_tutorial_sources_have_no_unmarked_sentences() -> None:
    root = Path(catalog_tools.__file__).resolve().parents[1]
    files = sorted(path for pattern in SOURCES for path in root.glob(pattern))
    assert len(files) >= 8
    found = [
        f"{path.relative_to(root)}:{line}: {text!r}"
        for path in files
        for line, text in _unmarked_sentences(parse_file(path))
    ]
    assert found == []


def test_the_scan_finds_an_unmarked_sentence() -> None:
    source = 'x = "Build the 5 from your hand."\ny = N_("Build the 6 from your hand.")\n'
    assert _unmarked_sentences(parse_source(source)) == [(1, "Build the 5 from your hand.")]
