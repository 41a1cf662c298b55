"""Every move of the computer in a match played offline is the one its level plays there from
the match's seed (docs/offline.md), at every level: the server thinks each one again and
refuses a record whose computer played anything else, also when the page resumed the match
from storage in the middle of it (a fresh computer, with the same seed)."""

from __future__ import annotations

from typing import Any

import pytest

from spite_malice.bots import ReferenceBot
from spite_malice.engine.rules import Rules
from spite_malice.offline import OfflineSession, RecordRefused, replay_record
from spite_malice.offline.record import new_table
from spite_malice.table import Step

from .conftest import new_session

LEVELS = ("easy", "medium", "hard", "expert")
RESUME_EVERY = 7
"""Every so many steps the match is closed and opened again from its record, as the page
does when the app is closed (so also in the middle of the computer's turn)."""


def _play_resumed(level: str, seed: int, limit: int = 5000) -> dict[str, Any]:
    """A match of one short game at ``level``, the person played by the reference bot,
    closed and resumed every few steps; its record."""
    session = new_session(level, seed=seed)
    person = ReferenceBot(3)
    for count in range(limit):
        record = session.record()
        if record["over"]:
            session.table.close()
            return record
        if count % RESUME_EVERY == RESUME_EVERY - 1:
            session.table.close()
            session = OfflineSession.restore(session.room, record)
        if session.computer_to_move:
            session.computer_move()
        else:
            move = person.choose(session.table.observation(0))
            session.handle({"type": "move", "id": count, "move": str(move)})
    raise AssertionError("the match did not end")


def _step(raw: dict[str, Any]) -> Step:
    seed = None if raw["seed"] is None else int(raw["seed"])
    return Step(raw["kind"], raw["game"], raw["ply"], raw["seat"], raw["move"], seed)


def _changed_computer_move(record: dict[str, Any], nth: int) -> dict[str, Any]:
    """The record up to the computer's ``nth`` move with a choice, that move changed to
    another legal one."""
    rules = Rules.from_json(record["rules"])
    table = new_table(record["level"], rules, int(record["seed"]), "Ann")
    seen = 0
    try:
        for index, raw in enumerate(record["steps"]):
            if raw["kind"] == "move" and raw["seat"] == 1:
                legal = [str(m) for m in table.observation(1).legal_moves]
                if len(legal) > 1:
                    seen += 1
                    if seen == nth:
                        other = next(m for m in legal if m != raw["move"])
                        steps = [*record["steps"][:index], {**raw, "move": other}]
                        return {**record, "steps": steps}
            table.apply(_step(raw))
    finally:
        table.close()
    raise AssertionError(f"the computer had fewer than {nth} moves with a choice")


@pytest.mark.parametrize("level", LEVELS)
def test_an_honest_match_replays_at_every_level_resumed_or_not(level: str) -> None:
    record = _play_resumed(level, seed=31)
    replayed = replay_record(record)
    assert replayed.match_over and len(replayed.games) == 1
    assert replayed.steps == record["steps"]


@pytest.mark.parametrize("level", LEVELS)
def test_a_changed_computer_move_is_refused_with_a_plain_reason(level: str) -> None:
    record = _play_resumed(level, seed=32)
    forged = _changed_computer_move(record, nth=3)
    with pytest.raises(RecordRefused) as refused:
        replay_record(forged)
    reason = refused.value.reason
    move = forged["steps"][-1]
    assert reason == (
        f"The offline game does not replay: at game {move['game']}, move {move['ply']}, the "
        "computer made a move it does not make there from the game's seed."
    )
    # the same record, honest, up to that move replays
    assert replay_record({**forged, "steps": forged["steps"][:-1]}).steps == forged["steps"][:-1]


def test_easy_plays_the_same_moves_from_its_seed_whatever_it_played_before() -> None:
    first = _play_resumed("easy", seed=33)
    again = new_session("easy", seed=33)
    assert again.table.bot is not None
    for raw in first["steps"][1:]:
        if raw["kind"] == "move" and raw["seat"] == 1:
            assert str(again.table.think()) == raw["move"]
            again.computer_move()
        else:
            again.handle({"type": "move", "id": 0, "move": raw["move"]})
    again.table.close()
