"""A PettingZoo AEC environment: two agents, ``player_0`` and ``player_1``, with action masks.

Make it the usual way::

    from spite_malice.research.pettingzoo_env import env
    e = env()                      # in (a faster subclass of) PettingZoo's OrderEnforcingWrapper
    e.reset(seed=42)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else policy(observation)
        e.step(action)

Each observation is a dict: ``"observation"``, the seat's float32 tensor of
:mod:`.encoding` (313 numbers, only what that seat may see, R6), and ``"action_mask"``, an
int8 vector of length 144 with a 1 at each legal action (all zero when it is not that agent's
turn). Actions are move indices (:mod:`.actions`).

Rewards come at the end: +1 to the winner, -1 to the loser, 0 each for a draw; with
``reward="points"`` the winner gets the points scored (R4.1) and the loser minus as many.
Both agents' ``info`` then holds ``"outcome"`` (winner, points, reason). A drawn game is a
termination, not a truncation: the rules end it (R4.2, R4.3).

Illegal actions: an action that the mask does not allow ends the game at once, as
PettingZoo's ``TerminateIllegalWrapper`` does for its board games: the offender gets
``illegal_reward`` (-1), the other agent 0, and both ``info`` hold ``"illegal_action"`` (the
offender's agent name, the move and why it is illegal). The environment does this itself
rather than through that wrapper, which costs more per step than the game itself; an action
outside 0..143, or ``None`` from a live agent, is treated the same way.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterator
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from ..engine.game import Game
from ..engine.moves import ALL_MOVES
from ..engine.rules import Rules
from .actions import NUM_ACTIONS
from .encoding import (
    OBSERVATION_SIZE,
    ObservationEncoder,
    action_mask,
    observation_high,
    observation_string,
)

AGENTS = ("player_0", "player_1")
_SEATS = {agent: seat for seat, agent in enumerate(AGENTS)}
_frombuffer = np.frombuffer
_INT8 = np.dtype(np.int8)
_NO_BYTES = bytearray()  # never changed: ``_NO_BYTES + flags`` is a new bytearray
_NO_MOVES = bytes(NUM_ACTIONS)
RewardKind = Literal["win", "points"]
Observation = dict[str, npt.NDArray[Any]]


class SpiteMaliceEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type hints
    """The bare AEC environment; :func:`env` wraps it as PettingZoo environments usually are."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - the attribute PettingZoo reads
        "name": "spite_malice_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules = Rules.STANDARD,
        reward: RewardKind = "win",
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
    ) -> None:
        super().__init__()
        if reward not in ("win", "points"):
            raise ValueError(f"reward must be 'win' or 'points', not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of ansi, human or None, not {render_mode!r}")
        self.rules = rules
        self.reward_kind = reward
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    0.0, observation_high(rules.deck_size), (OBSERVATION_SIZE,), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self._seeds = random.Random()
        self._legal: bytes | bytearray = _NO_MOVES  # legal_move_flags() of the agent to move
        self.game = Game.new(0, rules, recording=False)
        self._encoder = ObservationEncoder(self.game)

    # ----------------------------------------------------------------- spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    # ----------------------------------------------------------------- the game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game. ``seed`` seeds this and the following deals; ``options`` may hold
        ``{"game_seed": n}`` to deal ``Game.new(n)`` exactly as the engine does, or
        ``{"position": ...}`` (a position of ``notation.md``) to start from."""
        if seed is not None:
            self._seeds = random.Random(seed)
        game_seed = self._seeds.getrandbits(63)
        if options and options.get("game_seed") is not None:
            game_seed = int(options["game_seed"])
        if options and "position" in options:
            self.game = Game.from_position(options["position"], seed=game_seed)
            self.game.recording = False
        else:
            self.game = Game.new(game_seed, self.rules, recording=False)
        self._encoder.reset(self.game)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_change()

    def _after_change(self) -> None:
        game = self.game
        outcome = game.outcome
        if outcome is None:
            self._legal = game.legal_move_flags()
            self.agent_selection = AGENTS[game.to_move]
            return
        self._legal = _NO_MOVES
        result = outcome.to_json()
        for seat, agent in enumerate(AGENTS):
            if outcome.winner is None:
                value = 0.0
            else:
                value = 1.0 if self.reward_kind == "win" else float(outcome.points)
                if outcome.winner != seat:
                    value = -value
            self.rewards[agent] = value
            self.terminations[agent] = True
            self.infos[agent] = {"outcome": result}
        self.agent_selection = AGENTS[game.to_move]

    def observe(self, agent: str) -> Observation:
        """The agent's tensor and action mask: new arrays, never changed afterwards."""
        seat = _SEATS[agent]
        return {
            "observation": self._encoder.encode(seat),
            "action_mask": action_mask(self._legal)
            if seat == self.game.to_move
            else np.zeros(NUM_ACTIONS, np.int8),
        }

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``AECEnv.last``, with :meth:`observe` written out in it."""
        agent = self.agent_selection
        observation: Observation | None = None
        if observe:
            seat = _SEATS[agent]
            observation = {
                "observation": self._encoder.encode(seat),
                # action_mask(self._legal), written out
                "action_mask": _frombuffer(_NO_BYTES + self._legal, _INT8)
                if seat == self.game.to_move
                else np.zeros(NUM_ACTIONS, np.int8),
            }
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is int:
            index = action
        elif action is None:
            self._end_illegal(agent, action)
            return
        else:
            index = operator.index(action)
        if not (0 <= index < NUM_ACTIONS and self._legal[index]):
            self._end_illegal(agent, action)
            return
        self._cumulative_rewards[agent] = 0.0
        move = ALL_MOVES[index]
        game = self.game
        player = game.to_move
        game.apply(move)
        self._encoder.moved(player, move)
        if game.outcome is None:
            # Rewards stay 0 until the game ends, so there is nothing to accumulate yet.
            self._legal = game.legal_move_flags()
            self.agent_selection = AGENTS[game.to_move]
            return
        self._after_change()
        self._accumulate_rewards()

    def _end_illegal(self, agent: str, action: int | None) -> None:
        """An illegal action ends the game: the offender gets ``illegal_reward``, the other 0."""
        move = ALL_MOVES[action] if action is not None and 0 <= action < NUM_ACTIONS else None
        reason = "no action" if move is None else self.game.why_illegal(move) or "not legal now"
        note = {"agent": agent, "move": None if move is None else move.notation, "reason": reason}
        self._cumulative_rewards[agent] = 0.0
        for other in self.agents:
            self.rewards[other] = self.illegal_reward if other == agent else 0.0
            self.terminations[other] = True
            self.infos[other] = {"illegal_action": note}
        self._legal = _NO_MOVES
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self.game
        text = "\n\n".join(
            f"{agent}:\n" + observation_string(game.observation(seat))
            for seat, agent in enumerate(AGENTS)
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class DirectOrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` with the same checks, errors and warnings, that
    reads the attributes used at every step (``agents``, ``agent_selection``, ``rewards``,
    ``terminations``, ``truncations``, ``infos``) and calls ``last``, ``observe`` and ``step``
    on the environment directly. The library's wrapper reaches each of them through
    ``BaseWrapper.__getattr__``, only after a failed ordinary look-up, which costs more per
    step than the game itself. After a reset, ``last`` is the environment's own method."""

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection  # type: ignore[no-any-return]

    @property
    def rewards(self) -> dict[str, float]:
        if not self._has_reset:
            raise AttributeError("rewards cannot be accessed before reset")
        return self.env.rewards  # type: ignore[no-any-return]

    @property
    def terminations(self) -> dict[str, bool]:
        if not self._has_reset:
            raise AttributeError("terminations cannot be accessed before reset")
        return self.env.terminations  # type: ignore[no-any-return]

    @property
    def truncations(self) -> dict[str, bool]:
        if not self._has_reset:
            raise AttributeError("truncations cannot be accessed before reset")
        return self.env.truncations  # type: ignore[no-any-return]

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("infos cannot be accessed before reset")
        return self.env.infos  # type: ignore[no-any-return]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        # From now on ``last`` has nothing to check: calls go straight to the environment's.
        self.__dict__["last"] = self.env.last

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _AgentIterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> Iterator[str]:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's order-enforcing iterator, reading the environment directly."""

    def __next__(self) -> str:
        wrapper = self.env
        inner = wrapper.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        # As PettingZoo's iterator does: each agent must step before the next is given.
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return inner.agent_selection  # type: ignore[no-any-return]


def raw_env(**kwargs: Any) -> SpiteMaliceEnv:
    """The environment without wrappers."""
    return SpiteMaliceEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment as PettingZoo environments are usually made: wrapped in PettingZoo's
    ``OrderEnforcingWrapper`` (``reset`` first, no stepping after the end), here its subclass
    :class:`DirectOrderEnforcingWrapper`, which makes the same checks faster. Keyword
    arguments: ``rules``, ``reward`` (``"win"`` or ``"points"``), ``render_mode`` (``"ansi"``
    or ``"human"``), ``illegal_reward`` (-1).

    The environment itself does what ``TerminateIllegalWrapper`` and
    ``AssertOutOfBoundsWrapper`` would (an illegal or out-of-range action ends the game
    against the agent that chose it), at a fraction of their cost per step."""
    return DirectOrderEnforcingWrapper(raw_env(**kwargs))


__all__ = ["AGENTS", "DirectOrderEnforcingWrapper", "SpiteMaliceEnv", "env", "raw_env"]
