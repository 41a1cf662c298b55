"""An OpenSpiel game: importing this module registers ``python_spite_and_malice``.

::

    import pyspiel
    import spite_malice.research.openspiel  # registers the game
    game = pyspiel.load_game("python_spite_and_malice", {"payoff_size": 10})

Actions: a player's action is a move index 0..143 (:mod:`.actions`). A chance outcome is a
card: 0..51 a card nobody has seen yet, of that face (``suit * 13 + rank - 1``; ``'7H'`` is
19), and 52..103 a card of that face coming back from a completed center stack.

Chance is explicit (``EXPLICIT_STOCHASTIC``). Hidden cards are not fixed in advance: a chance
node picks each card as it comes into view (the deal, R1.2: 5 cards to each hand, then the two
pay-off tops; every card drawn into a hand, R2.1 and R3.4(c); every pay-off card turned up,
R3.4(a)), with the probability it has under a uniform shuffle. The cards nobody has seen (the
face-down pay-off cards and the stock's cards from the deal) are interchangeable, so a pay-off
card turned up is any of them with equal chance, and a card drawn from the stock is one of
them or one of the recycled cards of completed stacks (R3.4(b)), which can be in the stock
but never in a pay-off pile, in proportion to how many of each the stock holds. Shuffles
need no chance nodes of their own. One deviation: when the two pay-off tops of the deal tie
(R1.4), both go back among the unseen cards and two new tops are turned up, where the engine
reshuffles each pay-off pile within itself; who starts follows the same rule, and the
difference in the odds of later cards is negligible.

Information (R6): ``observation_string`` / ``observation_tensor`` show only what the seat
may see (the tensor of :mod:`.encoding`); ``information_state_string`` adds what the seat
saw happen (every move, every face-up card turned, its own draws, the opponent's draw counts).

Returns: +1 to the winner and -1 to the loser, 0 each in a draw; with the parameter
``reward="points"``, plus and minus the points of R4.1 instead. ``state.points()`` gives the
points either way, and ``state.outcome`` the engine's outcome.

Search: ``state.resample_from_infostate(player, sampler)`` deals the opponent's hand afresh
from the cards ``player`` cannot see, which is what OpenSpiel's Python ISMCTS bot needs;
:func:`make_ismcts_bot` sets one up.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from itertools import compress
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt
import pyspiel

from ..bots.reference import reference_move
from ..engine.cards import FACES, QUEEN, RANK_OF, Card, card_str, full_deck
from ..engine.game import Game, Outcome, PlayerState
from ..engine.moves import ALL_MOVES, SIDE_SOURCE_BASE, SIDE_TARGET_BASE, TARGETS, Move
from ..engine.observation import Observation
from ..engine.rules import TURN_LIMIT, Rules
from .actions import NUM_ACTIONS, NUM_CARD_OUTCOMES
from .encoding import OBSERVATION_SIZE, SECTIONS, encode_observation, observation_string

GAME_NAME = "python_spite_and_malice"

_DEFAULTS: dict[str, Any] = {
    "decks": 2,
    "payoff_size": 20,
    "center_stacks": 3,
    "king_can_start_stack": True,
    "first": -1,
    "reward": "win",
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Spite and Malice (spite-malice engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)

# A slot waiting for a chance outcome: (kind, player, index) with kind "hand" (index into
# the hand list) or "payoff" (the pay-off top).
_Slot = tuple[str, int, int]

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_FACE_RANGE = range(FACES)
_RECYCLED_RANGE = range(FACES, 2 * FACES)

# The words of information states, made once: a move, a card drawn (as its owner and as the
# others see it) and a pay-off card turned up, for each seat.
_MOVE_WORDS = tuple(tuple(f"{who}:{move.notation}" for move in ALL_MOVES) for who in (0, 1))
_DRAW_WORDS = tuple(tuple(f"{who}+{card_str(face)}" for face in _FACE_RANGE) for who in (0, 1))
_HIDDEN_DRAW_WORDS = ("0+??", "1+??")
_TURN_UP_WORDS = tuple(tuple(f"{who}^{card_str(face)}" for face in _FACE_RANGE) for who in (0, 1))


def _weighted(
    outcomes: range, counts: list[int], scale: float, most: int
) -> Iterator[tuple[int, float]]:
    """``(outcomes[i], counts[i] * scale)`` for each count that is not 0, in order; no count
    is above ``most``."""
    chances = [count * scale for count in range(most + 1)]
    return zip(
        compress(outcomes, counts), map(chances.__getitem__, filter(None, counts)), strict=True
    )


class _ActionPiece(dict[bytes, tuple[int, ...]]):
    """The flagged actions of one piece of :meth:`Game.legal_move_flags`, by the piece's
    bytes, filled in as pieces turn up."""

    def __init__(self, start: int) -> None:
        super().__init__()
        self.start = start

    def __missing__(self, flags: bytes) -> tuple[int, ...]:
        actions = self[flags] = tuple(compress(range(self.start, self.start + len(flags)), flags))
        return actions


# The flags cut in three: pay-off and hand Ace-6, hand 7-King, side stacks. Whole flag strings
# seldom repeat (half of them are new in 200 games), but each piece's patterns are few: about
# 6,000, 2,000 and 300 over 1,000 first-fit games.
_CUT_1 = 7 * TARGETS
_CUT_2 = SIDE_SOURCE_BASE * TARGETS
_PIECE_1, _PIECE_2, _PIECE_3 = _ActionPiece(0), _ActionPiece(_CUT_1), _ActionPiece(_CUT_2)


def _flagged_actions(flags: bytes) -> list[int]:
    """The actions whose flag is set in ``flags`` (144 bytes), ascending."""
    return list(
        _PIECE_1[flags[:_CUT_1]] + _PIECE_2[flags[_CUT_1:_CUT_2]] + _PIECE_3[flags[_CUT_2:]]
    )


def _rules_of(params: dict[str, Any]) -> Rules:
    return Rules(
        decks=int(params["decks"]),
        payoff_size=int(params["payoff_size"]),
        center_stacks=int(params["center_stacks"]),
        king_can_start_stack=bool(params["king_can_start_stack"]),
    )


class _NoShuffle(random.Random):
    """The engine's generator inside an OpenSpiel state: no shuffle is needed, since chance
    nodes pick every card as it comes into view, whatever order the stock is in; it has no
    state to copy or to pickle."""

    def shuffle(self, x: Any) -> None:
        pass

    def __reduce__(self) -> tuple[type[_NoShuffle], tuple[()]]:
        return (_NoShuffle, ())


class _Flat(list[Any]):
    """A list of immutable things: OpenSpiel clones a Python state by deep-copying its
    attributes, and a shallow copy of this list is a deep one."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Flat:
        return _Flat(self)


