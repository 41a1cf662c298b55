"""The computer's levels as data: their ids, weakest first, and how a bot's name is labelled.

This module imports nothing of ours, so that everything that names a level (the bots that
play them, the table layer and the screens that offer them, the arena's reports) reads the
one list here and none reaches into another layer for a word. The bots that play each level
are registered by name in :mod:`spite_malice.bot_registry`; the levels' names in the
player's language are :func:`spite_malice.table.level_name`.
"""

from __future__ import annotations

from pathlib import PurePath

LEVELS = ("easy", "medium", "hard", "expert")
"""The levels players choose from, weakest first."""

DEFAULT_LEVEL = "medium"
"""The level a new match is played at when the player chose none."""


def split_leaf(option: str) -> tuple[str, str | None]:
    """``option`` without a trailing ``:leaf=FILE``, and FILE (``None`` when it names none)."""
    head, colon, last = option.rpartition(":")
    if not colon or not last.startswith("leaf="):
        return option, None
    return head, last.removeprefix("leaf=")


def level_label(name: str) -> str:
    """How a level's name is shown: ``Hard``, or ``Expert 0.25s`` for ``expert:0.25``, or
    ``Expert 600s 24 samples (leaf.json)``; any other name (a program's path) as it is."""
    base, colon, option = name.partition(":")
    if base.lower() not in LEVELS:
        return name
    if not colon:
        return base.capitalize()
    option, leaf = split_leaf(option)
    seconds, _, samples = option.partition(":")
    label = f"{base.capitalize()} {seconds}s" + (f" {samples} samples" if samples else "")
    return label + (f" ({PurePath(leaf).name})" if leaf else "")
