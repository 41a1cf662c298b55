"""A match against the computer played in the page, with no server: the worker's side.

:class:`OfflineSession` takes the page's messages (``web-protocol.md`` 4.2) as dictionaries
and answers with the server's (4.3), built the way :class:`spite_malice.web.rooms.Room`
builds them for a computer room, so that the page's table draws an offline game unchanged.
It plays through a :class:`~spite_malice.table.Table`, the same as the server, and keeps the
match's steps: :meth:`OfflineSession.record` is what the page saves (IndexedDB) and later
sends to the server, which replays it (:mod:`.record`).

The computer's turn is played one move per :meth:`OfflineSession.computer_move`, so that the
worker can send each move to the page as soon as it is thought.
"""

from __future__ import annotations

import secrets
import uuid
from typing import Any

from ..engine.errors import SpiteMaliceError, quote
from ..engine.rules import PRESETS, Rules
from ..i18n import _, use_language
from ..table import DEAL, HINT, MOVE, UNDO, Applied, Step, Table, TableError
from ..table.event_json import public_events
from ..table.seat_state import seat_state
from ..table.words import rules_problem
from .record import COMPUTER_SEAT, FORMAT, OFFERED_LEVELS, PERSON, new_table, written_step

Message = dict[str, Any]

MODE = "computer"
KINDS = ("move", "hint", "undo", "resign", "new_game", "new_match", "sync", "ping")
"""The page messages an offline room answers."""


def new_room_code() -> str:
    """A room code for an offline match (``OFF`` and six more letters or digits): it never
    names a room of the server, whose codes are six letters or digits."""
    return "OFF" + uuid.uuid4().hex[:6].upper()


def make_rules(rules: object, preset: object) -> Rules:
    """The rules of a preset with options on top, as a room makes them; TableError if not
    valid (said in the player's language)."""
    base: dict[str, Any] = {}
    if preset is not None:
        chosen = PRESETS.get(preset) if isinstance(preset, str) else None
        if chosen is None:
            raise TableError(
                "invalid",
                _(
                    "Unknown preset {preset}; known: {known}.",
                    preset=quote(str(preset)),
                    known=", ".join(PRESETS),
                ),
            )
        base = chosen.to_json()
    if rules is not None:
        problem = rules_problem(rules)
        if problem is not None:
            raise TableError("invalid", problem)
        assert isinstance(rules, dict)
    try:
        return Rules.from_json({**base, **(rules or {})})
    except SpiteMaliceError as error:
        reason = getattr(error, "reason", None) or quote(str(error))
        text = _("The rules are not valid: {reason}.", reason=reason)
        raise TableError("invalid", text) from None


def unknown_type(kind: str) -> str:
    return _(
        "Unknown message type {kind}; expected one of {types}.",
        kind=quote(kind),
        types=", ".join(KINDS),
    )


def unknown_level(level: str) -> str:
    return _(
        "There is no computer level {level}. The levels are: {names}.",
        level=quote(level),
        names=", ".join(OFFERED_LEVELS),
    )


def _error(code: str, text: str, reply_to: object = None) -> Message:
    return {"type": "error", "reply_to": reply_to, "code": code, "message": text}


