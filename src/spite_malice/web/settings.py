"""A player's settings (``web-protocol.md`` 2.3): rules options, level, animation speed,
language (None: the browser's)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictStr
from pydantic_core import PydanticCustomError

from ..engine.errors import SpiteMaliceError
from ..engine.rules import Rules
from ..i18n import LANGUAGES, _
from ..names import name_problem
from ..table import default_level, is_level
from .rooms import RoomError, make_rules, unknown_level
from .validation import NAME_ERROR

AnimationSpeed = Literal["off", "fast", "normal", "slow"]
ANIMATION_SPEEDS: tuple[AnimationSpeed, ...] = ("off", "fast", "normal", "slow")


def _checked_name(name: str) -> str:
    problem = name_problem(name)
    if problem is not None:
        # validation.describe turns it into the sentence for the problem
        raise PydanticCustomError(NAME_ERROR, "not a usable name: {problem}", {"problem": problem})
    return name


PlayerId = Annotated[StrictStr, Field(min_length=1, max_length=128), AfterValidator(_checked_name)]
"""A name a player gives (a seat's, the player's own): checked by ``names.name_problem``."""


class SettingsUpdate(BaseModel):
    """The body of ``PUT /api/settings``; every field but ``player`` may be left out."""

    model_config = ConfigDict(extra="forbid")

    player: PlayerId | None = None
    rules: dict[str, Any] | None = None
    preset: Annotated[StrictStr, Field(max_length=64)] | None = None
    level: Annotated[StrictStr, Field(max_length=64)] | None = None
    animation_speed: AnimationSpeed | None = None
    language: Annotated[StrictStr, Field(max_length=16)] | None = None
    """One of :data:`~spite_malice.i18n.LANGUAGES`, or "" to follow the browser again."""


def defaults(player: str) -> dict[str, Any]:
    return {
        "player": player,
        "rules": Rules.STANDARD.as_dict(),
        "preset": None,
        "level": default_level(),
        "animation_speed": "normal",
        "language": None,
    }


def effective(player: str, stored: dict[str, Any] | None) -> dict[str, Any]:
    """The stored settings completed by the defaults (a stored level no longer offered falls
    back to the default level)."""
    settings = defaults(player)
    if stored:
        settings.update({k: v for k, v in stored.items() if k in settings and k != "player"})
    try:
        settings["rules"] = Rules.from_json(settings["rules"]).as_dict()
    except SpiteMaliceError:  # stored rules this version no longer reads
        settings["rules"] = Rules.STANDARD.as_dict()
    if not is_level(str(settings["level"])):
        settings["level"] = default_level()
    if settings["animation_speed"] not in ANIMATION_SPEEDS:
        settings["animation_speed"] = "normal"
    if settings["language"] not in LANGUAGES:
        settings["language"] = None
    return settings


def updated(current: dict[str, Any], update: SettingsUpdate) -> dict[str, Any]:
    """``current`` with ``update`` applied; RoomError("invalid") when a value is refused."""
    result = dict(current)
    if update.preset is not None:
        result["rules"] = make_rules(update.rules, update.preset).as_dict()
        result["preset"] = update.preset
    elif update.rules is not None:
        result["rules"] = make_rules(update.rules, None).as_dict()
        result["preset"] = None
    if update.level is not None:
        if not is_level(update.level):
            raise RoomError("invalid", unknown_level(update.level))
        result["level"] = update.level
    if update.animation_speed is not None:
        result["animation_speed"] = update.animation_speed
    if update.language is not None:
        if update.language and update.language not in LANGUAGES:
            known = ", ".join(LANGUAGES)
            message = _("There is no such language. The languages are: {names}.", names=known)
            raise RoomError("invalid", message)
        result["language"] = update.language or None
    return result
