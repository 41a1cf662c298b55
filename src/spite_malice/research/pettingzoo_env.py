"""A PettingZoo AEC environment: two agents, ``player_0`` and ``player_1``, with action masks.

Make it the usual way::

    from spite_malice.research.pettingzoo_env import env
    e = env()                      # wrapped in PettingZoo's OrderEnforcingWrapper
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

import random
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine.game import Game
from ..engine.moves import ALL_MOVES
from ..engine.rules import Rules
from .actions import NUM_ACTIONS
from .encoding import OBSERVATION_SIZE, ObservationEncoder, observation_high, observation_string

AGENTS = ("player_0", "player_1")
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
        self._legal: list[int] = []
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
            self._legal = [move.index for move in game.legal_moves()]
            self.agent_selection = AGENTS[game.to_move]
            return
        self._legal = []
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
        seat = 0 if agent == "player_0" else 1
        game = self.game
        mask = bytearray(NUM_ACTIONS)
        if seat == game.to_move:
            for action in self._legal:
                mask[action] = 1
        return {
            "observation": self._encoder.encode(seat),
            "action_mask": np.frombuffer(mask, dtype=np.int8),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or action not in self._legal:
            self._end_illegal(agent, action)
            return
        self._cumulative_rewards[agent] = 0.0
        move = ALL_MOVES[action]
        player = self.game.to_move
        self.game.apply(move)
        self._encoder.moved(player, move)
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
        self._legal = []
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


def raw_env(**kwargs: Any) -> SpiteMaliceEnv:
    """The environment without wrappers."""
    return SpiteMaliceEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment as PettingZoo environments are usually made: wrapped in PettingZoo's
    ``OrderEnforcingWrapper`` (``reset`` first, no stepping after the end). Keyword arguments:
    ``rules``, ``reward`` (``"win"`` or ``"points"``), ``render_mode`` (``"ansi"`` or
    ``"human"``), ``illegal_reward`` (-1).

    The environment itself does what ``TerminateIllegalWrapper`` and
    ``AssertOutOfBoundsWrapper`` would (an illegal or out-of-range action ends the game
    against the agent that chose it), at a fraction of their cost per step."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


__all__ = ["AGENTS", "SpiteMaliceEnv", "env", "raw_env"]
