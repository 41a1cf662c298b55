"""Breaking a blockade: when a game counts as stalled, and how Hard plays it then.

Against a player who keeps its cards and never builds a center stack up to Hard's pay-off
card, Hard's evaluation blocks back: both players discard a card a turn, the stock drains
into the side stacks, and the game ends drawn when a draw finds the stock empty (R4.2),
which scores nothing for either player (R4.1). Only a completed center stack sends cards
back to the stock (R3.4(b)). A :class:`Blockade` says when a position counts as stalled
(turns in a row without a pay-off card played, the stock running low) and how Hard plays
it: with other weights for its evaluation, or by looking further, playing the evaluation's
best few plans out in sampled games (Expert's search, :mod:`.expert`: the rest of the turn,
the opponent's reply and our next turn, scored by the chance of winning), so that a line
that wins the race is found where the evaluation alone waits.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..engine.moves import Move
from ..engine.observation import Observation
from .evaluation import Weights
from .expert import EXPERT_SETTINGS, ExpertBot
from .view import Ranks, TurnView

SEARCH_BUDGET = 1.0
"""Seconds a turn the search of a stalled position may take, at most (Expert's budget)."""


@dataclass(frozen=True, slots=True)
class Blockade:
    """A stalled position, and how to play it."""

    quiet_turns: int
    """At least this many turns in a row without a pay-off card played
    (:attr:`~.view.TurnView.quiet_turns`)..."""
    stock_below: int
    """...and fewer than this many cards left in the stock (54 or more: from the deal on)."""
    weights: Weights | None = None
    """The evaluation's weights in a stalled position (``None``: the level's own)."""
    samples: int = 0
    """With more than 0: search the evaluation's best plans in this many sampled games, as
    Expert does (:class:`~.expert.ExpertBot`, within :attr:`budget`)."""
    candidates: int = EXPERT_SETTINGS.candidates
    """How many of the evaluation's best plans the search compares (as Expert)..."""
    discards: int = EXPERT_SETTINGS.discards
    """...and how many other discards of each of the two best (as Expert)."""
    budget: float = SEARCH_BUDGET
    """Seconds a turn the search may take, at most."""
    contempt: float = 0.0
    """The search's contempt for a draw (:class:`~.leaf.LeafEvaluation`): 0, a draw is
    half a win; a half, nothing, as in the match score (R4.1, R4.2)."""

    def applies(self, view: TurnView) -> bool:
        """Whether the position of ``view`` counts as stalled."""
        return view.quiet_turns >= self.quiet_turns and view.stock_count < self.stock_below


class BlockadeSearch:
    """The look-ahead of a :class:`Blockade` with ``samples``: Expert's search over the
    evaluation's best plans, with ``weights`` (the level's evaluation) ranking them and
    playing both sides' turns in the sampled games."""

    def __init__(self, seed: int | None, blockade: Blockade, weights: Weights) -> None:
        if blockade.samples < 1:
            raise ValueError(f"a blockade search needs samples, not {blockade.samples!r}")
        settings = replace(
            EXPERT_SETTINGS,
            own_weights=weights,
            opponent_weights=weights,
            contempt=blockade.contempt,
            candidates=blockade.candidates,
            discards=blockade.discards,
        )
        self.searcher = ExpertBot(
            seed, blockade.budget, max_samples=blockade.samples, settings=settings
        )

    def new_game(self, seat: int) -> None:
        self.searcher.new_game(seat)

    def plan(self, observation: Observation, refused: Ranks) -> list[Move]:
        """The moves to play now; ``refused`` as :attr:`~.view.TurnView.refused`."""
        self.searcher.refused = refused
        return self.searcher.plan(observation)


__all__ = ["SEARCH_BUDGET", "Blockade", "BlockadeSearch"]
