"""Train a masked PPO agent on Spite & Malice: first against ``reference``, then ``easy``.

A baseline to beat, on the CPU, in minutes. It needs the ``learn-rl`` extra (PyTorch,
stable-baselines3, sb3-contrib; install the CPU build of torch first, see
docs/research.md)::

    python examples/train_maskable_ppo.py --out training-run

Every ``--eval-every`` steps of training the greedy policy (the most likely legal action)
plays ``--eval-games`` games against each opponent, on the same deals every time, and the
win rates (wins over all games; draws and losses are not wins) go to ``curve.csv`` and
``learning_curve.png`` in ``--out``, beside the trained model (``model.zip``). Step 0 is the
untrained network: the "before" of the curve.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env

from spite_malice.engine import Rules
from spite_malice.research.encoding import SECTIONS
from spite_malice.research.gym_env import SpiteMaliceEnv

OPPONENTS = ("reference", "easy")
EVAL_SEED = 900_000  # evaluation deals: the same ones at every point of the curve


def _section_at(name: str) -> int:
    """Where a piece of the observation tensor starts (docs/research.md, Observations)."""
    at = 0
    for section, shape in SECTIONS:
        if section == name:
            return at
        at += int(np.prod(shape))
    raise KeyError(name)


MY_PAYOFF = _section_at("my_payoff")
OPPONENT_PAYOFF = _section_at("opponent_payoff")


class PayoffProgress(gym.Wrapper[Any, Any, Any, Any]):
    """Potential-based shaping (Ng et al., 1999): the reward gains ``gamma * phi(s') - phi(s)``
    with ``phi = (opponent's pay-off cards - mine) / pay-off size``, so that the agent hears
    of progress before its first win. A draw is worth ``draw_reward`` (-1 by default: as bad
    as a loss, since an agent paid 0 for a draw learns to run the stock out, R4.2, rather
    than to win). Evaluation counts the bare outcome."""

    def __init__(self, env: SpiteMaliceEnv, gamma: float, draw_reward: float) -> None:
        super().__init__(env)
        self.gamma = gamma
        self.draw_reward = draw_reward
        self.scale = 1.0 / env.rules.payoff_size
        self.potential = 0.0

    def _phi(self, observation: npt.NDArray[np.float32]) -> float:
        return float(observation[OPPONENT_PAYOFF] - observation[MY_PAYOFF]) * self.scale

    def reset(self, **kwargs: Any) -> Any:
        observation, info = self.env.reset(**kwargs)
        self.potential = self._phi(observation)
        return observation, info

    def step(self, action: Any) -> Any:
        observation, reward, terminated, truncated, info = self.env.step(action)
        potential = 0.0 if terminated else self._phi(observation)  # phi is 0 at the end
        if terminated and info.get("outcome", {}).get("draw"):
            reward = self.draw_reward
        reward = float(reward) + self.gamma * potential - self.potential
        self.potential = potential
        return observation, reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined, no-any-return]


@dataclass
class Point:
    """One point of the learning curve."""

    steps: int
    training_against: str
    seconds: float
    wall_seconds: float
    win_rate: dict[str, float]
    draw_rate: dict[str, float]


def evaluate(model: MaskablePPO, opponent: str, games: int, rules: Rules) -> tuple[float, float]:
    """The greedy policy's (win rate, draw rate) over ``games`` deals against ``opponent``."""
    env = SpiteMaliceEnv(opponent=opponent, rules=rules)
    wins = draws = 0
    for game in range(games):
        observation, _info = env.reset(seed=EVAL_SEED + game)
        while True:
            action, _state = model.predict(
                observation, action_masks=env.action_masks(), deterministic=True
            )
            observation, reward, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                break
        draws += bool(info["outcome"]["draw"])
        wins += reward > 0
    env.close()
    return wins / games, draws / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("training-run"))
    parser.add_argument("--steps", type=int, default=100_000, help="training steps per opponent")
    parser.add_argument("--eval-every", type=int, default=20_000)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--envs", type=int, default=8, help="environments played side by side")
    parser.add_argument("--payoff-size", type=int, default=20, help="R1.2's pay-off pile size")
    parser.add_argument("--draw-reward", type=float, default=-1.0, help="a draw's reward")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (CPU)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    rules = Rules(payoff_size=args.payoff_size)
    args.out.mkdir(parents=True, exist_ok=True)

    gamma = 0.997

    def env_against(opponent: str) -> Any:
        return make_vec_env(
            lambda: PayoffProgress(
                SpiteMaliceEnv(opponent=opponent, rules=rules), gamma, args.draw_reward
            ),
            n_envs=args.envs,
            seed=args.seed,
        )

    model = MaskablePPO(
        "MlpPolicy",
        env_against(OPPONENTS[0]),
        n_steps=512,
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=gamma,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    started = time.process_time()
    wall_started = time.perf_counter()
    curve: list[Point] = []

    def record(training_against: str) -> None:
        rates = {name: evaluate(model, name, args.eval_games, rules) for name in OPPONENTS}
        point = Point(
            model.num_timesteps,
            training_against,
            time.process_time() - started,
            time.perf_counter() - wall_started,
            {name: rate[0] for name, rate in rates.items()},
            {name: rate[1] for name, rate in rates.items()},
        )
        curve.append(point)
        shown = ", ".join(
            f"{name} {rate[0]:.1%} won ({rate[1]:.1%} drawn)" for name, rate in rates.items()
        )
        print(
            f"{point.steps:>8} steps {point.wall_seconds:6.0f} s ({point.seconds:5.0f} s CPU)  "
            f"{shown}",
            flush=True,
        )

    record("-")
    for opponent in OPPONENTS:
        if opponent != OPPONENTS[0]:
            model.set_env(env_against(opponent))
        trained = 0
        while trained < args.steps:
            chunk = min(args.eval_every, args.steps - trained)
            model.learn(total_timesteps=chunk, reset_num_timesteps=False)
            trained += chunk
            record(opponent)
    model.save(args.out / "model.zip")
    write_curve(curve, args.out)
    print(
        f"{time.perf_counter() - wall_started:.0f} s in all "
        f"({time.process_time() - started:.0f} s CPU); curve in {args.out}"
    )
    return 0


def write_curve(curve: list[Point], out: Path) -> None:
    """``curve.csv`` and ``learning_curve.png``: win rates against each opponent by step."""
    with (out / "curve.csv").open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(
            [
                "steps",
                "training_against",
                "cpu_seconds",
                "wall_seconds",
                *(f"win_{name}" for name in OPPONENTS),
                *(f"draw_{name}" for name in OPPONENTS),
            ]
        )
        for point in curve:
            writer.writerow(
                [
                    point.steps,
                    point.training_against,
                    f"{point.seconds:.1f}",
                    f"{point.wall_seconds:.1f}",
                    *(f"{point.win_rate[name]:.4f}" for name in OPPONENTS),
                    *(f"{point.draw_rate[name]:.4f}" for name in OPPONENTS),
                ]
            )
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4), dpi=120)
    steps = np.array([point.steps for point in curve])
    for name in OPPONENTS:
        axes.plot(
            steps, [100 * point.win_rate[name] for point in curve], marker="o", label=f"vs {name}"
        )
    switch = next((p.steps for p in curve if p.training_against == OPPONENTS[1]), None)
    if switch is not None:
        last_reference = max(p.steps for p in curve if p.training_against in ("-", OPPONENTS[0]))
        axes.axvline(last_reference, color="grey", linestyle="--", linewidth=1)
        axes.text(last_reference, 2, f"  training against {OPPONENTS[1]} from here", color="grey")
    axes.set_xlabel("training steps (agent decisions)")
    axes.set_ylabel("games won by the greedy policy (%)")
    axes.set_title("MaskablePPO on Spite & Malice")
    axes.set_ylim(0, 100)
    axes.grid(alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(out / "learning_curve.png")
    plt.close(figure)


if __name__ == "__main__":
    sys.exit(main())
