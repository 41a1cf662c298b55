"""The rules engine: dependency-free, no I/O, no global randomness."""

from __future__ import annotations

from .cards import (
    ACE,
    JACK,
    KING,
    QUEEN,
    RANK_OF,
    RANKS,
    SUITS,
    Card,
    card_str,
    cards_str,
    make_card,
    parse_card,
    rank_of,
    suit_of,
)
from .errors import GameOverError, IllegalMoveError, NotationError, PositionError, SpiteMaliceError
from .events import (
    CardBuilt,
    CardDiscarded,
    CardsDrawn,
    Event,
    GameDealt,
    GameDrawn,
    GameWon,
    PayoffTurned,
    StackCompleted,
    TurnEnded,
    public_event,
)
from .game import STOCK_EXHAUSTED, TURN_LIMIT_REACHED, WON, Game, Outcome, PlayerState
from .match import Match
from .moves import ACTIONS, ALL_MOVES, Move, move_at, parse_move
from .observation import Observation, PlayerView
from .record import GameRecord
from .rules import HAND_SIZE, PRESETS, SIDE_STACKS, TURN_LIMIT, Rules

__all__ = [
    "ACE",
    "ACTIONS",
    "ALL_MOVES",
    "HAND_SIZE",
    "JACK",
    "KING",
    "PRESETS",
    "QUEEN",
    "RANKS",
    "RANK_OF",
    "SIDE_STACKS",
    "STOCK_EXHAUSTED",
    "SUITS",
    "TURN_LIMIT",
    "TURN_LIMIT_REACHED",
    "WON",
    "Card",
    "CardBuilt",
    "CardDiscarded",
    "CardsDrawn",
    "Event",
    "Game",
    "GameDealt",
    "GameDrawn",
    "GameOverError",
    "GameRecord",
    "GameWon",
    "IllegalMoveError",
    "Match",
    "Move",
    "NotationError",
    "Observation",
    "Outcome",
    "PayoffTurned",
    "PlayerState",
    "PlayerView",
    "PositionError",
    "Rules",
    "SpiteMaliceError",
    "StackCompleted",
    "TurnEnded",
    "card_str",
    "cards_str",
    "make_card",
    "move_at",
    "parse_card",
    "parse_move",
    "public_event",
    "rank_of",
    "suit_of",
]
