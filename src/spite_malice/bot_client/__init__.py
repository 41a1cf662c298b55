"""The bot author's side of the text protocol (``docs/bot-protocol.md``): write a bot in
Python as a function from the position and the legal moves to a move, and :func:`serve` it
on standard input and output. The host's side, which runs such a program as a bot, is
:mod:`spite_malice.bot_protocol`."""

from __future__ import annotations

from .client import Chooser, observation_from_json, serve, serve_bot

__all__ = ["Chooser", "observation_from_json", "serve", "serve_bot"]
