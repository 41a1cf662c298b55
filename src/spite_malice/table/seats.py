"""The two seats of a table (kept in :mod:`spite_malice.match_records.seats`, below the
table layer and the store, which both use them)."""

from __future__ import annotations

from ..match_records.seats import COMPUTER, FRIEND, KINDS, PERSON, Seat

__all__ = ["COMPUTER", "FRIEND", "KINDS", "PERSON", "Seat"]