class OfflineSession:
    """One offline room: a match against the computer, and its steps so far."""

    def __init__(self, room: str, table: Table, match_id: str, seed: int, name: str) -> None:
        self.room = room
        self.table = table
        self.match_id = match_id
        self.seed = seed
        self.name = name
        self.steps: list[Step] = []
        self.language: str | None = None
        self.seq = 0
        self.thinking = False
        """Whether the computer's turn was announced (``thinking``) and not finished yet."""

    # ----------------------------------------------------------------- making sessions

    @classmethod
    def new(
        cls,
        *,
        level: str,
        rules: Rules,
        name: str,
        room: str | None = None,
        seed: int | None = None,
    ) -> OfflineSession:
        """A new match, dealt: ``seed`` deals it (a fresh one unless given)."""
        if level not in OFFERED_LEVELS:
            raise TableError("invalid", unknown_level(level))
        chosen = seed if seed is not None else secrets.randbits(63)
        table = new_table(level, rules, chosen, name)
        session = cls(room or new_room_code(), table, uuid.uuid4().hex, chosen, name)
        session._apply(table.check_deal())
        return session

    @classmethod
    def restore(cls, room: str, record: dict[str, Any]) -> OfflineSession:
        """The session a saved :meth:`record` describes (the page's own storage: its steps
        are applied as they are, the server checks them when they are sent)."""
        level, seed = str(record["level"]), int(str(record["seed"]))
        name = str(record.get("name") or "Player")
        table = new_table(level, Rules.from_json(record["rules"]), seed, name)
        session = cls(room, table, str(record["id"]), seed, name)
        steps = record["steps"]
        turn = len(steps)  # where the computer's turn in play (if any) began
        while turn > 0 and (steps[turn - 1]["kind"], steps[turn - 1]["seat"]) == (
            MOVE,
            COMPUTER_SEAT,
        ):
            turn -= 1
        for index, raw in enumerate(steps):
            dealt = None if raw["seed"] is None else int(raw["seed"])
            if index >= turn:
                # closed in the middle of the computer's turn: it thinks that turn again, so
                # that it goes on with the plan it had (a bot that plans a whole turn keeps
                # it) and plays what the server's replay of the record expects (.record)
                table.think()
            session._apply(
                Step(raw["kind"], raw["game"], raw["ply"], raw["seat"], raw["move"], dealt)
            )
        return session

    def record(self) -> dict[str, Any]:
        """The match as the page saves it and the server replays it (:mod:`.record`);
        seeds are written as decimal text, which JavaScript keeps exactly."""
        table = self.table
        return {
            "format": FORMAT,
            "id": self.match_id,
            "room": self.room,
            "level": table.level,
            "rules": table.rules.to_json(),
            "seed": str(self.seed),
            "name": self.name,
            "steps": [written_step(step) for step in self.steps],
            "status": table.status,
            "score": list(table.match.score),
            "game_number": table.game_number,
            "over": table.match.is_over or table.resigned is not None,
        }

    # ----------------------------------------------------------------- messages

    def ticket(self) -> Message:
        """What ``POST /api/rooms`` answers for a computer room, for this offline room."""
        return {
            "room": self.room,
            "seat": PERSON,
            "token": "offline",
            "mode": MODE,
            "ws_url": f"offline:{self.room}",
            "invite_url": None,
        }

    def state_for(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see (``web-protocol.md`` 4.1), as a computer room says it."""
        return seat_state(
            self.table,
            seat,
            room=self.room,
            connected=[True, True],
            away=[None, None],
            claim_after=None,
        )

    def _state(self, cause: str, reply_to: object = None) -> Message:
        return {
            "type": "state",
            "reply_to": reply_to,
            "cause": cause,
            "seq": self._next_seq(),
            "state": self.state_for(PERSON),
            "log": public_events(self.table.game.events, PERSON),
        }

    def _update(self, applied: Applied, reply_to: object = None) -> Message:
        step = applied.step
        return {
            "type": "update",
            "reply_to": reply_to,
            "seat": step.seat,
            "move": str(applied.move),
            "events": public_events(applied.events, PERSON),
            "seq": self._next_seq(),
            "state": self.state_for(PERSON),
        }

    def _next_seq(self) -> int:
        """The number of the next state sent (``web-protocol.md`` 4.3; whole states only)."""
        self.seq += 1
        return self.seq

    def hello(self, language: str | None = None) -> list[Message]:
        """What a connection gets first: ``welcome``, the state and who is connected."""
        self.language = language
        with use_language(language):
            table = self.table
            return [
                {
                    "type": "welcome",
                    "room": self.room,
                    "seat": PERSON,
                    "mode": MODE,
                    "level": table.level,
                    "players": table.names,
                },
                self._state("connect"),
                {"type": "presence", "connected": [True, True], "away": [None, None]},
            ]

    def handle(self, message: object) -> list[Message]:
        """The answers to one page message (``error`` when it is refused: nothing changed)."""
        reply_to = message.get("id") if isinstance(message, dict) else None
        with use_language(self.language):
            if not isinstance(message, dict) or not isinstance(message.get("type"), str):
                return [_error("bad_message", unknown_type(""), reply_to)]
            kind = message["type"]
            try:
                return self._handle(kind, message, reply_to)
            except TableError as error:
                return [_error(error.code, error.message, reply_to)]

    def _handle(self, kind: str, message: dict[str, Any], reply_to: object) -> list[Message]:
        table = self.table
        if kind == "ping":
            return [{"type": "pong", "reply_to": reply_to}]
        if kind == "sync":
            return [self._state("sync", reply_to)]
        if kind == "move":
            move = message.get("move")
            text = move if isinstance(move, str) else ""  # the table says what is wrong
            applied = self._apply(table.check_move(PERSON, text))
            return [self._update(applied, reply_to)]
        if kind == "hint":
            step = table.check_hint(PERSON)
            suggestion = table.suggest(PERSON)
            if not table.is_assisted:  # a hint leaves the same mark as undo
                self._apply(step)
            return [
                {
                    "type": "hint",
                    "reply_to": reply_to,
                    "moves": [str(move) for move in suggestion.moves],
                    "reason": suggestion.reason,
                }
            ]
        if kind == "undo":
            self._apply(table.check_undo(PERSON))
            return [self._state("undo", reply_to)]
        if kind == "resign":
            self._apply(table.check_resign(PERSON))
            return [self._state("resign", reply_to)]
        if kind == "new_game":
            self._apply(table.check_deal())
            return [self._state("new_game", reply_to)]
        if kind == "new_match":
            return self._new_match(message, reply_to)
        if kind in ("rematch", "decline_rematch", "claim"):
            return [
                _error(
                    "not_available", _("Claiming a game is for games between friends."), reply_to
                )
            ]
        return [_error("unknown_type", unknown_type(kind), reply_to)]

    def _new_match(self, message: dict[str, Any], reply_to: object) -> list[Message]:
        """A new match at this table (a new record: the old one stays to be sent)."""
        table = self.table
        level = message.get("level") or table.level or "medium"
        if level not in OFFERED_LEVELS:
            raise TableError("invalid", unknown_level(level))
        rules = table.rules
        if message.get("rules") is not None or message.get("preset") is not None:
            rules = make_rules(message.get("rules"), message.get("preset"))
        seed = message.get("seed")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**63):
            raise TableError(
                "invalid",
                _("Its seed must be a whole number from 0 to {limit}.", limit=str(2**63 - 1)),
            )
        if table.status == "playing" and table.is_dealt and not table.is_game_over:
            self._apply(table.check_resign(PERSON))  # the unfinished match is given up
        fresh = OfflineSession.new(level=level, rules=rules, name=self.name, room=self.room)
        table.close()
        self.table, self.match_id, self.seed = fresh.table, fresh.match_id, fresh.seed
        self.steps, self.thinking = fresh.steps, False
        return [self._state("new_match", reply_to)]

    def give_up(self) -> Message:
        """Give up the match from the lobby (web-protocol 3.6, as the server's give-up): it
        ends as if the person resigned (4.2), so its current game counts as lost for no
        points; between two games the next one is dealt and resigned, so that a give-up
        always counts as a lost game. The state afterwards; TableError when the match is
        over already."""
        table = self.table
        with use_language(self.language):
            if table.match.is_over or table.resigned is not None:
                raise TableError("match_over", _("This match is over already."))
            if table.is_game_over:
                self._apply(table.check_deal())
            self._apply(table.check_resign(PERSON))
            self.thinking = False
            return self._state("resign")

    # ----------------------------------------------------------------- the computer

    @property
    def computer_to_move(self) -> bool:
        return self.table.computer_to_move

    def computer_move(self) -> list[Message]:
        """The computer's next move, played: ``thinking`` first at the start of its turn,
        then the move's ``update``; nothing when the computer is not to move."""
        table = self.table
        if not table.computer_to_move:
            self.thinking = False
            return []
        with use_language(self.language):
            sent: list[Message] = []
            if not self.thinking:
                self.thinking = True
                sent.append({"type": "thinking", "seat": COMPUTER_SEAT})
            applied = self._apply(table.check_move(COMPUTER_SEAT, table.think()))
            sent.append(self._update(applied))
            if not table.computer_to_move:
                self.thinking = False
            return sent

    # ----------------------------------------------------------------- the log

    def _apply(self, step: Step) -> Applied:
        applied = self.table.apply(step)
        self.steps.append(step)
        return applied


__all__ = ["DEAL", "HINT", "MOVE", "UNDO", "OfflineSession", "make_rules", "new_room_code"]
