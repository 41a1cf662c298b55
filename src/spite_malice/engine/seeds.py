"""The one rule for seeds (R1.1): a seed is a whole number from 0 to 2**63 - 1.

Every place that takes a seed, in the engine (``Game.new``, ``Game.from_position``, game
records) and above it (matches, tables, the web and terminal front ends), checks it with
:func:`check_seed`, so that a seed accepted in one place is accepted in all of them, is
stored as a plain ``int``, and fits a database's signed 64-bit column.
"""

from __future__ import annotations

import operator
from typing import SupportsIndex, cast

from .errors import SeedError, quote

SEED_LIMIT = 2**63
"""Seeds run from 0 to ``SEED_LIMIT - 1``: the range of ``secrets.randbits(63)``."""


def is_seed(seed: object) -> bool:
    """Whether ``seed`` is a valid seed (see :func:`check_seed`)."""
    try:
        check_seed(seed)
    except SeedError:
        return False
    return True


def check_seed(seed: object, what: str = "seed") -> int:
    """``seed`` as a plain ``int`` if it is a whole number from 0 to 2**63 - 1; otherwise a
    :class:`~.errors.SeedError` that names ``what`` and quotes the value.

    ``True``/``False``, floats (even ``1.0``), NaN, strings and lists are refused: a record
    holds the seed as a JSON whole number, and ``random.Random`` would quietly accept most
    of them (a string seeds it one way, a float another). Integer types other than ``int``
    (NumPy's, for example) are accepted and converted.
    """
    if isinstance(seed, bool):
        raise SeedError(f"{what} must be a whole number from 0 to 2**63 - 1, not {seed!r}")
    try:
        value = seed if type(seed) is int else operator.index(cast("SupportsIndex", seed))
    except TypeError:
        value = -1
    if not 0 <= value < SEED_LIMIT:
        raise SeedError(f"{what} must be a whole number from 0 to 2**63 - 1, not {quote(seed)}")
    return int(value)


__all__ = ["SEED_LIMIT", "check_seed", "is_seed"]
