"""Easy: plays its pay-off card when it can, otherwise one random build at a time.

It looks at one move at a time and never plans a turn, so it misses the builds that would
bridge a center stack up to its pay-off card, spends its Kings on whatever stack it happens
to pick and discards at random; that is what makes it easy. It does keep the game moving:
it builds most of what it sees, side-stack cards first, so that its cards go back to the
center stacks and games end (R4.2 makes a game whose cards stay on the side stacks a draw).
"""

from __future__ import annotations

import random

from ..engine.cards import KING
from ..engine.moves import Move
from ..engine.observation import Observation
from .base import Bot

BUILD_CHANCE = 0.8
"""How often Easy makes a build it sees rather than ending its turn with a discard.

Measured (docs/measurements/2026-12-05-draw-rates.md, "an Easy whose games end"): at 0.7
with Kings kept in the hand, as Easy played before, Easy against Easy drew four games in
five; at 0.8 with Kings played as any other card, a few in a hundred, and Medium still wins
more than 80% of the decided games against it."""


class EasyBot(Bot):
    """The easiest level: pay-off first, then random builds (side stacks first) and random
    discards."""

    name = "Easy"

    def _draws(self, observation: Observation) -> random.Random:
        """The generator of this decision: with a seed, one that depends only on the seed
        and the point of the game, so that Easy plays the same moves from its seed whether
        the game was played in one go or resumed from storage with a fresh bot (an offline
        match's record is checked so, docs/offline.md); without one, the bot's own."""
        if self.seed is None:
            return self.rng
        return random.Random(f"easy/{self.seed}/{len(observation.history)}")

    def choose(self, observation: Observation) -> Move:
        legal = observation.legal_moves
        for move in legal:
            if move.is_from_payoff:  # R3.1: the pay-off top fits, so play it
                return move
        # made only once a draw is needed (seeding one costs more than the rest of the
        # decision); the draws are the same whenever it is made
        rng = self._draws(observation)
        builds = [m for m in legal if m.is_build]
        if builds and rng.random() < BUILD_CHANCE:
            from_side = [m for m in builds if m.is_from_side]
            return rng.choice(from_side or builds)
        discards = [m for m in legal if m.is_discard and m.hand_rank != KING]
        if not discards:  # a hand of Kings only: a King must go (R3.3)
            discards = [m for m in legal if m.is_discard]
        if not discards:  # cannot happen at a decision point (the hand is never empty)
            return legal[0]
        return rng.choice(discards)
