"""Easy: plays its pay-off card when it can, otherwise simple greedy play with some randomness.

It looks at one move at a time and never plans a turn, so it misses the builds that would
bridge a center stack up to its pay-off card; that is what makes it easy.
"""

from __future__ import annotations

from ..engine.cards import KING
from ..engine.moves import Move
from ..engine.observation import Observation
from .base import Bot

BUILD_CHANCE = 0.7
"""How often Easy makes a build it sees rather than ending its turn with a discard."""


class EasyBot(Bot):
    """The easiest level: pay-off first, then random builds and discards."""

    name = "Easy"

    def choose(self, observation: Observation) -> Move:
        legal = observation.legal_moves
        for move in legal:
            if move.is_from_payoff:  # R3.1: the pay-off top fits, so play it
                return move
        builds = [m for m in legal if m.is_build and m.hand_rank != KING]
        if builds and self.rng.random() < BUILD_CHANCE:
            return self.rng.choice(builds)
        discards = [m for m in legal if m.is_discard and m.hand_rank != KING]
        if not discards:  # a hand of Kings only: a King must go (R3.3)
            discards = [m for m in legal if m.is_discard]
        if not discards:  # cannot happen at a decision point (the hand is never empty)
            return legal[0]
        return self.rng.choice(discards)
