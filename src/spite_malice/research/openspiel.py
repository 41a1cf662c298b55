"""An OpenSpiel game: importing this module registers ``python_spite_and_malice``.

::

    import pyspiel
    import spite_malice.research.openspiel  # registers the game
    game = pyspiel.load_game("python_spite_and_malice", {"payoff_size": 10})

Actions: a player's action is a move index 0..143 (:mod:`.actions`); a chance outcome is a
card face 0..51 (``suit * 13 + rank - 1``; ``'7H'`` is 19).

Chance is explicit (``EXPLICIT_STOCHASTIC``). Hidden cards are not fixed in advance: the
stock and the face-down pay-off cards form one pool of unseen cards, and whenever a card
comes into view (a card drawn into a hand, R2.1 and R3.4(c); a pay-off card turned up,
R3.4(a); the deal, R1.2) a chance node picks its face with probability proportional to how
many of that face the pool holds. That is the same distribution as drawing from a shuffled
deck, so shuffles (R1.1) and reshuffles of completed stacks (R3.4(b)) need no chance node of
their own: a completed stack's cards simply go back into the pool. The deal is 12 chance
nodes (5 cards for each hand, then the two pay-off tops). One deviation: when the two
pay-off tops tie (R1.4), both go back into the pool and two new tops are drawn from it,
where the engine reshuffles each pay-off pile within itself; who starts follows the same
rule, and the difference in the odds of later cards is negligible.

Information (R6): ``observation_string`` / ``observation_tensor`` show only what the seat
may see (the tensor of :mod:`.encoding`); ``information_state_string`` adds what the seat
saw happen (every move, every face-up card turned, its own draws, the opponent's draw counts).

Returns: +1 to the winner and -1 to the loser, 0 each in a draw; with the parameter
``reward="points"``, plus and minus the points of R4.1 instead. ``state.points()`` gives the
points either way, and ``state.outcome`` the engine's outcome.

Search: ``state.resample_from_infostate(player, sampler)`` deals the cards that ``player``
cannot see (the opponent's hand and the pool) afresh from the unseen cards, which is what
OpenSpiel's Python ISMCTS bot needs; :func:`make_ismcts_bot` sets one up.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from ..bots.reference import reference_move
from ..engine.cards import FACES, RANK_OF, Card, card_str
from ..engine.game import Game, Outcome, PlayerState
from ..engine.moves import ALL_MOVES, Move
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


def _rules_of(params: dict[str, Any]) -> Rules:
    return Rules(
        decks=int(params["decks"]),
        payoff_size=int(params["payoff_size"]),
        center_stacks=int(params["center_stacks"]),
        king_can_start_stack=bool(params["king_can_start_stack"]),
    )


class _NoShuffle(random.Random):
    """The engine's generator inside an OpenSpiel state: shuffling the stock is not needed,
    since chance nodes pick every card that comes into view from the pool of unseen cards,
    whatever order the stock is in; and a state is cloned by pickling, which this makes cheap."""

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
            max_chance_outcomes=NUM_CARD_OUTCOMES,
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
    """A state: the engine's :class:`Game` plus the cards still waiting for a chance outcome.

    ``engine`` holds some arrangement of the unseen cards; only the faces picked by chance
    nodes are ever shown, so the arrangement does not matter, and the adapter swaps unseen
    cards around freely (the only way it changes the engine's lists by hand).
    """

    def __init__(self, game: SpiteMaliceGame) -> None:
        super().__init__(game)
        self._forced_first = game.first
        self._points_reward = game.reward_kind == "points"
        self._box = _EngineBox(game.deal.copy(rng=_NoShuffle(0)))
        # Unseen cards by face: the stock, the face-down pay-off cards, the pending slots.
        self._pool = _Flat([game.rules.decks] * FACES)
        self._pool_size = game.rules.deck_size
        self._pending: list[_Slot] = _Flat([("hand", 0, i) for i in range(5)])
        self._pending += [("hand", 1, i) for i in range(5)]
        self._pending += [("payoff", 0, 0), ("payoff", 1, 0)]
        self._dealing = True
        # What happened, for information states: (owner, text, text others see or None)
        self._log: list[tuple[int, str, str | None]] = _Flat()

    @property
    def engine(self) -> Game:
        """The engine's game behind this state (with some arrangement of the unseen cards)."""
        return self._box.game

    @property
    def rules(self) -> Rules:
        return self._box.game.rules

    # ----------------------------------------------------------------- OpenSpiel API

    def current_player(self) -> int:
        if self._pending:
            return int(pyspiel.PlayerId.CHANCE)
        if self.engine.outcome is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.engine.to_move

    def is_terminal(self) -> bool:
        return self.engine.outcome is not None and not self._pending

    def _legal_actions(self, player: int) -> list[int]:
        game = self.engine
        if self._pending or game.outcome is not None or player != game.to_move:
            return []
        return [move.index for move in game.legal_moves()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        pool = self._pool
        size = self._pool_size
        return [(face, count / size) for face, count in enumerate(pool) if count]

    def _apply_action(self, action: int) -> None:
        if self._pending:
            self._reveal(action)
        else:
            self._play(ALL_MOVES[action])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {card_str(action)}"
        return ALL_MOVES[action].notation

    def returns(self) -> list[float]:
        outcome = self.engine.outcome
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
        return self.engine.outcome if not self._pending else None

    def __str__(self) -> str:
        position = self.engine.to_position()
        if self._pending:
            position["pending"] = [list(slot) for slot in self._pending]
        return json.dumps(position, sort_keys=True)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A copy in which the cards ``player_id`` cannot see (the opponent's hand, the stock
        and the face-down pay-off cards) are dealt afresh, uniformly from the unseen cards.

        ``probability_sampler`` (a ``pyspiel.UniformProbabilitySampler``) seeds the shuffle.
        The copy's ``history()`` is not rewritten; it is meant for search.
        """
        state = self.clone()
        state._redeal_unseen(player_id, random.Random(int(probability_sampler() * 2**53)))
        return state

    # ----------------------------------------------------------------- the views

    def observation_of(self, player: int) -> Observation:
        """The engine's observation of ``player`` (R6), minus cards waiting for chance."""
        observation: Observation = self.engine.observation(player)
        if not self._pending:
            return observation
        hand = list(self.engine.players[player].hand)
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

    def _play(self, move: Move) -> None:
        game = self.engine
        me = game.to_move
        players = game.players
        hand_sizes = (len(players[0].hand), len(players[1].hand))
        completed: list[Card] = []
        if move.is_build and len(game.center[move.center]) == 11:
            completed = [*game.center[move.center], self._card_of(move)]
        self._log.append((-1, f"{me}:{move.notation}", None))
        game.apply(move)
        if completed and not game.center[move.center]:  # R3.4(b): back into the pool
            pool = self._pool
            for card in completed:
                pool[card] += 1
            self._pool_size += len(completed)
        pending = self._pending
        if move.from_payoff and players[me].payoff:  # R3.4(a): turn up the next card
            pending.append(("payoff", me, 0))
        for who in (me, 1 - me):
            kept = hand_sizes[who] - (1 if who == me and move.from_hand else 0)
            for index in range(kept, len(players[who].hand)):
                pending.append(("hand", who, index))

    def _card_of(self, move: Move) -> Card:
        """The card ``move`` takes (the engine takes the first hand card of the rank)."""
        me = self.engine.players[self.engine.to_move]
        if move.from_payoff:
            return me.payoff[-1]
        if move.from_side:
            return me.side[move.side_source][-1]
        rank = move.hand_rank
        return next(card for card in me.hand if RANK_OF[card] == rank)

    def _reveal(self, face: int) -> None:
        """A chance outcome: the first pending slot shows ``face``."""
        if not self._pool[face]:
            raise ValueError(
                f"no unseen {card_str(face)} is left; chance outcome {face} is illegal"
            )
        kind, who, index = self._pending.pop(0)
        players = self.engine.players
        pile = players[who].hand if kind == "hand" else players[who].payoff
        at = index if kind == "hand" else len(pile) - 1
        if pile[at] != face:
            other, other_at = self._find_unseen(face)
            pile[at], other[other_at] = other[other_at], pile[at]
        self._pool[face] -= 1
        self._pool_size -= 1
        name = card_str(face)
        if kind == "hand":
            self._log.append((who, f"{who}+{name}", f"{who}+??"))
        else:
            self._log.append((-1, f"{who}^{name}", None))
        if self._dealing and not self._pending:
            self._finish_deal()

    def _find_unseen(self, face: int) -> tuple[list[Card], int]:
        """Where an unseen card of ``face`` lies: a pending slot, the stock, a face-down pay-off."""
        players = self.engine.players
        for kind, who, index in self._pending:
            pile = players[who].hand if kind == "hand" else players[who].payoff
            at = index if kind == "hand" else len(pile) - 1
            if pile[at] == face:
                return pile, at
        stock = self.engine.stock
        if face in stock:
            return stock, stock.index(face)
        for player in players:
            face_down = player.payoff[:-1]
            if face in face_down:
                return player.payoff, face_down.index(face)
        raise AssertionError(f"the pool counts a {card_str(face)} that is nowhere unseen")

    def _finish_deal(self) -> None:
        """R1.4: who starts; a tie puts both tops back into the pool to be drawn again."""
        game = self.engine
        if self._forced_first >= 0:
            first = self._forced_first
        else:
            tops = [RANK_OF[player.payoff[-1]] for player in game.players]
            if tops[0] == tops[1]:
                for who, player in enumerate(game.players):
                    self._pool[player.payoff[-1]] += 1
                    self._pool_size += 1
                    self._pending.append(("payoff", who, 0))
                self._log.append((-1, "tie", None))
                return
            first = 0 if tops[0] > tops[1] else 1
        self._dealing = False
        game.to_move = first
        game.first = first

    def _redeal_unseen(self, player: int, rng: random.Random) -> None:
        """Deal the cards ``player`` cannot see afresh (see :meth:`resample_from_infostate`)."""
        game = self.engine
        opponent = game.players[1 - player]
        places: list[tuple[list[Card], int]] = [
            (opponent.hand, i) for i in range(len(opponent.hand))
        ]
        places += [(game.stock, i) for i in range(len(game.stock))]
        for who, each in enumerate(game.players):
            top_pending = ("payoff", who, 0) in self._pending
            places += [
                (each.payoff, i) for i in range(len(each.payoff) - (0 if top_pending else 1))
            ]
        places += [
            (game.players[player].hand, index)
            for kind, who, index in self._pending
            if kind == "hand" and who == player
        ]
        cards = [pile[i] for pile, i in places]
        rng.shuffle(cards)
        for (pile, i), card in zip(places, cards, strict=True):
            pile[i] = card
        self._recount_pool()
        # The opponent's hand is no longer what its own draws said: keep its draws hidden
        # from everyone in this copy and note its new hand for its own information state.
        self._log = _Flat(
            (owner, others if owner == 1 - player and others else text, others)
            for owner, text, others in self._log
        )
        shown = " ".join(card_str(card) for card in sorted(opponent.hand))
        self._log.append((1 - player, f"{1 - player}=[{shown}]", None))

    def _recount_pool(self) -> None:
        """Count the unseen cards again: the stock, face-down pay-offs and pending slots."""
        game = self.engine
        unseen = list(game.stock)
        for who, each in enumerate(game.players):
            top_pending = ("payoff", who, 0) in self._pending
            unseen += each.payoff if top_pending else each.payoff[:-1]
        for kind, who, index in self._pending:
            if kind == "hand":
                unseen.append(game.players[who].hand[index])
        pool = _Flat([0] * FACES)
        for card in unseen:
            pool[card] += 1
        self._pool = pool
        self._pool_size = len(unseen)

    def check_pool(self) -> None:
        """Assert that the pool counts match the unseen cards (for tests)."""
        pool, size = self._pool, self._pool_size
        self._recount_pool()
        assert (pool, size) == (self._pool, self._pool_size), "pool counts drifted"


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


class FirstFitRolloutEvaluator:
    """An ISMCTS/MCTS evaluator: play the game out with the first-fit policy (chance nodes
    sampled) and return the result; the prior is uniform over the legal actions."""

    def __init__(self, seed: int | None = None, max_steps: int = 2000) -> None:
        self.rng = random.Random(seed)
        self.max_steps = max_steps

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
                working.apply_action(reference_move(working.engine).index)
        return np.array(working.returns(), dtype=np.float64)

    def prior(self, state: SpiteMaliceState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def make_ismcts_bot(
    game: SpiteMaliceGame,
    *,
    simulations: int = 100,
    uct_c: float = 2.0,
    seed: int | None = None,
    evaluator: Any = None,
) -> Any:
    """OpenSpiel's Python ISMCTS bot for this game, resampling hidden cards from the unseen
    ones (:meth:`SpiteMaliceState.resample_from_infostate`); first-fit rollouts by default."""
    from open_spiel.python.algorithms import ismcts

    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=evaluator or FirstFitRolloutEvaluator(seed),
        uct_c=uct_c,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed),
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
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
]
