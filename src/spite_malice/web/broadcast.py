"""A room's broadcaster: what each seat may see (R6: the per-seat state, made from
observations and public events only, ``web-protocol.md`` 4.1) and the messages sent to
every connection of the room. Sending never waits: each connection has its own bounded
queue (see ``sockets``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from ..engine.events import Event
from ..i18n import current_language
from ..table import DEAL, HINT, MOVE, UNDO, Applied, Table
from ..table.event_json import public_events
from ..table.seat_state import ALWAYS, seat_state, state_delta
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
        self._seq = 0
        """The number of the last state made (any seat): ``seq`` of ``web-protocol.md`` 4.3."""
        self._streams: dict[tuple[int, str], _Stream] = {}
        """By seat and language: the last state sent to those connections."""
        self.extra: Callable[[int], dict[str, Any]] | None = None
        """More fields of a seat's state (a stranger room's ``strangers``, ``claim_after``)."""
        self.watch: Callable[[Applied], None] | None = None
        """Told of every step announced (the room's notifications)."""

    # ----------------------------------------------------------------- the per-seat view

    def state_for(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see (``web-protocol.md`` 4.1)."""
        room = self.room
        view = seat_state(
            room.table,
            seat,
            room=room.code,
            connected=room.presence.connected(),
            away=room.presence.away(),
            claim_after=claim_seconds() if room.mode == FRIEND_MODE else None,
        )
        if self.extra is not None:
            view.update(self.extra(seat))
        return view

    def welcome(self, seat: int) -> messages.Welcome:
        room = self.room
        return messages.Welcome(
            room=room.code, seat=seat, mode=room.mode, level=room.level, players=room.names
        )

    def state_message(self, seat: int, cause: str, reply_to: int | str | None) -> messages.State:
        """The whole state of ``seat`` for one connection (a connect, a ``sync``), in the
        current language. Its ``seq`` is the seat's stream's when the stream's last state is
        this one but for :data:`ALWAYS`'s fields (then the connection follows the same deltas as
        the others of its seat); else this state starts the stream afresh."""
        state = self.state_for(seat)
        key = (seat, current_language())
        stream = self._streams.get(key)
        if stream is None or not _same_but_always(stream.state, state):
            stream = self._streams[key] = _Stream(self._next_seq(), state)
        return self._state_message(seat, cause, reply_to, stream.seq, state)

    def _state_message(
        self, seat: int, cause: str, reply_to: int | str | None, seq: int, state: dict[str, Any]
    ) -> messages.State:
        # made of this room's own data, never of a client's: built without pydantic's checks
        return constructed(
            messages.State,
            reply_to=reply_to,
            cause=cause,
            seq=seq,
            state=state,
            log=public_events(self.room.table.game.events, seat),
        )

    def _next_seq(self) -> int:
        self._seq += 1
        return self._seq

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
        ``reply_to`` of its request; each seat's stream starts again from it."""
        for seat, peers in enumerate(self.room.peers):
            made: dict[str | None, messages.State] = {}  # one per language of the seat's peers
            for peer in list(peers):
                language = peer_language(peer)
                message = made.get(language)
                if message is None:
                    with in_language(language):
                        state = self.state_for(seat)
                        seq = self._next_seq()
                        self._streams[(seat, current_language())] = _Stream(seq, state)
                        message = made[language] = self._state_message(
                            seat, cause, None, seq, state
                        )
                if peer is origin:
                    peer.push(replying(message, reply_to))
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
        (just after the move): made now, sent now or (a computer's turn) once stored. A
        connection that asked for deltas gets what changed since its stream's last state
        (``base``, ``seq``); one that did not, the whole state. Made once per seat and
        language, shared by that seat's connections in that language."""
        made_for: list[tuple[Peer, messages.Update]] = []
        for seat, peers in enumerate(self.room.peers):
            listening = [
                (peer, peer_language(peer), bool(getattr(peer, "deltas", False))) for peer in peers
            ]
            # what each language of the seat's peers asks for: a whole state, a delta, both
            asked: dict[str | None, tuple[bool, bool]] = {}
            for _, language, deltas in listening:
                whole, delta = asked.get(language, (False, False))
                asked[language] = (whole or not deltas, delta or deltas)
            made = {}
            for language, (whole, delta) in asked.items():
                with in_language(language):
                    made[language] = self._update_pair(seat, mover, move, events, whole, delta)
            for peer, language, deltas in listening:
                message = made[language][1 if deltas else 0]
                assert message is not None
                if peer is origin:
                    message = replying(message, reply_to)
                made_for.append((peer, message))
        return made_for

    def _update_pair(
        self, seat: int, mover: int, move: str, events: list[Event], whole: bool, delta: bool
    ) -> tuple[messages.Update | None, messages.Update | None]:
        """The update of a move for ``seat`` in the current language, whole and as a delta
        of the seat's stream (the stream moves on to it), each made only when asked for
        (None else). Built from our own data: pydantic's checks skipped (as in State)."""
        state = self.state_for(seat)
        shown = public_events(events, seat)
        key = (seat, current_language())
        stream = self._streams.get(key)
        seq = self._next_seq()
        self._streams[key] = _Stream(seq, state)
        if stream is None:  # nobody follows it yet: the whole state serves as the delta
            whole = delta = True
        made_whole = (
            constructed(messages.Update, seat=mover, move=move, events=shown, seq=seq, state=state)
            if whole
            else None
        )
        if stream is None:
            return made_whole, made_whole
        made_delta = (
            constructed(
                messages.Update,
                seat=mover,
                move=move,
                events=shown,
                seq=seq,
                base=stream.seq,
                delta=state_delta(stream.state, state),
            )
            if delta
            else None
        )
        return made_whole, made_delta


@dataclass(slots=True)
class _Stream:
    """The last state sent to one seat's connections in one language, and its number."""

    seq: int
    state: dict[str, Any]


def _same_but_always(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether two states of a seat differ at most in the fields every delta carries."""
    return all(old.get(key) == value for key, value in new.items() if key not in ALWAYS)


Message = TypeVar("Message", messages.State, messages.Update)
_TEMPLATES: dict[type[Any], dict[str, Any]] = {}
"""By message class: every field, in order, with its default (None for a required one)."""


def constructed(kind: type[Message], **values: Any) -> Message:
    """``kind.model_construct(**values)`` (no checks: the room's own data), the same model in
    about a fifth of its time: pydantic's reads every field's aliases and defaults again for
    each message, a fifth of an update's making. Every required field must be given."""
    template = _TEMPLATES.get(kind)
    if template is None:
        template = _TEMPLATES[kind] = {
            name: None if field.is_required() else field.get_default(call_default_factory=True)
            for name, field in kind.model_fields.items()
        }
    made = kind.__new__(kind)
    fields = template.copy()
    fields.update(values)
    object.__setattr__(made, "__dict__", fields)
    object.__setattr__(made, "__pydantic_fields_set__", set(values))
    object.__setattr__(made, "__pydantic_extra__", None)
    object.__setattr__(made, "__pydantic_private__", None)
    return made


def replying(message: Message, reply_to: int | str | None) -> Message:
    """``message.model_copy(update={"reply_to": reply_to})``, without pydantic's deep path."""
    made = type(message).__new__(type(message))
    fields = message.__dict__.copy()
    fields["reply_to"] = reply_to
    object.__setattr__(made, "__dict__", fields)
    object.__setattr__(made, "__pydantic_fields_set__", message.model_fields_set | {"reply_to"})
    object.__setattr__(made, "__pydantic_extra__", None)
    object.__setattr__(made, "__pydantic_private__", None)
    return made
