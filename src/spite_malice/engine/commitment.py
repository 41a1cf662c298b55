"""Deals anyone can verify: the commitment to a game's seed (docs/verifying.md).

At the deal the server publishes ``commitment(seed, salt)``, the SHA-256 of the seed and a
secret salt, and keeps both; at the end of the game it reveals them. Anyone can then check
that the revealed seed is the one committed to before the first move (:func:`matches`) and
deal the game again from it (:meth:`~.game.Game.new`: the deck shuffled, the stock drawn and
reshuffled by ``random.Random(seed)``, docs/verifying.md says exactly how), so that no deal
and no draw could have been chosen while the game was played.
"""

from __future__ import annotations

import hashlib
import re

SALT_PATTERN = re.compile(r"^[0-9a-f]{32}$")
"""A salt: 16 bytes, written as 32 lowercase hexadecimal digits."""
COMMITMENT_PATTERN = re.compile(r"^[0-9a-f]{64}$")
"""A commitment: a SHA-256 digest, written as 64 lowercase hexadecimal digits."""


def commitment(seed: int, salt: str) -> str:
    """The SHA-256 (lowercase hexadecimal) of the text ``"<seed>:<salt>"``: the seed in
    decimal digits, a colon, the salt's 32 hexadecimal digits, encoded as ASCII."""
    return hashlib.sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()


def matches(seed: int, salt: str, committed: str) -> bool:
    """Whether ``seed`` and ``salt`` are the ones ``committed`` was made of."""
    if not SALT_PATTERN.match(salt) or not COMMITMENT_PATTERN.match(committed):
        return False
    return commitment(seed, salt) == committed


__all__ = ["COMMITMENT_PATTERN", "SALT_PATTERN", "commitment", "matches"]
