"""The computer's moves and hints, with the one fallback for a bot that fails.

A bot may raise anything or answer with a move that is not legal; either way the reference
policy plays that move instead, so a game never stalls. This is the only place that
fallback is written.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from ..bot_registry import make_bot
from ..bots import Bot, ReferenceBot, hint
from ..engine.moves import Move
from ..engine.observation import Observation
from ..i18n import _

log = logging.getLogger(__name__)


def new_computer(level: str, seed: int | None) -> Bot:
    """The computer player of ``level`` (see :func:`.levels.is_level`)."""
    return make_bot(level, seed)


def choose(bot: Bot, observation: Observation) -> Move:
    """The bot's move; if it fails or answers with an illegal move, the reference move."""
    try:
        move = bot.choose(observation)
    except Exception:  # a bot's failure of any kind must not stall the game
        log.exception("bot %s failed; playing the reference move", bot.name)
        return ReferenceBot(0).choose(observation)
    if isinstance(move, Move) and move in observation.legal_moves:
        return move
    log.warning("bot %s chose an illegal move %r; playing the reference move", bot.name, move)
    return ReferenceBot(0).choose(observation)


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A hint: the rest of the turn (the first move is the one to make now) and why."""

    moves: tuple[Move, ...]
    reason: str


def suggest(observation: Observation, seed: int = 0) -> Suggestion:
    """A hint for the seat of ``observation`` (it must be its turn): the bots' hint, or the
    reference move with a plain reason when the hint fails."""
    try:
        found = hint(observation, seed)
    except Exception:  # a failing hint must not cost the player a hint
        log.exception("the hint failed; suggesting the reference move")
    else:
        if found.moves and found.moves[0] in observation.legal_moves:
            return Suggestion(tuple(found.moves), found.reason)
    move = ReferenceBot(seed).choose(observation)
    return Suggestion((move,), _reference_reason(move))


def _reference_reason(move: Move) -> str:
    if move.is_discard:
        return _("no build helps now: discard and end the turn")
    if move.is_from_payoff:
        return _("build your pay-off card: emptying that pile wins")
    if move.is_from_side:
        return _("a side stack card builds: it frees the card below")
    return _("a hand card builds now")