class _EngineBox:
    """Holds a state's engine :class:`Game`, copied fast when OpenSpiel clones the state (by
    deep copy) and pickled compactly when it serializes one."""

    __slots__ = ("game",)

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _EngineBox:
        return _EngineBox(self.game.copy(rng=_NoShuffle(0)))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        game = self.game
        outcome = game.outcome
        return (
            _unbox,
            (
                tuple(sorted(game.rules.to_json().items())),
                game.stock[:],
                [stack[:] for stack in game.center],
                [(p.payoff[:], p.hand[:], [s[:] for s in p.side]) for p in game.players],
                game.to_move,
                game.turn,
                game.first,
                None if outcome is None else (outcome.winner, outcome.points, outcome.reason),
                [move.index for move in game.moves],
            ),
        )


def _unbox(
    rules: tuple[tuple[str, Any], ...],
    stock: list[Card],
    center: list[list[Card]],
    players: list[tuple[list[Card], list[Card], list[list[Card]]]],
    to_move: int,
    turn: int,
    first: int | None,
    outcome: tuple[int | None, int, str] | None,
    moves: list[int],
) -> _EngineBox:
    game = Game(
        Rules.from_json(dict(rules)),
        stock,
        center,
        [PlayerState(payoff, hand, side) for payoff, hand, side in players],
        to_move,
        rng=_NoShuffle(0),
        turn=turn,
        first=first,
        recording=False,
    )
    game.outcome = None if outcome is None else Outcome(*outcome)
    game.moves = [ALL_MOVES[index] for index in moves]
    return _EngineBox(game)


class SpiteMaliceGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """The game. Parameters: ``decks``, ``payoff_size``, ``center_stacks``,
    ``king_can_start_stack`` (the :class:`Rules` options), ``first`` (-1: R1.4 higher card;
    0 or 1: that player starts) and ``reward`` (``"win"`` or ``"points"``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        self.rules = _rules_of(merged)
        self.first = int(merged["first"])
        if self.first not in (-1, 0, 1):
            raise ValueError(f"first must be -1, 0 or 1, not {self.first}")
        self.reward_kind = str(merged["reward"])
        if self.reward_kind not in ("win", "points"):
            raise ValueError(f"reward must be 'win' or 'points', not {self.reward_kind!r}")
        top = 1.0 if self.reward_kind == "win" else float(self.rules.payoff_size)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=2 * NUM_CARD_OUTCOMES,
            num_players=2,
            min_utility=-top,
            max_utility=top,
            utility_sum=0.0,
            max_game_length=TURN_LIMIT * 2 * self.rules.deck_size,
        )
        super().__init__(_GAME_TYPE, info, merged)
        # Every state starts from this arrangement of the (all unseen) cards.
        self.deal = Game.new(0, self.rules, first=0, recording=False).copy(rng=_NoShuffle(0))

    def new_initial_state(self) -> SpiteMaliceState:
        return SpiteMaliceState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SpiteMaliceObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return SpiteMaliceObserver(perfect_recall)


class SpiteMaliceState(pyspiel.State):  # type: ignore[misc]
    """A state: the engine's :class:`Game`, the counts of the unseen cards, and the cards
    waiting for a chance outcome.

    Unseen cards come in two kinds. *Never seen* cards (``_fresh``) have been seen by nobody:
    the face-down pay-off cards and the part of the stock dealt at the start. *Recycled*
    cards (``_recycled``) are the cards of completed center stacks (R3.4(b)), which everyone
    saw go back into the stock; they can be drawn from the stock but are never in a pay-off
    pile. A stock draw picks a recycled card of face ``f`` with probability
    ``recycled[f] / N`` and a never-seen card of face ``f`` with probability
    ``(N - R) / N * fresh[f] / F`` (``N`` cards in the stock, ``R`` of them recycled, ``F``
    never-seen cards in all, by symmetry spread evenly over the stock and the pay-off piles);
    a pay-off card turned up is never seen, ``fresh[f] / F``. Chance outcomes 0..51 are a
    never-seen card of that face, 52..103 a recycled one; players see only the face.
    """

    def __init__(self, game: SpiteMaliceGame) -> None:
        super().__init__(game)
        self._forced_first = game.first
        self._points_reward = game.reward_kind == "points"
        self._box = _EngineBox(game.deal.copy(rng=_NoShuffle(0)))
        decks = game.rules.decks
        self._decks = decks  # no face has more unseen cards than this
        self._fresh = _Flat([decks] * FACES)
        self._fresh_total = decks * FACES
        self._recycled = _Flat([0] * FACES)
        self._recycled_total = 0
        self._pending: list[_Slot] = _Flat([("hand", 0, i) for i in range(5)])
        self._pending += [("hand", 1, i) for i in range(5)]
        self._pending += [("payoff", 0, 0), ("payoff", 1, 0)]
        self._draws_pending = 10  # the "hand" slots of _pending: cards still in the stock
        self._dealing = True
        self._hidden_stale = True  # the engine's hidden lists need rearranging (see engine)
        # What happened, for information states: (owner, text, text others see or None)
        self._log: list[tuple[int, str, str | None]] = _Flat()

    @property
    def engine(self) -> Game:
        """The engine's game behind this state. Its hidden cards (the stock, the face-down
        pay-off cards, cards waiting for chance) are an arbitrary arrangement of the unseen
        cards that agrees with the counts; chance decides each one as it comes into view."""
        if self._hidden_stale:
            self._arrange_hidden()
        return self._box.game

    @property
    def table(self) -> Game:
        """The engine's game as it stands, without arranging the hidden cards first: the
        fast way to read what a player may see (hands, pay-off tops, side and center stacks,
        pile sizes). Its hidden cards mean nothing."""
        return self._box.game

    @property
    def rules(self) -> Rules:
        return self._box.game.rules

    # ----------------------------------------------------------------- OpenSpiel API

    def current_player(self) -> int:
        if self._pending:
            return _CHANCE
        game = self._box.game
        if game.outcome is not None:
            return _TERMINAL
        return game.to_move

    def is_terminal(self) -> bool:
        return self._box.game.outcome is not None and not self._pending

    def is_chance_node(self) -> bool:
        """``pyspiel.State.is_chance_node``, answered in Python: the same answer without
        going through C++ and back into :meth:`current_player`."""
        return bool(self._pending)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """``pyspiel.State.legal_actions``: at a player's turn the same list, made in Python
        from the engine's legal-move flags (OpenSpiel's C++ would call back into Python four
        times before asking :meth:`_legal_actions`); elsewhere (chance nodes, the end,
        another player) OpenSpiel's own answer."""
        game = self._box.game
        if (
            self._pending
            or game.outcome is not None
            or not (player is None or player == game.to_move)
        ):
            if player is None:
                return super().legal_actions()  # type: ignore[no-any-return]
            return super().legal_actions(player)  # type: ignore[no-any-return]
        return _flagged_actions(game.legal_move_flags())

    def _legal_actions(self, player: int) -> list[int]:
        game = self._box.game
        if self._pending or game.outcome is not None or player != game.to_move:
            return []
        return _flagged_actions(game.legal_move_flags())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        fresh = self._fresh
        if self._pending[0][0] == "payoff":  # R3.4(a): a card never seen
            return list(_weighted(_FACE_RANGE, fresh, 1.0 / self._fresh_total, self._decks))
        recycled_total = self._recycled_total
        stock = len(self._box.game.stock) + self._draws_pending
        out: list[tuple[int, float]] = []
        if stock > recycled_total:  # a never-seen card from the stock
            scale = (stock - recycled_total) / (stock * self._fresh_total)
            out = list(_weighted(_FACE_RANGE, fresh, scale, self._decks))
        if recycled_total:  # a card of a completed stack (R3.4(b))
            out += _weighted(_RECYCLED_RANGE, self._recycled, 1.0 / stock, self._decks)
        return out

    def _apply_action(self, action: int) -> None:
        if self._pending:
            self._reveal(action)
            return
        # a move: the engine plays it, and the cards it brings into view wait for chance
        game = self._box.game
        move = ALL_MOVES[action]
        me = game.to_move
        target = move.target
        self._log.append((-1, _MOVE_WORDS[me][action], None))
        if target >= SIDE_TARGET_BASE:  # R3.3: a discard ends the turn
            theirs = game.players[1 - me].hand
            kept = len(theirs)
            game.apply(move)
            if len(theirs) > kept:  # R2.1: the next player draws up to five
                self._draw(1 - me, kept, len(theirs))
            return
        center = game.center
        completed = None
        if len(center[target]) == QUEEN - 1:
            completed = [*center[target], self._card_of(move)]
        mine = game.players[me].hand
        kept = len(mine) - 1  # after a card from the hand
        game.apply(move)
        if completed and not center[target]:  # R3.4(b): back into the stock
            recycled = self._recycled
            for card in completed:
                recycled[card] += 1
            self._recycled_total += len(completed)
            self._hidden_stale = True
        source = move.source
        if source == 0:
            if game.players[me].payoff:  # R3.4(a): turn up the next card
                self._pending.append(("payoff", me, 0))
                self._hidden_stale = True
        elif source < SIDE_SOURCE_BASE and len(mine) > kept:  # R3.4(c): an empty hand draws
            self._draw(me, kept, len(mine))

    def _draw(self, player: int, start: int, stop: int) -> None:
        """Cards ``start`` to ``stop`` of ``player``'s hand were drawn: chance decides them."""
        self._pending += [("hand", player, index) for index in range(start, stop)]
        self._draws_pending += stop - start
        self._hidden_stale = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if action >= FACES:
                return f"card {card_str(action - FACES)} (recycled)"
            return f"card {card_str(action)}"
        return ALL_MOVES[action].notation

    def returns(self) -> list[float]:
        outcome = self._box.game.outcome
        if outcome is None or self._pending or outcome.winner is None:
            return [0.0, 0.0]
        value = float(outcome.points) if self._points_reward else 1.0
        return [value, -value] if outcome.winner == 0 else [-value, value]

    def rewards(self) -> list[float]:
        return self.returns()

    def points(self) -> list[int]:
        """Points scored this game (R4.1): the winner's, and minus as many for the loser."""
        outcome = self.outcome
        if outcome is None or outcome.winner is None:
            return [0, 0]
        return [outcome.points, -outcome.points][:: 1 if outcome.winner == 0 else -1]

    @property
    def outcome(self) -> Outcome | None:
        """The engine's outcome once the game is over (winner, points, reason)."""
        return self._box.game.outcome if not self._pending else None

    def __str__(self) -> str:
        position = self.engine.to_position()
        if self._pending:
            position["pending"] = [list(slot) for slot in self._pending]
        return json.dumps(position, sort_keys=True)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A copy in which the opponent's hand is dealt afresh, uniformly from the cards
        ``player_id`` cannot see (that hand, the stock and the face-down pay-off cards); what
        is left is the stock and the pay-off piles, whose cards chance decides as they come
        into view. ``player_id``'s information state and observation stay the same.

        ``probability_sampler`` (a ``pyspiel.UniformProbabilitySampler``) seeds the deal.
        The copy's ``history()`` is not rewritten; it is meant for search.
        """
        state = self.clone()
        state._redeal_unseen(player_id, random.Random(int(probability_sampler() * 2**53)))
        return state

    # ----------------------------------------------------------------- the views

    def observation_of(self, player: int) -> Observation:
        """The engine's observation of ``player`` (R6), minus cards waiting for chance."""
        game = self._box.game
        observation: Observation = game.observation(player)
        if not self._pending:
            return observation
        hand = list(game.players[player].hand)
        for kind, who, index in self._pending:
            if kind == "hand" and who == player:
                hand[index] = -1
        views = list(observation.players)
        for kind, who, _index in self._pending:
            view = views[who]
            if kind == "payoff":
                views[who] = dataclasses.replace(view, payoff_top=None)
            else:
                views[who] = dataclasses.replace(view, hand_count=view.hand_count - 1)
        return dataclasses.replace(
            observation,
            hand=tuple(sorted(card for card in hand if card >= 0)),
            players=(views[0], views[1]),
            legal_moves=(),
        )

    def information_state_text(self, player: int) -> str:
        """Everything ``player`` saw happen, in order (perfect recall)."""
        words = [f"seat {player}"]
        for owner, text, others in self._log:
            if owner in (-1, player):
                words.append(text)
            elif others is not None:
                words.append(others)
        return " ".join(words)

    # ----------------------------------------------------------------- playing

    def _card_of(self, move: Move) -> Card:
        """The card ``move`` takes (the engine takes the first hand card of the rank)."""
        game = self._box.game
        me = game.players[game.to_move]
        if move.from_payoff:
            return me.payoff[-1]
        if move.from_side:
            return me.side[move.side_source][-1]
        rank = move.hand_rank
        return next(card for card in me.hand if RANK_OF[card] == rank)

    def _reveal(self, outcome: int) -> None:
        """A chance outcome: the first pending slot shows a card (see the class docstring)."""
        pending = self._pending
        kind, who, index = pending[0]
        if outcome >= FACES:
            face = outcome - FACES
            if face >= FACES or not self._recycled[face] or kind == "payoff":
                self._impossible(outcome)
            self._recycled[face] -= 1
            self._recycled_total -= 1
        else:
            face = outcome
            if face < 0 or not self._fresh[face]:
                self._impossible(outcome)
            self._fresh[face] -= 1
            self._fresh_total -= 1
        del pending[0]
        if kind == "hand":
            self._box.game.players[who].hand[index] = face
            self._draws_pending -= 1
            self._log.append((who, _DRAW_WORDS[who][face], _HIDDEN_DRAW_WORDS[who]))
        else:
            self._box.game.players[who].payoff[-1] = face
            self._log.append((-1, _TURN_UP_WORDS[who][face], None))
        self._hidden_stale = True
        if self._dealing and not pending:
            self._finish_deal()

    @staticmethod
    def _impossible(outcome: int) -> NoReturn:
        if not 0 <= outcome < 2 * FACES:
            raise ValueError(f"no chance outcome {outcome}; outcomes run 0 to {2 * FACES - 1}")
        raise ValueError(
            f"chance outcome {outcome} ({card_str(outcome % FACES)}) is impossible here"
        )

    def _finish_deal(self) -> None:
        """R1.4: who starts; a tie puts both tops back among the unseen cards, to draw again."""
        game = self._box.game
        if self._forced_first >= 0:
            first = self._forced_first
        else:
            tops = [RANK_OF[player.payoff[-1]] for player in game.players]
            if tops[0] == tops[1]:
                for who, player in enumerate(game.players):
                    self._fresh[player.payoff[-1]] += 1
                    self._fresh_total += 1
                    self._pending.append(("payoff", who, 0))
                self._log.append((-1, "tie", None))
                return
            first = 0 if tops[0] > tops[1] else 1
        self._dealing = False
        game.to_move = first
        game.first = first

    def _hidden_places(self) -> tuple[list[tuple[list[Card], int]], list[tuple[list[Card], int]]]:
        """The places of unseen cards: those in the stock (with the drawn cards still waiting
        for chance), and those that must hold never-seen cards (pay-off piles)."""
        game = self._box.game
        stock: list[tuple[list[Card], int]] = [(game.stock, i) for i in range(len(game.stock))]
        payoff: list[tuple[list[Card], int]] = []
        for who, player in enumerate(game.players):
            waiting = ("payoff", who, 0) in self._pending
            pile = player.payoff
            payoff += [(pile, i) for i in range(len(pile) - (0 if waiting else 1))]
        for kind, who, index in self._pending:
            if kind == "hand":
                stock.append((game.players[who].hand, index))
        return stock, payoff

    def _arrange_hidden(self) -> None:
        """Put the unseen cards into the engine's hidden places, agreeing with the counts:
        the recycled cards and some never-seen ones in the stock, the rest in pay-off piles."""
        stock_places, payoff_places = self._hidden_places()
        fresh = [face for face, count in enumerate(self._fresh) for _ in range(count)]
        recycled = [face for face, count in enumerate(self._recycled) for _ in range(count)]
        in_stock = recycled + fresh[: len(stock_places) - len(recycled)]
        in_payoff = fresh[len(stock_places) - len(recycled) :]
        for (pile, i), card in zip(stock_places, in_stock, strict=True):
            pile[i] = card
        for (pile, i), card in zip(payoff_places, in_payoff, strict=True):
            pile[i] = card
        self._hidden_stale = False

    def _redeal_unseen(self, player: int, rng: random.Random) -> None:
        """Deal the opponent's hand afresh (see :meth:`resample_from_infostate`)."""
        game = self._box.game
        opponent = game.players[1 - player]
        waiting = {index for kind, who, index in self._pending if kind == "hand" and who != player}
        places = [i for i in range(len(opponent.hand)) if i not in waiting]
        unseen = [opponent.hand[i] for i in places]
        unseen += [face for face, count in enumerate(self._fresh) for _ in range(count)]
        unseen += [face for face, count in enumerate(self._recycled) for _ in range(count)]
        rng.shuffle(unseen)
        for i, card in zip(places, unseen, strict=False):
            opponent.hand[i] = card
        left = unseen[len(places) :]
        # Of what is left, as many as before are recycled (cards of completed stacks, which
        # can only be in the stock), as far as the faces allow; the rest were never seen.
        counts = [0] * FACES
        for card in left:
            counts[card] += 1
        recycled = [min(was, now) for was, now in zip(self._recycled, counts, strict=True)]
        short = sum(self._recycled) - sum(recycled)
        spare = [face for face in range(FACES) for _ in range(counts[face] - recycled[face])]
        rng.shuffle(spare)
        for face in spare[:short]:
            recycled[face] += 1
        self._recycled = _Flat(recycled)
        self._recycled_total = sum(recycled)
        self._fresh = _Flat(now - was for now, was in zip(counts, recycled, strict=True))
        self._fresh_total = sum(self._fresh)
        self._hidden_stale = True
        # The opponent's hand is no longer what its own draws said: keep its draws hidden
        # from everyone in this copy and note its new hand for its own information state.
        self._log = _Flat(
            (owner, others if owner == 1 - player and others else text, others)
            for owner, text, others in self._log
        )
        shown = " ".join(
            card_str(opponent.hand[i]) for i in sorted(places, key=lambda i: opponent.hand[i])
        )
        self._log.append((1 - player, f"{1 - player}=[{shown}]", None))

    def check_counts(self) -> None:
        """Assert the bookkeeping of unseen cards (for tests): the counts fit the places,
        and the engine's position holds exactly the cards of the decks."""
        stock_places, payoff_places = self._hidden_places()
        recycled, fresh = sum(self._recycled), sum(self._fresh)
        assert min(self._recycled) >= 0 and min(self._fresh) >= 0
        assert recycled <= len(stock_places), "more recycled cards than the stock holds"
        assert recycled + fresh == len(stock_places) + len(payoff_places), "counts drifted"
        assert (recycled, fresh) == (self._recycled_total, self._fresh_total), "totals drifted"
        assert max(self._recycled + self._fresh) <= self._decks, "more of a face than the decks"
        draws = sum(1 for kind, _, _ in self._pending if kind == "hand")
        assert draws == self._draws_pending, "draws waiting for chance miscounted"
        game = self.engine
        cards = list(game.stock) + [card for stack in game.center for card in stack]
        for player in game.players:
            cards += player.payoff + player.hand + [card for pile in player.side for card in pile]
        assert sorted(cards) == sorted(full_deck(game.rules.decks)), "the deck is not whole"


