"""The common part of the bots that plan whole turns: keep the plan, hand it out move by move.

A plan's committed moves (see :class:`~.planning.Plan`) use only cards already seen, so the
bot plays them one per call without planning again; once new cards appear (a pay-off card
turned up, a refilled hand) or the position is not the one expected, it plans afresh.
"""

from __future__ import annotations

from abc import abstractmethod

from ..engine.moves import Move
from ..engine.observation import Observation
from .base import Bot
from .reference import ReferenceBot
from .view import Ranks


class TurnPlanningBot(Bot):
    """A bot that plans its turn with :meth:`plan` and plays the plan's committed moves."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._queue: list[Move] = []
        self._expected_history = -1
        self._refusal_turn = -1
        self.refused: Ranks = ()
        """The center values at the start of this turn, when the opponent played the turn
        before (see :attr:`~.view.TurnView.refused`); empty on the game's first turn."""

    def new_game(self, seat: int) -> None:
        self._queue = []
        self._expected_history = -1
        self._refusal_turn = -1
        self.refused = ()

    @property
    def queued(self) -> tuple[Move, ...]:
        """The moves of the current plan still to be played after the last one chosen."""
        return tuple(self._queue)

    @abstractmethod
    def plan(self, observation: Observation) -> list[Move]:
        """The moves to play now, from this position (at least one, all legal in turn)."""

    def choose(self, observation: Observation) -> Move:
        if observation.turn != self._refusal_turn:
            self._refusal_turn = observation.turn
            # the opponent moved last (turns alternate, R2): what it left, it could not use
            self.refused = (
                tuple(len(stack) for stack in observation.center) if observation.history else ()
            )
        legal = observation.legal_moves
        history = len(observation.history)
        if self._queue and history == self._expected_history and self._queue[0] in legal:
            move = self._queue.pop(0)
        else:
            self._queue = list(self.plan(observation))
            move = self._queue.pop(0) if self._queue else legal[0]
            if move not in legal:  # a planner bug must never become an illegal move
                self._queue = []
                move = ReferenceBot().choose(observation)
        self._expected_history = history + 1
        return move
