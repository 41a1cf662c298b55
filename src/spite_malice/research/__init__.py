"""Adapters for game-AI research: OpenSpiel, PettingZoo and Gymnasium.

Each adapter lives in its own module and imports its library only there, behind the extras
``[openspiel]``, ``[pettingzoo]`` and ``[gym]``; the engine itself stays dependency-free.
:mod:`.actions` (the action mapping) and :mod:`.encoding` (observation tensors) are shared.
"""

from __future__ import annotations
