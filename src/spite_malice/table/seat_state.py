"""What one seat of a table may see, as the game WebSocket sends it (``web-protocol.md`` 4.1),
and the change from one such state to the next (4.3, ``delta``).

One builder for the server's rooms (``web.broadcast``) and the page's offline engine
(``offline.session``, run under Pyodide, where there is no pydantic or FastAPI): both send the
same state for the same table, so that the page draws either unchanged. Plain dictionaries
only, made from observations and public parts of the table (R6).
"""

from __future__ import annotations

from typing import Any

from ..engine.observation import observation_json
from .seats import FRIEND
from .table import Table

State = dict[str, Any]

OBSERVATION = "observation"
HISTORY = "history"
HISTORY_TAIL = "history_tail"
"""The key of a delta's observation holding the moves that changed at the history's end:
``{"at": n, "moves": [...]}`` (the history's first ``n`` moves stay, then ``moves``)."""
ALWAYS = ("connected", "away")
"""State fields every delta carries, changed or not: they are read afresh for every message
(``away`` counts seconds), so a connection whose last whole state came at another moment than
its neighbours' still ends at the same state (4.3)."""


def seat_state(
    table: Table,
    seat: int,
    *,
    room: str,
    connected: list[bool],
    away: list[float | None],
    claim_after: float | None,
) -> State:
    """Everything ``seat`` may see of ``table`` (``web-protocol.md`` 4.1), as the room
    ``room`` says it; ``connected``, ``away`` and ``claim_after`` are the room's word on its
    connections (a computer room's: everyone connected, nobody away, no claim)."""
    mode = table.kind
    meta = table.meta
    return {
        "room": room,
        "mode": mode,
        "seat": seat,
        "level": table.level,
        "daily": meta.daily,
        "players": table.names,
        OBSERVATION: observation_json(table.game, seat),
        "match": table.match_view(),
        "assisted": table.is_assisted,
        "can_undo": table.can_undo(seat),
        "can_hint": table.can_hint(seat),
        "undo_barrier": table.undo_barrier(seat),
        "connected": connected,
        "thinking": table.computer_to_move,
        "resigned": table.resigned,
        "claimed": table.claimed,
        "reveal": table.reveal(),
        "away": away,
        "claim_after": claim_after,
        "rematch": (
            {"offered_by": meta.rematch, "declined_by": meta.declined} if mode == FRIEND else None
        ),
    }


def state_delta(old: State, new: State) -> State:
    """What changed from ``old`` to ``new`` (two states of one seat, ``web-protocol.md`` 4.3):
    each top-level field whose value changed, with its new value, and :data:`ALWAYS`'s fields;
    ``observation`` only with the observation's fields that changed, the move history as its
    changed end (:data:`HISTORY_TAIL`). :func:`apply_delta` of it to ``old`` gives ``new``."""
    delta: State = {}
    for key, value in new.items():
        if key == OBSERVATION:
            changed = observation_delta(old.get(OBSERVATION) or {}, value)
            if changed:
                delta[OBSERVATION] = changed
        elif key in ALWAYS or key not in old or old[key] != value:
            delta[key] = value
    return delta


def observation_delta(old: State, new: State) -> State:
    changed: State = {}
    for key, value in new.items():
        if key == HISTORY:
            before = old.get(HISTORY)
            if before == value:
                continue
            if not isinstance(before, list):
                changed[HISTORY] = value
                continue
            at = len(before)
            if value[:at] != before:  # not moves added (a move taken back): where it differs
                at = next(
                    (
                        n
                        for n, (had, has) in enumerate(zip(before, value, strict=False))
                        if had != has
                    ),
                    min(at, len(value)),
                )
            changed[HISTORY_TAIL] = {"at": at, "moves": value[at:]}
        elif key not in old or old[key] != value:
            changed[key] = value
    return changed


def apply_delta(state: State, delta: State) -> State:
    """The state ``delta`` (:func:`state_delta`) makes of ``state``: a new dictionary, the
    unchanged parts shared with ``state`` (as the page's ``net.js`` does it)."""
    made = {**state, **delta}
    changed = delta.get(OBSERVATION)
    if changed is not None:
        observation = {**state[OBSERVATION], **changed}
        tail = observation.pop(HISTORY_TAIL, None)
        if tail is not None:
            observation[HISTORY] = state[OBSERVATION][HISTORY][: tail["at"]] + tail["moves"]
        made[OBSERVATION] = observation
    return made
