"""A Gymnasium environment: one agent plays a whole game against one of our bots.

::

    from spite_malice.research.gym_env import SpiteMaliceEnv
    env = SpiteMaliceEnv(opponent="reference")       # any name make_bot knows, or a Bot
    observation, info = env.reset(seed=1)
    while True:
        action = policy(observation, info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

It is also registered as ``gymnasium.make("spite_malice/SpiteMalice-v0", opponent=...)``.

Observation: the agent's float32 tensor of :mod:`.encoding` (313 numbers, only what its seat
may see, R6). Action: a move index, ``Discrete(144)`` (:mod:`.actions`). ``info`` always
holds ``"action_mask"`` (int8, 144, a 1 at each legal action) and ``"seat"``; at the end it
holds ``"outcome"``: ``winner`` (the seat, or -1 for a draw: always an integer, so that
Gymnasium's vector environments can stack it), ``draw``, ``points`` and ``reason``.
:meth:`action_masks` gives the same mask as booleans (what sb3-contrib's ``MaskablePPO``
asks for). Once the episode is over no action is taken, and the mask is all ones, so that a
masked sampler always has an action to pick (the vector environments' autoreset ignores it).
The agent's seat is chosen at random each game unless ``seat`` is given; the opponent's
moves are played inside :meth:`step` (and :meth:`reset`, when the opponent starts).

Reward: at the end only, +1 for a win, -1 for a loss, 0 for a draw (``reward="points"``: plus
or minus the points of R4.1).

An illegal action (one the mask forbids) ends the game at once as a loss: ``terminated`` is
true, the reward is ``illegal_reward`` (-1), the game is left as it was, and ``info`` holds
``"illegal_action"`` with the move and the reason.
"""

from __future__ import annotations

from typing import Any, Literal

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bot_registry import make_bot
from ..bots.base import Bot, BotError
from ..bots.reference import ReferenceBot, reference_move
from ..engine.game import Game
from ..engine.moves import ALL_MOVES, Move
from ..engine.rules import Rules
from .actions import NUM_ACTIONS
from .encoding import (
    OBSERVATION_SIZE,
    ObservationEncoder,
    action_mask,
    observation_high,
    observation_string,
)

ENV_ID = "spite_malice/SpiteMalice-v0"
_NO_MOVES = bytes(NUM_ACTIONS)
_ENDED = bytes([1]) * NUM_ACTIONS  # the mask once the episode is over: see the module's doc
DRAW = -1
"""``info["outcome"]["winner"]`` of a drawn game (R4.2, R4.3)."""


