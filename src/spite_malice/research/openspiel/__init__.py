"""An OpenSpiel game: importing this module registers ``python_spite_and_malice``.

::

    import pyspiel
    import spite_malice.research.openspiel  # registers the game
    game = pyspiel.load_game("python_spite_and_malice", {"payoff_size": 10})

Actions: a player's action is a move index 0..143 (:mod:`..actions`). A chance outcome is a
card: 0..51 a card nobody has seen yet, of that face (``suit * 13 + rank - 1``; ``'7H'`` is
19), and 52..103 a card of that face seen before: one coming back from a completed center
stack, or a pay-off top that tied at the deal (R1.4) and was reshuffled into its pile.

Chance is explicit (``EXPLICIT_STOCHASTIC``) and is the engine's: the state's engine game is
made by :meth:`Game.undealt <spite_malice.engine.Game.undealt>`, so it waits for every chance
event (:mod:`spite_malice.engine.chance`) and this module only chooses the outcomes. Hidden
cards are not fixed in advance: a chance node picks each card as it comes into view (the
deal, R1.2: 5 cards to each hand, then the two pay-off tops; after a tie of the tops, R1.4,
the two new tops, each pile reshuffled within itself as the engine does; every card drawn
into a hand, R2.1 and R3.4(c); every pay-off card turned up, R3.4(a)), with the probability
it has under a uniform shuffle. The cards nobody has seen (the face-down pay-off cards and
the stock's cards from the deal) are interchangeable, so a pay-off card turned up is any of
them with equal chance (or a tied top known to be in that pile), and a card drawn from the
stock is one of them or one of the recycled cards of completed stacks (R3.4(b)), which can
be in the stock but never in a pay-off pile, in proportion to how many of each the stock
holds. The stock's shuffles need no chance nodes: its order never matters.

Information (R6): ``observation_string`` / ``observation_tensor`` show only what the seat
may see (the tensor of :mod:`..encoding`); ``information_state_string`` adds what the seat
saw happen (every move, every face-up card turned, its own draws, the opponent's draw counts).
There is no ``information_state_tensor``: a tensor of fixed size cannot hold a perfect-recall
history of hundreds of moves (docs/research.md says what to use instead).

Returns: +1 to the winner and -1 to the loser, 0 each in a draw; with the parameter
``reward="points"``, plus and minus the points of R4.1 instead. ``state.points()`` gives the
points either way, and ``state.outcome`` the engine's outcome.

Search: ``state.resample_from_infostate(player, sampler)`` deals the opponent's hand afresh
from the cards ``player`` cannot see, which is what OpenSpiel's Python ISMCTS bot needs;
:func:`make_ismcts_bot` sets one up.

The package: the game and its states (:mod:`.game`), the bookkeeping of unseen cards they
keep (:mod:`.chance`), and a search bot with its evaluator (:mod:`.search`).
"""

from __future__ import annotations

from .game import (
    GAME_NAME,
    MAX_GAME_LENGTH,
    SpiteMaliceGame,
    SpiteMaliceObserver,
    SpiteMaliceState,
)
from .search import FirstFitRolloutEvaluator, make_ismcts_bot, sample_outcome

__all__ = [
    "GAME_NAME",
    "MAX_GAME_LENGTH",
    "FirstFitRolloutEvaluator",
    "SpiteMaliceGame",
    "SpiteMaliceObserver",
    "SpiteMaliceState",
    "make_ismcts_bot",
    "sample_outcome",
]
