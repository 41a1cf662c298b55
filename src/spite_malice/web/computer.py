"""The computer players the server offers, and hints, whatever stage the bots package is at.

Levels come from ``spite_malice.bots.LEVELS`` when it exists, else from the registered bot
names (``easy`` .. ``expert`` when registered, else ``reference``). Hints come from
``spite_malice.bots.hint`` when it exists. A bot that fails is replaced, for that move, by the
reference policy, so a game never stalls.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from .. import bots
from ..bots import Bot, ReferenceBot, bot_names, make_bot
from ..engine.moves import Move, parse_move
from ..engine.observation import Observation

log = logging.getLogger(__name__)

PREFERRED = ("easy", "medium", "hard", "expert")
DEFAULT_LEVEL = "medium"
EXPERT_BUDGET = 1.0
"""Seconds of thinking per move for the Expert level in the server, when it takes a budget."""


def levels() -> list[str]:
    """The level ids the server can play now, easiest first."""
    declared: Any = getattr(bots, "LEVELS", None)
    if declared:
        names = [str(name) for name in declared]
        if names:
            return names
    known = bot_names()
    return [name for name in PREFERRED if name in known] or ["reference"]


def is_level(level: str) -> bool:
    """Whether the server can play ``level``: an offered level or any registered bot name
    (``reference`` stays playable for benchmarks and tests even when not offered)."""
    return level in levels() or level in bot_names()


def default_level() -> str:
    available = levels()
    return DEFAULT_LEVEL if DEFAULT_LEVEL in available else available[0]


def level_name(level: str) -> str:
    """The level's name on screen: ``Hard``."""
    return level.replace("_", " ").replace("-", " ").title()


def new_computer(level: str, seed: int | None) -> Bot:
    """The computer player of ``level`` (``level`` must be one of :func:`levels`)."""
    if level == "expert":
        expert: Any = getattr(bots, "ExpertBot", None)
        if expert is not None:
            try:
                bot: Bot = expert(seed=seed, budget=EXPERT_BUDGET)
                return bot
            except TypeError:
                pass
    return make_bot(level, seed)


def choose(bot: Bot, observation: Observation) -> Move:
    """The bot's move; if it raises or answers with an illegal move, the reference move."""
    try:
        move = bot.choose(observation)
        if isinstance(move, str):
            move = parse_move(move)
        if move in observation.legal_moves:
            return move
        log.warning("bot %s chose an illegal move %s; playing the reference move", bot.name, move)
    except Exception:
        log.exception("bot %s failed; playing the reference move", bot.name)
    return ReferenceBot(0).choose(observation)


@dataclass(frozen=True, slots=True)
class Suggestion:
    moves: tuple[str, ...]
    reason: str


def suggest(observation: Observation, seed: int) -> Suggestion:
    """A hint for the observation's seat (its turn): the bots' hint, checked for legality."""
    function: Any = getattr(bots, "hint", None)
    legal = observation.legal_moves
    if function is not None:
        try:
            result = function(observation, seed)
            moves = tuple(str(move) for move in getattr(result, "moves", ()))
            reason = str(getattr(result, "reason", ""))
            if moves and parse_move(moves[0]) in legal:
                return Suggestion(moves, reason)
        except Exception:
            log.exception("the hint function failed; suggesting the reference move")
    move = ReferenceBot(seed).choose(observation)
    return Suggestion((str(move),), "the simplest useful move (the reference policy)")