class SpiteMaliceEnv(gym.Env[npt.NDArray[np.float32], np.int64]):
    """Spite & Malice for one agent against ``opponent`` (a bot name or a :class:`Bot`)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        opponent: str | Bot = "reference",
        *,
        seat: int | None = None,
        rules: Rules = Rules.STANDARD,
        reward: Literal["win", "points"] = "win",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if seat not in (None, 0, 1):
            raise ValueError(f"seat must be 0, 1 or None (random each game), not {seat!r}")
        if reward not in ("win", "points"):
            raise ValueError(f"reward must be 'win' or 'points', not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
        self.rules = rules
        self.fixed_seat = seat
        self.reward_kind = reward
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            0.0, observation_high(rules.deck_size), (OBSERVATION_SIZE,), np.float32
        )
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._opponent_name = opponent if isinstance(opponent, str) else None
        if isinstance(opponent, str):
            make_bot(opponent).close()  # fail now on an unknown name
            self.opponent: Bot | None = None
        else:
            self.opponent = opponent
        self.seat = 0
        self.game = Game.new(0, rules, recording=False)
        self._encoder = ObservationEncoder(self.game)
        self._legal: bytes | bytearray = _NO_MOVES  # legal_move_flags() of the agent's seat
        self._done = True

    # ----------------------------------------------------------------- gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal a new game and play the opponent's moves until it is the agent's turn.

        ``options`` may hold ``{"game_seed": n}`` to deal ``Game.new(n)`` exactly as the engine
        does, ``{"position": ...}`` (a position of ``notation.md``) to start from, and
        ``{"seat": 0 or 1}`` to choose the agent's seat for this game.

        A deal the opponent wins before the agent's first move is no episode: another is
        dealt (``info["dealt_again"]`` counts them); for a game fixed by ``game_seed`` or
        ``position`` that is a ``ValueError``."""
        super().reset(seed=seed)
        rng = self.np_random
        fixed = options is not None and (
            options.get("game_seed") is not None or "position" in options
        )
        dealt_again = 0
        while True:
            self._deal(rng, options)
            if self.game.outcome is None:
                break
            # The opponent won before the agent's first move (possible with short pay-off
            # piles): that is no episode; deal again, unless the game was asked for.
            if fixed:
                raise ValueError("this game ends before the agent's first move")
            dealt_again += 1
        self._done = False
        info = self._info()
        if dealt_again:
            info["dealt_again"] = dealt_again
        return self._encoder.encode(self.seat), info

    def _deal(self, rng: np.random.Generator, options: dict[str, Any] | None) -> None:
        """Deal this game as :meth:`reset` was asked and play the opponent's first moves."""
        game_seed = int(rng.integers(2**63))
        if options and options.get("game_seed") is not None:
            game_seed = int(options["game_seed"])
        self.seat = int(rng.integers(2)) if self.fixed_seat is None else self.fixed_seat
        if options and options.get("seat") is not None:
            if options["seat"] not in (0, 1):
                raise ValueError(f"options seat must be 0 or 1, not {options['seat']!r}")
            self.seat = int(options["seat"])
        if options and "position" in options:
            self.game = Game.from_position(options["position"], seed=game_seed)
            self.game.recording = False
        else:
            self.game = Game.new(game_seed, self.rules, recording=False)
        if self._opponent_name is not None:
            if self.opponent is not None:
                self.opponent.close()
            self.opponent = make_bot(self._opponent_name, seed=int(rng.integers(2**63)))
        assert self.opponent is not None
        self._encoder.reset(self.game)
        self.opponent.new_game(1 - self.seat)
        self._play_opponent()

    def step(
        self, action: int | np.int64
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        game = self.game
        if self._done:
            raise RuntimeError("the episode has ended; call reset()")
        index = int(action)
        if index < 0 or index >= NUM_ACTIONS or not self._legal[index]:
            return self._illegal(index)
        move = ALL_MOVES[index]
        game.apply(move)
        self._encoder.moved(self.seat, move)
        self._play_opponent()
        self._done = game.outcome is not None
        return (
            self._encoder.encode(self.seat),
            self._reward(),
            game.outcome is not None,
            False,
            (self._info()),
        )

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = observation_string(self.game.observation(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions as 144 booleans (all true once the episode is over), the method
        sb3-contrib's ``MaskablePPO`` calls."""
        flags = _ENDED if self._done else self._legal
        return np.frombuffer(flags, dtype=np.bool_).copy()

    def close(self) -> None:
        if self.opponent is not None:
            self.opponent.close()
            if self._opponent_name is not None:
                self.opponent = None

    # ----------------------------------------------------------------- the game

    def _play_opponent(self) -> None:
        """Play the opponent's moves until it is the agent's turn or the game is over."""
        game = self.game
        opponent = self.opponent
        assert opponent is not None
        fast = type(opponent) is ReferenceBot  # same moves, without building observations
        seat = 1 - self.seat
        while game.outcome is None and game.to_move == seat:
            if fast:
                move: Move = reference_move(game)
            else:
                observation = game.observation(seat)
                move = opponent.choose(observation)
                if move not in observation.legal_moves:
                    name = getattr(opponent, "name", type(opponent).__name__)
                    raise BotError(name, f"illegal move {move}: {game.why_illegal(move)}")
            game.apply(move)
            self._encoder.moved(seat, move)
        self._legal = game.legal_move_flags()  # all 0 when the game is over

    def _reward(self) -> float:
        outcome = self.game.outcome
        if outcome is None or outcome.winner is None:
            return 0.0
        value = 1.0 if self.reward_kind == "win" else float(outcome.points)
        return value if outcome.winner == self.seat else -value

    def _info(self) -> dict[str, Any]:
        flags = _ENDED if self._done else self._legal
        info: dict[str, Any] = {"action_mask": action_mask(flags), "seat": self.seat}
        outcome = self.game.outcome
        if outcome is not None:
            info["outcome"] = {
                "winner": DRAW if outcome.winner is None else outcome.winner,
                "draw": outcome.winner is None,
                "points": outcome.points,
                "reason": str(outcome.reason),
            }
        return info

    def _illegal(
        self, action: int
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        note: dict[str, str | None]
        if 0 <= action < NUM_ACTIONS:
            move = ALL_MOVES[action]
            note = {"move": move.notation, "reason": self.game.why_illegal(move) or "not legal"}
        else:
            note = {"move": None, "reason": f"no action {action}; actions run 0 to 143"}
        self._legal = _NO_MOVES
        self._done = True
        info = self._info()
        info["illegal_action"] = note
        return self._encoder.encode(self.seat), float(self.illegal_reward), True, False, info


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (done on import; harmless to repeat)."""
    if ENV_ID not in gym.registry:
        gym.register(id=ENV_ID, entry_point=f"{__name__}:SpiteMaliceEnv")


register()

__all__ = ["DRAW", "ENV_ID", "SpiteMaliceEnv", "register"]
