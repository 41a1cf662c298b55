"""One seat's state (web-protocol 4.1), built once for the server's rooms and the page's
offline engine, and the deltas between two states (4.3)."""

from __future__ import annotations

from itertools import pairwise
from types import SimpleNamespace
from typing import Any

from spite_malice.engine.rules import Rules
from spite_malice.offline.session import OfflineSession
from spite_malice.table.seat_state import HISTORY_TAIL, apply_delta, state_delta
from spite_malice.web.broadcast import Broadcaster


def played_states(moves: int) -> tuple[OfflineSession, list[dict[str, Any]]]:
    """An offline match at Easy, and seat 0's state after each of its first moves (either
    seat's), new games included."""
    session = OfflineSession.new(level="easy", rules=Rules(payoff_size=5), name="Ann", seed=3)
    states = [session.state_for(0)]
    for _ in range(moves):
        table = session.table
        if table.is_game_over:
            if table.match.is_over:
                break
            session.handle({"type": "new_game"})
        elif table.computer_to_move:
            session.computer_move()
        else:
            session.handle({"type": "move", "move": str(table.observation(0).legal_moves[0])})
        states.append(session.state_for(0))
    return session, states


def test_the_server_and_the_offline_engine_build_the_same_state() -> None:
    """A room's broadcaster, reading the offline match's table, says what the offline
    session says (so the page draws either the same)."""
    session, _ = played_states(0)
    presence = SimpleNamespace(connected=lambda: [True, True], away=lambda: [None, None])
    room = SimpleNamespace(code=session.room, table=session.table, presence=presence)
    room.mode, room.level, room.names = session.table.kind, session.table.level, None
    broadcaster = Broadcaster(room)  # type: ignore[arg-type]
    for _ in range(30):
        assert broadcaster.state_for(0) == session.state_for(0)
        assert broadcaster.state_for(1) == session.state_for(1)
        if session.table.computer_to_move:
            session.computer_move()
        elif not session.table.is_game_over:
            legal = session.table.observation(0).legal_moves
            session.handle({"type": "move", "move": str(legal[-1])})


def test_a_delta_applied_to_the_old_state_gives_the_new_one() -> None:
    _, states = played_states(120)
    assert len(states) > 60
    for old, new in pairwise(states):
        delta = state_delta(old, new)
        assert apply_delta(old, delta) == new
        assert {"connected", "away"} <= delta.keys()
        for key in delta.keys() - {"connected", "away", "observation"}:
            assert old[key] != new[key], key
        had, has = old["observation"]["history"], new["observation"]["history"]
        tail = delta.get("observation", {}).get(HISTORY_TAIL)
        if has[: len(had)] == had and has != had:  # a move: only the new one is sent
            assert tail == {"at": len(had), "moves": has[len(had) :]}


def test_apply_delta_leaves_the_old_state_as_it_was() -> None:
    _, states = played_states(10)
    old, new = states[-2], states[-1]
    kept = repr(old)
    apply_delta(old, state_delta(old, new))
    assert repr(old) == kept


def test_a_history_that_went_back_is_sent_from_where_it_differs() -> None:
    old = {"observation": {"history": ["P-C1", "H3-S1"], "turn": 2}}
    new = {"observation": {"history": ["P-C1", "H4-S2", "H5-C1"], "turn": 2}}
    delta = state_delta(old, new)
    assert delta == {"observation": {HISTORY_TAIL: {"at": 1, "moves": ["H4-S2", "H5-C1"]}}}
    assert apply_delta(old, delta) == new
