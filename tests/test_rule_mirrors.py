"""Every place that still states a center-stack rule itself instead of deriving it from the
rank-space module ``spite_malice.engine.stacks``, or writes rank words of its own instead of
taking them from ``spite_malice.i18n.cards``, why it does, and the test that pins it to the
one source. Those kept for speed give their cost beside the engine path they mirror, as
``benchmarks/mirrors.py`` measures it (2026-12-07, this 2-core machine, shared); the others
are kept for layering. A new mirror fails :func:`test_no_unlisted_mirrors` or
:func:`test_no_unlisted_rank_words`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Mirror:
    path: str
    name: str
    """Text that stands in the file at the mirror (a function or the line)."""
    why: str
    pinned_by: str | None
    """``tests/...py::test_name``: the test that holds it equal to the engine (None: text)."""


MIRRORS = [
    Mirror(
        "src/spite_malice/research/actions.py",
        "def first_fit_action",
        "the reference policy read from the legal-action mask alone, with no game: an "
        "agent of an adapter has only the mask and its tensor; 0.41 us a call, against "
        "0.83 us for reference_move on the engine's position (benchmarks/mirrors.py)",
        "tests/research/test_actions.py::test_first_fit_through_the_mapping_is_the_reference_policy",
    ),
    Mirror(
        "src/spite_malice/research/encoding.py",
        "def first_fit_from_mask",
        "the same policy from an int8 action mask and the tensor: 0.38 us a call, against "
        "1.03 us for first_fit_action through mask.nonzero() (benchmarks/mirrors.py); the "
        "fast path of the research benchmark",
        "tests/research/test_encoding.py::test_first_fit_from_mask_plays_the_reference_move",
    ),
    Mirror(
        "src/spite_malice/research/encoding.py",
        "def encode_game",
        "the observation tensor written from the game itself, without an Observation: the "
        "adapters' fast path, about a fifth less time a call than encode_observation of an "
        "observation (164 against 210 us under load, 12.7 against 16.1 us at a lighter one; "
        "benchmarks/mirrors.py)",
        "tests/research/test_encoding.py::test_fast_builder_equals_the_observation_builder",
    ),
    Mirror(
        "src/spite_malice/research/encoding.py",
        "class ObservationEncoder",
        "updates the tensor from what a move changed (a discard seen as a side stack one "
        "longer, R3.3; a completed stack as a row of zeros, R3.4(b)) instead of writing it "
        "afresh each step: 1.4 to 2.2 us a move against 5.0 to 8.5 us for encode_game after each "
        "move, about a quarter of the time (benchmarks/mirrors.py --rounds 15, three runs at "
        "load 12 to 13)",
        "tests/research/test_encoding.py::test_the_updating_encoder_gives_the_same_tensors",
    ),
    Mirror(
        "src/spite_malice/engine/cards.py",
        "RANK_NAMES = ",
        "the English rank names of the engine's own English reasons (engine/reasons.py, "
        "a_rank): the engine imports nothing of ours (tests/test_architecture.py) and runs "
        "alone (the bots, Pyodide), so it cannot read the translations' words; kept for "
        "layering. Every other rank word (the table's reasons, the bots' hints, the terminal, "
        "the page through its catalog) is i18n/cards.py's",
        "tests/i18n/test_rank_words.py::"
        "test_the_engines_english_rank_names_are_the_translations_english_words",
    ),
    Mirror(
        "tests/engine/test_oracle.py",
        "naive model",
        "an independent, deliberately simple model of the rules that the engine is checked "
        "against: a second source on purpose",
        "tests/engine/test_oracle.py::test_the_engine_agrees_with_a_naive_model_of_the_rules",
    ),
]

# Words that state a stack rule: the Queen that completes a stack (R3.4(b)), a stack's
# value plus or minus one (R3.1), or 12 as the completing value.
_RULE_WORDS = re.compile(r"\bQUEEN\b|(value|len\(stack\)) \+ 1\b|rank - 1 (not )?in\b|>= 12\b")
_SOURCES = ("src/spite_malice/**/*.py", "src/spite_malice/web/static/js/**/*.js")
_HOME = {
    "src/spite_malice/engine/stacks.py",  # the rules themselves
    "src/spite_malice/engine/cards.py",  # the ranks' constants (ACE ... QUEEN, KING)
    "src/spite_malice/engine/__init__.py",  # re-exports the ranks
}
# Words that name a rank or a card: a table of rank names, or a text marked or translated
# with the contexts of card words (i18n/cards.py).
_RANK_WORDS = re.compile(
    r"[\"']Jack[\"']\s*,|[\"']Queen[\"']\s*,"
    r"|N?P_\(\s*[\"'](rank|suit|value|card|a rank)[\"']"
    r"|pgettext\(\s*[\"'](rank|suit|value|card|a rank)[\"']"
)
_WORDS_HOME = "src/spite_malice/i18n/"


def test_every_mirror_is_where_it_says_and_is_pinned() -> None:
    for mirror in MIRRORS:
        text = (ROOT / mirror.path).read_text(encoding="utf-8")
        assert mirror.name in text, f"{mirror.path} no longer holds {mirror.name!r}"
        if mirror.pinned_by:
            path, _, test = mirror.pinned_by.partition("::")
            tests = (ROOT / path).read_text(encoding="utf-8")
            assert not test or f"def {test}(" in tests, f"{mirror.pinned_by} is gone"


def _files_stating(words: re.Pattern[str], skipped: tuple[str, ...]) -> set[str]:
    """The source files with a line of code (not a comment, nor a line starting with one
    of ``skipped``: a docstring's or a doc comment's) that ``words`` finds."""
    found = set()
    for pattern in _SOURCES:
        for path in ROOT.glob(pattern):
            for line in path.read_text(encoding="utf-8").splitlines():
                code = line.split("#")[0] if path.suffix == ".py" else line.split("//")[0]
                if words.search(code) and not code.strip().startswith(skipped):
                    found.add(path.relative_to(ROOT).as_posix())
    return found


def test_no_unlisted_mirrors() -> None:
    listed = {mirror.path for mirror in MIRRORS} | _HOME
    unlisted = sorted(_files_stating(_RULE_WORDS, ('"', "'")) - listed)
    assert not unlisted, f"stack rules stated outside engine/stacks.py: {unlisted}"


def test_no_unlisted_rank_words() -> None:
    """Rank and card words are i18n/cards.py's: no other module of ours nor any script of
    the page writes a table of them or marks one (the page gets them with its catalog)."""
    listed = {mirror.path for mirror in MIRRORS}
    found = _files_stating(_RANK_WORDS, ("/**", "*"))
    unlisted = sorted(path for path in found - listed if not path.startswith(_WORDS_HOME))
    assert not unlisted, f"rank words written outside i18n/cards.py: {unlisted}"


def test_the_rank_word_finder_sees_a_table_of_rank_words() -> None:
    for line in (
        'const WORDS = { J: NP_("rank", "Jack"), Q: NP_("rank", "Queen") };',
        'NAMES = ("Ace", "2", "10", "Jack", "Queen", "King")',
        'return pgettext("value", A_VALUE[value]);',
    ):
        assert _RANK_WORDS.search(line), line
    assert not _RANK_WORDS.search("A King on a 10 is a Jack.")
