"""The PettingZoo AEC environment: PettingZoo's own checkers, and first-fit self-play through
it agreeing with the engine move for move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

from spite_malice.bots import reference_move  # noqa: E402
from spite_malice.engine import Game, Rules  # noqa: E402
from spite_malice.research.actions import first_fit_action  # noqa: E402
from spite_malice.research.encoding import (  # noqa: E402
    encode_game,
    first_fit_from_mask,
    side_empty,
)
from spite_malice.research.pettingzoo_env import env, raw_env  # noqa: E402


def _policy(observation: dict[str, Any]) -> int:
    legal = np.flatnonzero(observation["action_mask"]).tolist()
    return first_fit_action(legal, side_empty(observation["observation"]))


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test() -> None:
    api_test(env(), num_cycles=400)


def test_pettingzoo_seed_test() -> None:
    seed_test(env, num_cycles=400)


def _engine_game(seed: int, rules: Rules) -> Game:
    game = Game.new(seed, rules, recording=False)
    while not game.is_over:
        game.apply(reference_move(game))
    return game


def _policy_from_mask(observation: dict[str, Any]) -> int:
    return first_fit_from_mask(observation["action_mask"], observation["observation"])


@pytest.mark.parametrize(
    ("rules", "reward", "policy"),
    [
        (Rules.STANDARD, "win", _policy),
        (Rules(payoff_size=8), "points", _policy),
        (Rules.STANDARD, "win", _policy_from_mask),
    ],
)
def test_first_fit_self_play_matches_the_engine(
    rules: Rules, reward: str, policy: Callable[[dict[str, Any]], int]
) -> None:
    e = env(rules=rules, reward=reward)
    e.reset(seed=11)
    outcomes = []
    for _ in range(5):
        e.reset()
        totals = dict.fromkeys(e.possible_agents, 0.0)
        actions: list[int] = []
        for agent in e.agent_iter():
            observation, reward_now, termination, truncation, info = e.last()
            totals[agent] += reward_now
            if termination or truncation:
                e.step(None)
                continue
            seat = int(agent[-1])
            assert np.array_equal(observation["observation"], encode_game(e.unwrapped.game, seat))
            action = policy(observation)
            actions.append(action)
            e.step(action)
        game = e.unwrapped.game
        engine = _engine_game(game.seed, rules)
        assert [m.index for m in engine.moves] == actions
        outcome = engine.outcome
        assert outcome is not None and outcome == game.outcome
        assert info["outcome"] == outcome.to_json()
        if outcome.winner is None:
            assert totals == {"player_0": 0.0, "player_1": 0.0}
        else:
            value = 1.0 if reward == "win" else float(outcome.points)
            assert totals[f"player_{outcome.winner}"] == value
            assert totals[f"player_{1 - outcome.winner}"] == -value
        outcomes.append(outcome.winner)
    assert any(winner is not None for winner in outcomes)


def test_the_mask_belongs_to_the_agent_to_move() -> None:
    e = raw_env()
    e.reset(seed=3)
    mover = e.agent_selection
    other = "player_1" if mover == "player_0" else "player_0"
    mask = e.observe(mover)["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (144,)
    assert np.flatnonzero(mask).tolist() == [m.index for m in e.game.legal_moves()]
    assert not e.observe(other)["action_mask"].any()


def test_an_illegal_action_ends_the_game_against_the_offender() -> None:
    e = env()
    e.reset(seed=5)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0
    assert sum(e.rewards.values()) == -1.0
    assert e.infos[agent]["illegal_action"]["agent"] == agent
    for remaining in e.agent_iter():
        e.step(None)
        assert remaining in e.possible_agents
    assert not e.agents


def test_starting_from_a_position() -> None:
    game = Game.new(9)
    game.play(reference_move(game))
    e = raw_env()
    e.reset(seed=1, options={"position": game.to_position()})
    assert e.game.to_position() == game.to_position()


@pytest.mark.parametrize("action", [500, 144, -1, np.int64(-3), None])
def test_an_action_out_of_range_is_illegal_too(action: Any) -> None:
    e = env()
    e.reset(seed=6)
    agent = e.agent_selection
    e.step(action)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0
    assert e.infos[agent]["illegal_action"]["move"] is None
    assert e.unwrapped.game.moves == []


def _library_wrapped(**kwargs: Any) -> Any:
    """Our environment in PettingZoo's own OrderEnforcingWrapper, to compare with env()."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


