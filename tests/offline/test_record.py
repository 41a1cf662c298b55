"""The server's checks of a match played offline (docs/offline.md): it replays the record
step by step from its seed and refuses, with a plain reason, what does not replay."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from spite_malice.offline import RecordRefused, replay_record

from .conftest import new_session, play_out


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    session = new_session("medium", seed=21)
    play_out(session)
    return session.record()


def test_a_played_match_replays_with_its_results(record: dict[str, Any]) -> None:
    replayed = replay_record(record)
    assert replayed.match_over and len(replayed.games) == 1
    game = replayed.games[0]
    assert game.outcome in ("win", "loss", "draw")
    assert (game.points_for > 0) == (game.outcome == "win")
    assert replayed.match_won == (game.outcome == "win")
    assert replayed.steps == record["steps"]


def _refused(record: dict[str, Any]) -> str:
    with pytest.raises(RecordRefused) as refused:
        replay_record(record)
    reason = refused.value.reason
    assert reason and "Traceback" not in reason and "{" not in reason
    return reason


def _person_move(record: dict[str, Any]) -> int:
    return next(
        i for i, step in enumerate(record["steps"]) if step["kind"] == "move" and step["seat"] == 0
    )


def test_an_illegal_move_is_refused(record: dict[str, Any]) -> None:
    forged = copy.deepcopy(record)
    forged["steps"][_person_move(forged)]["move"] = "P-C9"
    assert "does not replay" in _refused(forged)


def test_a_deal_not_from_the_seed_is_refused(record: dict[str, Any]) -> None:
    forged = copy.deepcopy(record)
    forged["steps"][0]["seed"] = str(int(forged["steps"][0]["seed"]) + 1)
    assert "seed" in _refused(forged)


def test_another_seed_does_not_replay_the_moves(record: dict[str, Any]) -> None:
    forged = copy.deepcopy(record)
    forged["seed"] = str(int(forged["seed"]) + 1)
    _refused(forged)


def test_a_computer_move_it_would_not_play_is_refused() -> None:
    session = new_session("medium", seed=8)
    while not session.computer_to_move:
        move = session.table.observation(0).legal_moves[-1]  # a discard: the turn ends
        session.handle({"type": "move", "id": 1, "move": str(move)})
    observation = session.table.observation(1)
    chosen = session.table.think()
    other = next(m for m in observation.legal_moves if m != chosen)
    session.handle({"type": "noop"})
    forged = session.record()
    step = {"kind": "move", "game": 1, "ply": session.table.plies, "seat": 1}
    forged["steps"].append({**step, "move": str(other), "seed": None})
    assert "computer" in _refused(forged)


def test_steps_out_of_order_are_refused(record: dict[str, Any]) -> None:
    forged = copy.deepcopy(record)
    forged["steps"][3]["ply"] += 5
    assert "out of order" in _refused(forged)


def test_the_computer_cannot_resign_or_undo(record: dict[str, Any]) -> None:
    forged = copy.deepcopy(record)
    index = _person_move(forged)
    forged["steps"][index] = {**forged["steps"][index], "kind": "resign", "seat": 1, "move": None}
    assert "could not be read" in _refused(forged)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("format", 99),
        ("id", "../etc"),
        ("level", "grandmaster"),
        ("rules", {"payoff_size": 500}),
        ("seed", -1),
        ("seed", "7x"),
        ("seed", str(2**63)),
        ("steps", []),
        ("steps", [{"kind": "fly"}]),
        ("steps", "moves"),
    ],
)
def test_unreadable_records_are_refused(record: dict[str, Any], field: str, value: Any) -> None:
    _refused({**record, field: value})


def test_not_a_record_is_refused() -> None:
    _refused([1, 2, 3])  # type: ignore[arg-type]