class SpiteMaliceObserver:
    """OpenSpiel's Python observer: the tensor of :mod:`.encoding` and readable strings.

    With ``perfect_recall`` (information states) only the string is provided.
    """

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else OBSERVATION_SIZE
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        if not perfect_recall:
            at = 0
            for name, shape in SECTIONS:
                count = int(np.prod(shape))
                self.dict[name] = self.tensor[at : at + count].reshape(shape)
                at += count

    def set_from(self, state: SpiteMaliceState, player: int) -> None:
        if not self.perfect_recall:
            self.tensor[:] = encode_observation(state.observation_of(player))

    def string_from(self, state: SpiteMaliceState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_text(player)
        return observation_string(state.observation_of(player))


# ----------------------------------------------------------------- search helpers


def sample_outcome(outcomes: list[tuple[int, float]], z: float) -> int:
    """The chance outcome that ``pyspiel.sample_action(outcomes, z)`` picks, for ``z`` in
    [0, 1): the first whose running sum of probabilities is above ``z``, or the last one
    where rounding leaves the sum at or below ``z`` (``sample_action`` fails there). The same
    choice without converting the list to C++, in about half the time; for sampling
    ``state.chance_outcomes()``."""
    total = 0.0
    outcome = -1
    for outcome, chance in outcomes:
        total += chance
        if total > z:
            return outcome
    if outcome < 0:
        raise ValueError("no outcomes to sample from")
    return outcome


class FirstFitRolloutEvaluator:
    """An ISMCTS/MCTS evaluator: play the game out with the first-fit policy (chance nodes
    sampled) and return the result. The prior puts ``first_fit_prior`` on the first-fit
    action and spreads the rest evenly over the legal actions (0: uniform)."""

    def __init__(
        self, seed: int | None = None, max_steps: int = 2000, first_fit_prior: float = 0.6
    ) -> None:
        if not 0.0 <= first_fit_prior <= 1.0:
            raise ValueError(f"first_fit_prior must be 0 to 1, not {first_fit_prior}")
        self.rng = random.Random(seed)
        self.max_steps = max_steps
        self.first_fit_prior = first_fit_prior

    def evaluate(self, state: SpiteMaliceState) -> npt.NDArray[np.float64]:
        working = state.clone()
        rng = self.rng
        for _ in range(self.max_steps):
            if working.is_terminal():
                break
            if working.is_chance_node():
                outcomes = working.chance_outcomes()
                faces = [face for face, _ in outcomes]
                weights = [p for _, p in outcomes]
                working.apply_action(rng.choices(faces, weights)[0])
            else:
                working.apply_action(reference_move(working.table).index)
        return np.array(working.returns(), dtype=np.float64)

    def prior(self, state: SpiteMaliceState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        best = reference_move(state.table).index
        rest = (1.0 - self.first_fit_prior) / len(legal)
        return [
            (action, rest + (self.first_fit_prior if action == best else 0.0)) for action in legal
        ]


def make_ismcts_bot(
    game: SpiteMaliceGame,
    *,
    simulations: int = 100,
    uct_c: float = 1.0,
    seed: int | None = None,
    evaluator: Any = None,
    puct: bool = True,
) -> Any:
    """OpenSpiel's Python ISMCTS bot for this game, resampling hidden cards from the unseen
    ones (:meth:`SpiteMaliceState.resample_from_infostate`).

    By default it searches with PUCT from a prior leaning to the first-fit move, evaluating
    leaves by first-fit rollouts (:class:`FirstFitRolloutEvaluator`): single rollouts tell
    moves apart only weakly, and plain UCT at a few hundred simulations a move plays close to
    at random (it lost every test game to first-fit); with the prior it plays about even.
    """
    from open_spiel.python.algorithms import ismcts

    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=evaluator or FirstFitRolloutEvaluator(seed),
        uct_c=uct_c,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed),
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        child_selection_policy=(
            ismcts.ChildSelectionPolicy.PUCT if puct else ismcts.ChildSelectionPolicy.UCT
        ),
    )
    bot.set_resampler(
        lambda state, player: state.resample_from_infostate(
            player, pyspiel.UniformProbabilitySampler(0.0, 1.0)
        )
    )
    return bot


pyspiel.register_game(_GAME_TYPE, SpiteMaliceGame)

__all__ = [
    "GAME_NAME",
    "FirstFitRolloutEvaluator",
    "SpiteMaliceGame",
    "SpiteMaliceObserver",
    "SpiteMaliceState",
    "make_ismcts_bot",
    "sample_outcome",
]
