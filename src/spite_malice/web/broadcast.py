"""A room's broadcaster: what each seat may see (R6: the per-seat state, made from
observations and public events only, ``web-protocol.md`` 4.1) and the messages sent to
every connection of the room. Sending never waits: each connection has its own bounded
queue (see ``sockets``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..engine.events import Event
from ..engine.observation import observation_json
from ..table import DEAL, HINT, MOVE, UNDO, Applied, Table
from ..table.event_json import public_events
from ..table.steps import CLAIM
from . import messages
from .presence import Presence, claim_seconds
from .room_common import FRIEND_MODE, Peer, in_language, peer_language


class ShownRoom(Protocol):
    """What the broadcaster reads of its room."""

    code: str
    table: Table
    peers: tuple[set[Peer], set[Peer]]
    presence: Presence

    @property
    def mode(self) -> str: ...

    @property
    def level(self) -> str | None: ...

    @property
    def names(self) -> list[str | None]: ...


class Broadcaster:
    """The per-seat view of one room and the sending of it to the room's connections."""

    def __init__(self, room: ShownRoom) -> None:
        self.room = room
        self.extra: Callable[[int], dict[str, Any]] | None = None
        """More fields of a seat's state (a stranger room's ``strangers``, ``claim_after``)."""
        self.watch: Callable[[Applied], None] | None = None
        """Told of every step announced (the room's notifications)."""

    # ----------------------------------------------------------------- the per-seat view

    def state_for(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see (``web-protocol.md`` 4.1)."""
        room = self.room
        table = room.table
        mode = room.mode
        view = {
            "room": room.code,
            "mode": mode,
            "seat": seat,
            "level": room.level,
            "daily": table.meta.daily,
            "players": room.names,
            "observation": observation_json(table.game, seat),
            "match": table.match_view(),
            "assisted": table.is_assisted,
            "can_undo": table.can_undo(seat),
            "can_hint": table.can_hint(seat),
            "undo_barrier": table.undo_barrier(seat),
            "connected": room.presence.connected(),
            "thinking": table.computer_to_move,
            "resigned": table.resigned,
            "claimed": table.claimed,
            "reveal": table.reveal(),
            "away": room.presence.away(),
            "claim_after": claim_seconds() if mode == FRIEND_MODE else None,
            "rematch": self.rematch_view(),
        }
        if self.extra is not None:
            view.update(self.extra(seat))
        return view

    def rematch_view(self) -> dict[str, int | None] | None:
        """A friend room's rematch offer (``web-protocol.md`` 4.1); None elsewhere."""
        if self.room.mode != FRIEND_MODE:
            return None
        meta = self.room.table.meta
        return {"offered_by": meta.rematch, "declined_by": meta.declined}

    def welcome(self, seat: int) -> messages.Welcome:
        room = self.room
        return messages.Welcome(
            room=room.code, seat=seat, mode=room.mode, level=room.level, players=room.names
        )

    def state_message(self, seat: int, cause: str, reply_to: int | str | None) -> messages.State:
        # made of this room's own data, never of a client's: built without pydantic's checks
        return messages.State.model_construct(
            reply_to=reply_to,
            cause=cause,
            state=self.state_for(seat),
            log=public_events(self.room.table.game.events, seat),
        )

    # ----------------------------------------------------------------- sending

    def announce(self, applied: Applied, origin: Peer | None, reply_to: int | str | None) -> None:
        """Tell every seat what a step applied to the table did."""
        step = applied.step
        if step.kind == MOVE and applied.move is not None:
            assert step.seat is not None
            self.update(step.seat, str(applied.move), applied.events, origin, reply_to)
        elif step.kind == DEAL:
            self.state("new_game", origin, reply_to)
        elif step.kind in (UNDO, HINT, CLAIM):
            self.state(step.kind, origin, reply_to)
        else:
            self.state("resign", origin, reply_to)
        if self.watch is not None:
            self.watch(applied)

    def broadcast(self, message: messages.ServerMessage) -> None:
        for peers in self.room.peers:
            for peer in list(peers):
                peer.push(message)

    def presence(self) -> None:
        """Tell every connection which seats are connected now."""
        presence = self.room.presence
        self.broadcast(messages.Presence(connected=presence.connected(), away=presence.away()))

    def state(self, cause: str, origin: Peer | None, reply_to: int | str | None) -> None:
        """Send every connection its seat's whole state (``cause``), ``origin`` with the
        ``reply_to`` of its request."""
        for seat, peers in enumerate(self.room.peers):
            made: dict[str | None, messages.State] = {}  # one per language of the seat's peers
            for peer in list(peers):
                language = peer_language(peer)
                message = made.get(language)
                if message is None:
                    with in_language(language):
                        message = made[language] = self.state_message(seat, cause, None)
                if peer is origin:
                    peer.push(message.model_copy(update={"reply_to": reply_to}))
                else:
                    peer.push(message)

    def update(
        self,
        mover: int,
        move: str,
        events: list[Event],
        origin: Peer | None,
        reply_to: int | str | None,
    ) -> None:
        for peer, message in self.updates(mover, move, events, origin, reply_to):
            peer.push(message)

    def updates(
        self,
        mover: int,
        move: str,
        events: list[Event],
        origin: Peer | None = None,
        reply_to: int | str | None = None,
    ) -> list[tuple[Peer, messages.Update]]:
        """The update of a move for every connection, with the state as it stands now
        (just after the move): made now, sent now or (a computer's turn) once stored."""
        made_for: list[tuple[Peer, messages.Update]] = []
        for seat, peers in enumerate(self.room.peers):
            made: dict[str | None, messages.Update] = {}  # one per language of the seat's peers
            for peer in list(peers):
                language = peer_language(peer)
                message = made.get(language)
                if message is None:
                    with in_language(language):
                        # built from our own data: pydantic's checks skipped (as in State)
                        message = made[language] = messages.Update.model_construct(
                            seat=mover,
                            move=move,
                            events=public_events(events, seat),
                            state=self.state_for(seat),
                        )
                if peer is origin:
                    message = message.model_copy(update={"reply_to": reply_to})
                made_for.append((peer, message))
        return made_for
