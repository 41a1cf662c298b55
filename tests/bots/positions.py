"""Positions for bot tests, set up from the notation: the stock takes every card not placed."""

from __future__ import annotations

from positions import position

__all__ = ["position"]
