"""The one check of a name a player gives: the browser's player and seat names, the
terminal's ``--name``.

A name is shown to the other player, stored in the database and written into game records,
so it must be text that anyone can see: no control characters (Unicode category Cc, such as
NUL, which PostgreSQL cannot store), no format characters (Cf: the bidirectional overrides
that turn the rest of a line around, zero-width spaces; the zero-width joiner and non-joiner
only between two visible characters, where Persian words and joined emoji need them), no
lone surrogates (Cs,
which cannot be written as UTF-8), and at least one visible character. White space is
allowed between words; :func:`clean_name` folds each run of it into one space.
"""

from __future__ import annotations

import unicodedata

from .i18n import N_, _

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
"""Unicode categories a name may not hold: control, format and surrogate characters."""
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Characters Unicode counts as letters or symbols that show nothing (the Hangul fillers,
the blank Braille pattern): a name of these alone has no visible character."""

HIDDEN = N_(
    "The field {field} holds a character that cannot be shown, such as a control character "
    "or one that changes the direction of the text. Use letters, digits and punctuation."
)
"""Said with ``field`` (the field or option, quoted) of a name with a refused character."""
INVISIBLE = N_("The field {field} has no visible character. Write a name with letters or digits.")
"""Said with ``field`` of a name made only of white space and characters that show nothing."""

NAME_HIDDEN = N_(
    "The name holds a character that cannot be shown, such as a control character or one "
    "that changes the direction of the text. Use letters, digits and punctuation."
)
"""The same as :data:`HIDDEN` where the field is already named (the command line's option)."""
NAME_INVISIBLE = N_("The name has no visible character. Write a name with letters or digits.")
"""The same as :data:`INVISIBLE` where the field is already named."""

CONTROL = "control"
"""The problem of a name with a control, format or surrogate character."""
NOTHING_VISIBLE = "invisible"
"""The problem of a name without one visible character."""


def name_problem(name: str) -> str | None:
    """What is wrong with ``name``: :data:`CONTROL`, :data:`NOTHING_VISIBLE`, or None when it
    may be used (after :func:`clean_name`)."""
    visible = False
    for index, char in enumerate(name):
        category = unicodedata.category(char)
        if category in REFUSED_CATEGORIES and not _joins(name, index):
            return CONTROL
        if category[0] in "LNPS" and char not in BLANK_LETTERS:
            visible = True
    return None if visible else NOTHING_VISIBLE


JOINERS = frozenset("\u200c\u200d")
"""The zero-width non-joiner and joiner: format characters that a name needs between two
visible ones (Persian writes words with the non-joiner; a family or a profession emoji is
made of emoji joined by the joiner). Anywhere else they only hide."""


def _joins(name: str, index: int) -> bool:
    """Whether ``name[index]`` is a joiner between two characters that are not white space
    or format characters (a joiner at either end, doubled or beside a space is refused)."""
    if name[index] not in JOINERS or not 0 < index < len(name) - 1:
        return False
    return all(
        not neighbour.isspace() and unicodedata.category(neighbour) not in REFUSED_CATEGORIES
        for neighbour in (name[index - 1], name[index + 1])
    )


def describe_name_problem(problem: str, field: str | None = None) -> str:
    """The sentence for ``problem`` (from :func:`name_problem`) about ``field``, already
    quoted, in the current language; without ``field``, about "the name" (where the field
    is named already, as argparse names the option)."""
    if field is None:
        return _(NAME_HIDDEN if problem == CONTROL else NAME_INVISIBLE)
    return _(HIDDEN if problem == CONTROL else INVISIBLE, field=field)


def check_name(name: str, field: str | None = None) -> str | None:
    """The sentence that refuses ``name`` given as ``field`` (quoted), or None when it is a
    usable name."""
    problem = name_problem(name)
    return None if problem is None else describe_name_problem(problem, field)


def clean_name(name: str) -> str:
    """``name`` with its white space folded: no space before or after, one between words."""
    return " ".join(name.split())


__all__ = [
    "BLANK_LETTERS",
    "CONTROL",
    "HIDDEN",
    "INVISIBLE",
    "NAME_HIDDEN",
    "NAME_INVISIBLE",
    "NOTHING_VISIBLE",
    "REFUSED_CATEGORIES",
    "check_name",
    "clean_name",
    "describe_name_problem",
    "name_problem",
]
