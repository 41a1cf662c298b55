"""The Gymnasium environment: Gymnasium's own checker, illegal actions, and first-fit play
against the reference bot agreeing with the engine."""

from __future__ import annotations

from typing import Literal

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from spite_malice.bots import LEVELS, Bot, reference_move  # noqa: E402
from spite_malice.engine import Game, Move, Observation, Rules  # noqa: E402
from spite_malice.research.actions import first_fit_action  # noqa: E402
from spite_malice.research.encoding import (  # noqa: E402
    encode_game,
    first_fit_from_mask,
    side_empty,
)
from spite_malice.research.gym_env import ENV_ID, SpiteMaliceEnv  # noqa: E402


class FirstLegal(Bot):
    """A plain bot (not the reference one): the first legal move."""

    name = "first legal"

    def choose(self, observation: Observation) -> Move:
        return observation.legal_moves[0]


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_check_env() -> None:
    check_env(SpiteMaliceEnv())
    check_env(SpiteMaliceEnv(opponent=FirstLegal(), seat=1, reward="points"))


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_registered_with_gymnasium() -> None:
    made = gym.make(ENV_ID, opponent="reference")
    observation, info = made.reset(seed=1)
    assert made.observation_space.contains(observation)
    assert info["action_mask"].shape == (144,)
    made.close()


# The product's own bots; other test modules register misbehaving ones of their own.
@pytest.mark.parametrize("opponent", sorted({*LEVELS, "reference"}))
def test_every_level_can_be_the_opponent(opponent: str) -> None:
    e = SpiteMaliceEnv(opponent=opponent, rules=Rules(payoff_size=5))
    observation, info = e.reset(seed=2)
    for _ in range(30):
        action = first_fit_action(
            np.flatnonzero(info["action_mask"]).tolist(), side_empty(observation)
        )
        observation, _reward, terminated, _truncated, info = e.step(action)
        if terminated:
            break
    e.close()


def test_unknown_opponent_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        SpiteMaliceEnv(opponent="nobody-knows-me")


@pytest.mark.parametrize(
    ("reward", "from_mask"), [("win", False), ("points", False), ("win", True)]
)
def test_first_fit_against_reference_matches_the_engine(
    reward: Literal["win", "points"], from_mask: bool
) -> None:
    e = SpiteMaliceEnv(reward=reward)
    observation, info = e.reset(seed=21)
    seats = set()
    for game_number in range(6):
        if game_number:
            observation, info = e.reset()
        seats.add(info["seat"])
        total = 0.0
        while True:
            assert np.array_equal(observation, encode_game(e.game, info["seat"]))
            if from_mask:
                action = first_fit_from_mask(info["action_mask"], observation)
            else:
                legal = np.flatnonzero(info["action_mask"]).tolist()
                action = first_fit_action(legal, side_empty(observation))
            observation, step_reward, terminated, truncated, info = e.step(action)
            total += step_reward
            assert not truncated
            if terminated:
                break
        # Both sides played the reference policy: the engine plays the same game.
        engine = Game.new(e.game.seed, recording=False)
        while not engine.is_over:
            engine.apply(reference_move(engine))
        assert engine.moves == e.game.moves
        outcome = engine.outcome
        assert outcome is not None
        assert info["outcome"] == {
            "winner": -1 if outcome.winner is None else outcome.winner,
            "draw": outcome.winner is None,
            "points": outcome.points,
            "reason": str(outcome.reason),
        }
        if outcome.winner is None:
            assert total == 0.0
        else:
            value = 1.0 if reward == "win" else float(outcome.points)
            assert total == (value if outcome.winner == info["seat"] else -value)
    assert seats == {0, 1}


def test_an_illegal_action_is_a_loss_and_leaves_the_game_alone() -> None:
    e = SpiteMaliceEnv(seat=0)
    _, info = e.reset(seed=4)
    before = e.game.to_position()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _observation, reward, terminated, truncated, info = e.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"]["move"] is not None
    # Over: no action is taken, and the mask leaves a masked sampler something to pick.
    assert info["action_mask"].all() and e.action_masks().all()
    assert e.game.to_position() == before
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)


def test_the_same_seed_gives_the_same_games() -> None:
    def run(seed: int) -> list[int]:
        e = SpiteMaliceEnv()
        observation, info = e.reset(seed=seed)
        actions = []
        for _ in range(3):
            while True:
                action = first_fit_action(
                    np.flatnonzero(info["action_mask"]).tolist(), side_empty(observation)
                )
                actions.append(action)
                observation, _, terminated, _, info = e.step(action)
                if terminated:
                    break
            observation, info = e.reset()
        return actions

    assert run(8) == run(8)


def test_an_outside_program_can_be_the_opponent() -> None:
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "first_fit_bot.py"
    e = SpiteMaliceEnv(opponent=str(example), rules=Rules(payoff_size=6))
    observation, info = e.reset(seed=3)
    try:
        while True:
            legal = np.flatnonzero(info["action_mask"]).tolist()
            observation, _, terminated, _, info = e.step(
                first_fit_action(legal, side_empty(observation))
            )
            if terminated:
                break
        # The example plays the reference policy: the engine plays the same game.
        engine = Game.new(e.game.seed, Rules(payoff_size=6), recording=False)
        while not engine.is_over:
            engine.apply(reference_move(engine))
        assert engine.moves == e.game.moves
    finally:
        e.close()


def test_observations_and_masks_handed_out_never_change_afterwards() -> None:
    e = SpiteMaliceEnv(opponent=FirstLegal(), seat=0)
    observation, info = e.reset(seed=5)
    given = []
    while True:
        mask = info["action_mask"]
        assert np.flatnonzero(mask).tolist() == [move.index for move in e.game.legal_moves()]
        assert mask.flags.writeable and observation.flags.writeable
        given.append((observation, observation.copy(), mask, mask.copy()))
        action = first_fit_action(np.flatnonzero(mask).tolist(), side_empty(observation))
        observation, _, terminated, _, info = e.step(action)
        if terminated:
            break
    assert len(given) > 20
    for observation, observation_copy, mask, mask_copy in given:
        assert np.array_equal(observation, observation_copy)
        assert np.array_equal(mask, mask_copy)
