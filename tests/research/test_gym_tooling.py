"""The Gymnasium environment with the tools researchers train with: Gymnasium's vector
environments (sync and async, draws beside wins) and sb3-contrib's MaskablePPO."""

from __future__ import annotations

from typing import Any

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from spite_malice.engine import Rules  # noqa: E402
from spite_malice.research.gym_env import DRAW, SpiteMaliceEnv  # noqa: E402

# Five-card pay-off piles: short games, and random play draws (R4.2) often beside wins.
_SHORT = Rules(payoff_size=5)


def _make_env() -> SpiteMaliceEnv:
    return SpiteMaliceEnv(opponent="reference", rules=_SHORT)


def _play_random_masked(envs: Any, steps: int) -> list[dict[str, Any]]:
    """Play a random legal action in every environment; return each finished game's outcome."""
    rng = np.random.default_rng(7)
    _observations, info = envs.reset(seed=3)
    finished: list[dict[str, Any]] = []
    for _ in range(steps):
        masks = info["action_mask"]
        assert masks.shape == (envs.num_envs, 144)
        # Never an empty mask, even for an environment whose game just ended.
        assert masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        _observations, _rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        if "outcome" in info:
            outcome = info["outcome"]
            for env_number in np.flatnonzero(info["_outcome"]):
                assert terminated[env_number]
                finished.append(
                    {
                        "winner": int(outcome["winner"][env_number]),
                        "draw": bool(outcome["draw"][env_number]),
                    }
                )
    return finished


@pytest.mark.parametrize("vector", ["sync", "async"])
def test_vector_environments_stack_draws_beside_wins(vector: str) -> None:
    makers = [_make_env] * 4
    if vector == "sync":
        envs = gym.vector.SyncVectorEnv(makers)
    else:
        envs = gym.vector.AsyncVectorEnv(makers, context="spawn")
    try:
        finished = _play_random_masked(envs, 400)
    finally:
        envs.close()
    # Random play against first-fit: mostly losses, some draws; both kinds must have stacked.
    assert any(game["draw"] for game in finished), finished
    assert any(not game["draw"] for game in finished), finished
    for game in finished:
        assert (game["winner"] == DRAW) == game["draw"]
        assert game["winner"] in (DRAW, 0, 1)


def test_action_masks_match_the_info_mask_and_the_engine() -> None:
    e = _make_env()
    _observation, info = e.reset(seed=11)
    while True:
        masks = e.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (144,)
        assert np.array_equal(masks, info["action_mask"].astype(bool))
        assert np.flatnonzero(masks).tolist() == [move.index for move in e.game.legal_moves()]
        action = int(np.flatnonzero(masks)[0])
        _observation, _reward, terminated, _truncated, info = e.step(action)
        if terminated:
            break
    # The game is over: nothing is legal, and the mask is all true (see the module's doc).
    assert e.game.outcome is not None and not e.game.legal_moves()
    assert e.action_masks().all() and info["action_mask"].all()


def test_maskable_ppo_learns_a_few_steps_through_action_masks() -> None:
    pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.env_util import make_vec_env

    vec = make_vec_env(_make_env, n_envs=2, seed=5)
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", vec, n_steps=64, batch_size=32, n_epochs=1, seed=5, device="cpu"
    )
    model.learn(total_timesteps=128)
    assert model.num_timesteps >= 128
    # The trained policy, asked with the mask, picks only legal actions.
    e = _make_env()
    observation, _info = e.reset(seed=9)
    for _ in range(40):
        masks = e.action_masks()
        action, _state = model.predict(observation, action_masks=masks, deterministic=True)
        assert masks[int(action)]
        observation, _reward, terminated, _truncated, _info = e.step(int(action))
        if terminated:
            observation, _info = e.reset()
    vec.close()
