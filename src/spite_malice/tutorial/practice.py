"""The short game against Easy that ends the tutorial.

It is dealt from a known seed, so it is a practice game: the rest of the code keeps games
dealt from a chosen seed out of the ordinary statistics (they count under practice).
"""

from __future__ import annotations

from ..engine.rules import Rules

PRACTICE_SEED = 14_2026
"""The seed of the practice game's deals: the same first game for every new player."""
PRACTICE_LEVEL = "easy"
PRACTICE_RULES = Rules.QUICK
"""Ten-card pay-off piles (R1.2 option): a short game."""
PRACTICE_PRESET = "quick"
"""The name of :data:`PRACTICE_RULES` among the presets, for front ends that send one."""
