"""The computer opponents and hints the terminal game offers, whatever the bots package has.

The levels come from ``spite_malice.bots.LEVELS`` when the bots package defines it, else
from the registered bot names; hints come from ``spite_malice.bots.hint`` when it exists,
else from the reference first-fit policy, so the game works at every stage of the bots.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import bots
from ..bots import Bot, ReferenceBot, bot_names, make_bot
from ..engine.moves import Move
from ..engine.observation import Observation

PREFERRED_LEVELS = ("easy", "medium", "hard", "expert")
DEFAULT_LEVEL = "medium"


def available_levels() -> list[str]:
    """The level names a player may choose, easiest first."""
    levels: Any = getattr(bots, "LEVELS", None)
    if levels:
        names = [str(name) for name in (levels.keys() if isinstance(levels, dict) else levels)]
        if names:
            return names
    known = bot_names()
    names = [name for name in PREFERRED_LEVELS if name in known]
    return names or ["reference"]


def default_level() -> str:
    levels = available_levels()
    return DEFAULT_LEVEL if DEFAULT_LEVEL in levels else levels[0]


def level_title(level: str) -> str:
    """How a level is named on screen: ``Hard``."""
    return level.replace("_", " ").replace("-", " ").title()


def new_bot(level: str, seed: int | None) -> Bot:
    """The computer player of ``level``."""
    return make_bot(level, seed)


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A hint: the moves suggested, in order (the first is the one to make now), and why."""

    moves: tuple[Move, ...]
    reason: str


def suggest(observation: Observation, seed: int = 0) -> Suggestion:
    """A hint for the seat of ``observation`` (its turn), from the bots' hint when present."""
    hint_function: Any = getattr(bots, "hint", None)
    if hint_function is not None:
        try:
            result = hint_function(observation, seed=seed)
        except Exception:  # a failing hint must not cost the player a hint
            result = None
        moves = tuple(m for m in getattr(result, "moves", ()) if isinstance(m, Move))
        reason = str(getattr(result, "reason", ""))
        if moves and moves[0] in observation.legal_moves:
            return Suggestion(moves, reason)
    move = ReferenceBot(seed).choose(observation)
    return Suggestion((move,), _reference_reason(move))


def _reference_reason(move: Move) -> str:
    if move.is_discard:
        return "no build helps now: discard and end the turn"
    if move.from_payoff:
        return "build your pay-off card: emptying that pile wins"
    if move.from_side:
        return "a side stack card builds: it frees the card below"
    return "a hand card builds now"