def _outcome_of(call: Callable[[], object]) -> tuple[str, str]:
    try:
        call()
    except Exception as error:  # the error is what is compared
        return type(error).__name__, str(error)
    return "no error", ""


_BEFORE_RESET: dict[str, Callable[[Any], object]] = {
    "step": lambda e: e.step(0),
    "observe": lambda e: e.observe("player_0"),
    "last": lambda e: e.last(),
    "agent_iter": lambda e: e.agent_iter(),
    "render": lambda e: e.render(),
    **{
        name: (lambda e, name=name: getattr(e, name))
        for name in (
            "agents",
            "agent_selection",
            "rewards",
            "terminations",
            "truncations",
            "infos",
            "num_agents",
        )
    },
}


@pytest.mark.parametrize("call", sorted(_BEFORE_RESET))
def test_env_refuses_what_pettingzoos_wrapper_refuses_before_reset(call: str) -> None:
    ours = _outcome_of(lambda: _BEFORE_RESET[call](env()))
    assert ours[0] in ("AssertionError", "AttributeError")
    assert ours == _outcome_of(lambda: _BEFORE_RESET[call](_library_wrapped()))


def test_env_is_pettingzoos_order_enforcing_wrapper() -> None:
    e = env()
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert str(e) == str(_library_wrapped()) == "spite_malice_v0"
    e.reset(seed=1)
    assert isinstance(e.unwrapped, raw_env().__class__)
    assert e.num_agents == 2 and e.max_num_agents == 2


def test_env_plays_exactly_as_with_pettingzoos_wrapper() -> None:
    def play(e: Any) -> list[Any]:
        e.reset(seed=4)
        seen: list[Any] = []
        for game in range(3):
            if game:
                e.reset()
            for agent in e.agent_iter():
                observation, reward, termination, truncation, info = e.last()
                seen.append(
                    (
                        agent,
                        observation["observation"].tolist(),
                        observation["action_mask"].tolist(),
                        reward,
                        termination,
                        truncation,
                        info,
                        dict(e.rewards),
                        dict(e.terminations),
                        list(e.agents),
                    )
                )
                e.step(None if termination or truncation else _policy(observation))
            seen.append(list(e.agents))
        return seen

    assert play(env(rules=Rules.QUICK)) == play(_library_wrapped(rules=Rules.QUICK))


def test_env_warns_of_a_step_after_the_end_and_needs_a_step_per_agent(
    caplog: pytest.LogCaptureFixture,
) -> None:
    for e in (env(), _library_wrapped()):
        e.reset(seed=2)
        e.step(500)  # out of range: the game ends
        for _agent in e.agent_iter():
            e.step(None)
        caplog.clear()
        e.step(None)
        assert "step() called after all agents are terminated" in caplog.text
        e.reset(seed=2)
        agents = iter(e.agent_iter())
        next(agents)
        with pytest.raises(AssertionError, match="step"):
            next(agents)


def test_observations_handed_out_never_change_afterwards() -> None:
    e = env()
    e.reset(seed=7)
    given = []
    for agent in e.agent_iter():
        observation, _, termination, truncation, _ = e.last()
        other = e.observe("player_1" if agent == "player_0" else "player_0")
        for handed in (observation, other):
            given.append((handed, {key: array.copy() for key, array in handed.items()}))
        assert observation["observation"] is not other["observation"]
        assert observation["action_mask"].flags.writeable
        e.step(None if termination or truncation else _policy(observation))
    assert len(given) > 200
    for handed, copy in given:
        assert all(np.array_equal(handed[key], copy[key]) for key in copy)


def test_a_numpy_integer_action_is_played() -> None:
    e = env()
    e.reset(seed=8)
    observation, *_ = e.last()
    action = np.flatnonzero(observation["action_mask"])[0]  # a numpy integer
    before = len(e.unwrapped.game.moves)
    e.step(action)
    assert len(e.unwrapped.game.moves) == before + 1
    assert not any(e.terminations.values())
