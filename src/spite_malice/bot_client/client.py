"""The bot side of the text protocol, for bots written in Python.

Write a function from the position (the observation as a dict, see ``docs/bot-protocol.md``) and
the legal moves (notation strings) to a move, and hand it to :func:`serve`::

    from spite_malice.bot_client import serve

    def choose(position, moves):
        return moves[0]

    serve(choose, name="First Legal")

``python -m spite_malice.bot_client NAME`` (:mod:`.__main__`) serves one of our own bots
(``reference`` or any name :func:`~spite_malice.bot_registry.make_bot` knows) over the
protocol, which is handy to test an engine-side implementation or a tournament harness.

This package is the bot author's side; the host's side (running such a program as a bot) is
:mod:`spite_malice.bot_protocol.external`. Both share only the protocol's constants.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

from ..bot_protocol import GREETING, PROTOCOL_VERSION
from ..bots.base import Bot
from ..engine.cards import parse_card
from ..engine.game import Outcome
from ..engine.moves import parse_move
from ..engine.observation import Observation, PlayerView
from ..engine.rules import Rules

Chooser = Callable[[dict[str, Any], list[str]], str]


def serve(
    choose: Chooser,
    name: str = "bot",
    *,
    new_game: Callable[[int, int], None] | None = None,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
) -> int:
    """Answer the engine until it says ``quit`` (or closes the input); returns 0.

    ``choose(position, moves)`` gives the move to make; ``new_game(seat, seed)`` (optional)
    is called when a game begins. Unknown messages are ignored, as the protocol asks.
    """
    reader = stdin if stdin is not None else sys.stdin
    writer = stdout if stdout is not None else sys.stdout
    position: dict[str, Any] = {}
    moves: list[str] = []

    def say(text: str) -> None:
        writer.write(text + "\n")
        writer.flush()

    for raw in reader:
        word, _, rest = raw.strip().partition(" ")
        if word == GREETING:
            if str(PROTOCOL_VERSION) not in rest.split():
                say(f"info this bot speaks protocol version {PROTOCOL_VERSION} only")
            say(f"ready {PROTOCOL_VERSION} {name}")
        elif word == "newgame":
            seat, _, seed = rest.partition(" ")
            if new_game is not None:
                new_game(int(seat), int(seed or 0))
        elif word == "position":
            position = json.loads(rest)
        elif word == "moves":
            moves = rest.split()
        elif word == "go":
            say(f"move {choose(position, moves)}")
        elif word == "quit":
            break
    return 0


def observation_from_json(data: dict[str, Any]) -> Observation:
    """An engine :class:`Observation` from the ``position`` JSON the engine sends."""

    def card(text: str | None) -> int | None:
        return None if text is None else parse_card(text)

    def cards(texts: Sequence[str]) -> tuple[int, ...]:
        return tuple(parse_card(text) for text in texts)

    views = tuple(
        PlayerView(
            card(view["payoff_top"]),
            int(view["payoff_count"]),
            int(view["hand_count"]),
            tuple(cards(pile) for pile in view["side"]),
        )
        for view in data["players"]
    )
    outcome = data.get("outcome")
    return Observation(
        seat=int(data["seat"]),
        rules=Rules.from_json(data.get("rules")),
        to_move=int(data["to_move"]),
        turn=int(data["turn"]),
        hand=cards(data["hand"]),
        players=(views[0], views[1]),
        center=tuple(cards(stack) for stack in data["center"]),
        stock_count=int(data["stock_count"]),
        history=tuple(parse_move(text) for text in data["history"]),
        legal_moves=tuple(parse_move(text) for text in data["legal_moves"]),
        outcome=None
        if outcome is None
        else Outcome(outcome["winner"], int(outcome["points"]), str(outcome["reason"])),
    )


def serve_bot(bot: Bot, **kwargs: Any) -> int:
    """Serve one of our :class:`Bot` objects over the protocol (see :func:`serve`)."""

    def choose(position: dict[str, Any], moves: list[str]) -> str:
        return str(bot.choose(observation_from_json(position)))

    try:
        return serve(
            choose, name=bot.name, new_game=lambda seat, _seed: bot.new_game(seat), **kwargs
        )
    finally:
        bot.close()


__all__ = ["Chooser", "observation_from_json", "serve", "serve_bot"]
