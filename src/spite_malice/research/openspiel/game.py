"""The OpenSpiel game and its states (see the package's docstring): importing this module
registers ``python_spite_and_malice``. The bookkeeping of unseen cards is :mod:`.chance`;
a search bot and its evaluator are :mod:`.search`."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from ...engine.cards import FACES, card_str
from ...engine.chance import Deal, Draw, Reshuffle, TurnUp
from ...engine.game import Game
from ...engine.moves import ALL_MOVES
from ...engine.observation import Observation
from ...engine.rules import HAND_SIZE, TURN_LIMIT, Rules
from ...engine.state import Outcome
from ..actions import NUM_ACTIONS, NUM_CARD_OUTCOMES
from ..encoding import OBSERVATION_SIZE, SECTIONS, encode_observation, observation_string
from .chance import (
    _CHANCE,
    _CUT_1,
    _CUT_2,
    _DRAW_SLOTS,
    _FACE_RANGE,
    _MOVE_WORDS,
    _PAYOFF_SLOTS,
    _PIECE_1,
    _PIECE_2,
    _PIECE_3,
    _RECYCLED_RANGE,
    _TERMINAL,
    _EngineBox,
    _flagged_actions,
    _weighted,
)

GAME_NAME = "python_spite_and_malice"

HISTORY_PER_TURN = 20
"""Chance and player nodes a turn is allowed in :data:`MAX_GAME_LENGTH`: over twice the
fastest pace seen (first-fit self-play, 300 games: at most 8.8 nodes a turn, the deal's 12
chance nodes included; the longest game, 660 nodes in 111 turns, 5.9)."""
MAX_GAME_LENGTH = TURN_LIMIT * HISTORY_PER_TURN
"""``max_game_length()``: 20,000 nodes (chance nodes included, as OpenSpiel counts them).
The rules bound turns (R4.3: 1,000), not moves, so no length is a hard bound: a turn goes on
while builds continue, and completed stacks can refill the stock (R3.4(b), (c)). This one
covers a game that reaches the safeguard at over twice the fastest pace seen; the longest
of 300 first-fit games had 660 nodes (373 moves, 111 turns)."""

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


def _rules_of(params: dict[str, Any]) -> Rules:
    return Rules(
        decks=int(params["decks"]),
        payoff_size=int(params["payoff_size"]),
        center_stacks=int(params["center_stacks"]),
        king_can_start_stack=bool(params["king_can_start_stack"]),
    )


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
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, merged)
        # Every state starts from this engine game, its chance dealt from outside.
        forced = None if self.first < 0 else self.first
        self.deal = Game.undealt(self.rules, first=forced, recording=False)

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
    """A state: the engine's :class:`Game`, whose chance comes from outside (see
    :mod:`spite_malice.engine.chance`), the counts of the unseen cards, and the cards chosen
    so far for the chance event the engine waits for.

    The engine waits for the deal, R1.4's tie reshuffles, every draw, every pay-off card
    turned up and every shuffle of the stock; this state asks OpenSpiel's chance player for
    each card as it comes into view (the deal: five cards to each hand, then the two pay-off
    tops; a tie: both new tops; a draw: each card drawn; a pay-off card turned up), gives the
    engine the outcome, and settles a shuffle of the stock itself (the order of the stock
    never matters: each card drawn is chance's).

    The counts are kept in the state's :class:`_EngineBox`. Unseen cards come in three kinds.
    *Never seen* cards (``fresh``) have been seen by
    nobody: the stock's cards from the deal and the face-down pay-off cards, by symmetry
    spread evenly over all those places. *Recycled* cards (``recycled``) are the cards of
    completed center stacks (R3.4(b)), which everyone saw go back into the stock. *Known*
    cards (``known``) are pay-off tops that tied at the deal (R1.4) and were reshuffled into
    their own pile. A stock draw picks a recycled card of face ``f`` with probability
    ``recycled[f] / N`` and a never-seen one with probability ``(N - R) / N * fresh[f] / F``
    (``N`` cards in the stock, ``R`` of them recycled, ``F`` never-seen cards in all); a card
    turned up from a pile of ``L`` face-down cards, ``K`` of them known, is a known card of
    face ``f`` with probability ``known[f] / L`` and a never-seen one with probability
    ``(L - K) / L * fresh[f] / F``. Chance outcomes 0..51 are a never-seen card of that face,
    52..103 a card of that face seen before (recycled, or known); players see only the face.
    """

    def __init__(self, game: SpiteMaliceGame) -> None:
        super().__init__(game)
        rules = game.rules
        box = _EngineBox(
            game.deal.copy(), rules.decks, rules.payoff_size, game.reward_kind == "points"
        )
        self._box = box
        box.next_chance()

    @property
    def engine(self) -> Game:
        """The engine's game behind this state. Its hidden cards (the stock, the face-down
        pay-off cards) are an arbitrary arrangement of the unseen cards that agrees with the
        counts; chance decides each one as it comes into view. The cards chosen for the
        event the engine waits for are not in its hands or on its piles yet."""
        return self._box.game

    table = engine
    """The engine's game (another name for :attr:`engine`, kept for callers that use it)."""

    @property
    def rules(self) -> Rules:
        return self._box.game.rules

    # ----------------------------------------------------------------- OpenSpiel API

    def current_player(self) -> int:
        box = self._box
        if box.reveals:
            return _CHANCE
        game = box.game
        if game.outcome is not None:
            return _TERMINAL
        return game.to_move

    def is_terminal(self) -> bool:
        box = self._box
        return not box.reveals and box.game.outcome is not None

    def is_chance_node(self) -> bool:
        """``pyspiel.State.is_chance_node``, answered in Python: the same answer without
        going through C++ and back into :meth:`current_player`."""
        return bool(self._box.reveals)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """``pyspiel.State.legal_actions``: at a player's turn the same list, made in Python
        from the engine's legal-move flags (OpenSpiel's C++ would call back into Python four
        times before asking :meth:`_legal_actions`); elsewhere (chance nodes, the end,
        another player) OpenSpiel's own answer."""
        box = self._box
        game = box.game
        if (
            box.reveals
            or game.outcome is not None
            or not (player is None or player == game.to_move)
        ):
            if player is None:
                return super().legal_actions()  # type: ignore[no-any-return]
            return super().legal_actions(player)  # type: ignore[no-any-return]
        flags = game.legal_move_flags()  # as _flagged_actions, without the call
        return [
            *_PIECE_1[flags[:_CUT_1]],
            *_PIECE_2[flags[_CUT_1:_CUT_2]],
            *_PIECE_3[flags[_CUT_2:]],
        ]

    def _legal_actions(self, player: int) -> list[int]:
        box = self._box
        game = box.game
        if box.reveals or game.outcome is not None or player != game.to_move:
            return []
        return _flagged_actions(game.legal_move_flags())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        box = self._box
        kind, who = box.reveals[0]
        fresh = box.fresh
        if kind == "payoff":  # R3.4(a), R1.2, R1.4: a card of the pile turns up
            facedown = (
                box.payoff_size if box.dealing else len(box.game.players[who].payoff)
            )  # the pile's face-down cards: a whole pile at the deal
            known_total = box.known_totals[who]
            out: list[tuple[int, float]] = []
            if facedown > known_total:
                scale = (facedown - known_total) / (facedown * box.fresh_total)
                out = list(_weighted(_FACE_RANGE, fresh, scale, box.decks))
            if known_total:
                known = box.known[who * FACES : (who + 1) * FACES]
                out += _weighted(_RECYCLED_RANGE, known, 1.0 / facedown, box.decks)
            return out
        recycled_total = box.recycled_total
        if not recycled_total:  # only never-seen cards: the deal, or no stack completed yet
            return list(_weighted(_FACE_RANGE, fresh, 1.0 / box.fresh_total, box.decks))
        stock = len(box.game.stock) - len(box.chosen)
        out = []
        if stock > recycled_total:  # a never-seen card from the stock
            scale = (stock - recycled_total) / (stock * box.fresh_total)
            out = list(_weighted(_FACE_RANGE, fresh, scale, box.decks))
        out += _weighted(_RECYCLED_RANGE, box.recycled, 1.0 / stock, box.decks)  # R3.4(b)
        return out

    def _apply_action(self, action: int) -> None:
        box = self._box
        reveals = box.reveals
        if reveals:
            kind, who = reveals[0]
            if box.dealing or not 0 <= action < 2 * FACES:
                box.reveal(action)
            elif kind == "hand":
                box.draw_card(action, who)  # the most frequent outcomes by far
            elif action < FACES and not box.known_totals[who]:
                box.turn_up(action, who)  # R3.4(a), the pile holding no known card
            else:
                box.reveal(action)
            return
        # a move: the engine plays it, then waits for the chance it brings (if any)
        game = box.game
        box.log.append(_MOVE_WORDS[game.to_move][action])
        game.apply(ALL_MOVES[action])
        chance = game.chance
        if chance:
            if len(chance) == 1:  # the usual: one draw or one turn-up (as _next_chance)
                event = chance[0]
                if type(event) is Draw:
                    box.reveals += _DRAW_SLOTS[event.player][event.count]
                    return
                if type(event) is TurnUp:
                    box.reveals.append(_PAYOFF_SLOTS[event.player])
                    return
            if len(chance) > 1 or type(chance[0]) is Reshuffle:
                for event in chance:
                    if type(event) is Reshuffle:  # R3.4(b): a completed stack, seen by all,
                        added = event.added  # is in the stock now
                        for card in added:
                            box.recycled[card] += 1
                        box.recycled_total += len(added)
            box.next_chance()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if action >= FACES:
                return f"card {card_str(action - FACES)} (seen before)"
            return f"card {card_str(action)}"
        return ALL_MOVES[action].notation

    def returns(self) -> list[float]:
        box = self._box
        outcome = box.game.outcome
        if outcome is None or box.reveals or outcome.winner is None:
            return [0.0, 0.0]
        value = float(outcome.points) if box.points_reward else 1.0
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
        box = self._box
        return box.game.outcome if not box.reveals else None

    def __str__(self) -> str:
        box = self._box
        game = box.game
        position = game.to_position()
        if game.chance:
            position["chance"] = [str(event) for event in game.chance]
            position["reveals"] = [list(slot) for slot in box.reveals]
            position["chosen"] = [card_str(card) for card in box.chosen]
        return json.dumps(position, sort_keys=True)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A copy in which the opponent's hand is dealt afresh, uniformly from the cards
        ``player_id`` cannot see (that hand, the stock and the face-down pay-off cards); what
        is left is the stock and the pay-off piles, whose cards chance decides as they come
        into view. ``player_id``'s information state and observation stay the same. Only at
        a player's turn, not at a chance node.

        ``probability_sampler`` (a ``pyspiel.UniformProbabilitySampler``) seeds the deal.
        The copy's ``history()`` is not rewritten; it is meant for search.
        """
        box = self._box
        if box.reveals:
            raise ValueError("resample_from_infostate is for a player's turn, not chance's")
        state = self.clone()
        state._box.redeal_unseen(player_id, random.Random(int(probability_sampler() * 2**53)))
        return state

    def check_counts(self) -> None:
        """Assert the bookkeeping of unseen cards (for tests): :meth:`_EngineBox.check_counts`."""
        self._box.check_counts()

    # ----------------------------------------------------------------- the views

    def observation_of(self, player: int) -> Observation:
        """The engine's observation of ``player`` (R6), with the cards chosen so far for the
        chance event the engine waits for, and without those still to come."""
        box = self._box
        game = box.game
        observation: Observation = game.observation(player)
        if not box.reveals:
            return observation
        event = game.chance[0]
        views = list(observation.players)
        hand = list(observation.hand)
        stock_count = observation.stock_count
        chosen = box.chosen
        if isinstance(event, Deal):  # R1.2: the piles are dealt, their tops still face down
            size = box.payoff_size
            tops = chosen[10:]
            for who in (0, 1):
                got = chosen[5 * who : 5 * who + 5]
                views[who] = dataclasses.replace(
                    views[who],
                    payoff_top=tops[who] if who < len(tops) else None,
                    payoff_count=size,
                    hand_count=len(got),
                )
                if who == player:
                    hand = got
            stock_count = game.rules.deck_size - 2 * size - 2 * HAND_SIZE
        elif isinstance(event, Draw):
            view = views[event.player]
            views[event.player] = dataclasses.replace(
                view, hand_count=view.hand_count + len(chosen)
            )
            if event.player == player:
                hand += chosen
            stock_count -= event.count
        elif isinstance(event, TurnUp):  # R3.4(a): the next top is still to come
            views[event.player] = dataclasses.replace(views[event.player], payoff_top=None)
        else:  # R1.4: both tops tied and were reshuffled; the new ones come one by one
            for who in (0, 1):
                top = chosen[who] if who < len(chosen) else None
                views[who] = dataclasses.replace(views[who], payoff_top=top)
        return dataclasses.replace(
            observation,
            hand=tuple(sorted(hand)),
            players=(views[0], views[1]),
            stock_count=stock_count,
            legal_moves=(),
        )

    def information_state_text(self, player: int) -> str:
        """Everything ``player`` saw happen, in order (perfect recall)."""
        box = self._box
        words = [f"seat {player}"]
        for owner, text, others in box.log:
            if owner in (-1, player):
                words.append(text)
            elif others is not None:
                words.append(others)
        return " ".join(words)


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


pyspiel.register_game(_GAME_TYPE, SpiteMaliceGame)

__all__ = [
    "GAME_NAME",
    "MAX_GAME_LENGTH",
    "SpiteMaliceGame",
    "SpiteMaliceObserver",
    "SpiteMaliceState",
]
