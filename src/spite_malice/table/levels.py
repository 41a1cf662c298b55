"""The computer's levels: one list, one check and one way to name them on screen.

The list and the labels are data below the bots and this layer (:mod:`spite_malice.levels`);
whether a level can be played asks the bots' registry (:mod:`spite_malice.bot_registry`)."""

from __future__ import annotations

from ..bot_registry import bot_names
from ..i18n import NP_, pgettext
from ..levels import DEFAULT_LEVEL, LEVELS
from ..levels import level_label as _data_label


def levels() -> list[str]:
    """The levels a player may choose, easiest first."""
    return list(LEVELS)


def is_level(level: str) -> bool:
    """Whether the computer can play ``level``: an offered level or any registered bot
    (``reference`` stays playable for benchmarks and tests even though it is not offered)."""
    return level in LEVELS or level in bot_names()


def default_level() -> str:
    return DEFAULT_LEVEL if DEFAULT_LEVEL in LEVELS else LEVELS[0]


def level_label(level: str) -> str:
    """How a level is named on screen: ``Hard``, ``Expert 0.25s``, ``Reference``."""
    label = _data_label(level)
    return label if label != level else level.replace("_", " ").replace("-", " ").title()


LEVEL_NAMES = {
    "easy": NP_("level", "Easy"),
    "medium": NP_("level", "Medium"),
    "hard": NP_("level", "Hard"),
    "expert": NP_("level", "Expert"),
}
"""The offered levels' names, marked for the catalogs (context "level")."""


def level_name(level: str) -> str:
    """A level's name in the current language (an offered level), else :func:`level_label`."""
    known = LEVEL_NAMES.get(level)
    return pgettext("level", known) if known is not None else level_label(level)
