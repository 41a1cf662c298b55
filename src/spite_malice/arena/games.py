"""One arena game between two bots, timed, with a misbehaving bot losing the game.

A bot only ever gets its seat's observation (R6.3). If its ``choose`` raises (a
:class:`~spite_malice.bots.BotError` from an outside program that answered garbage, timed out
or crashed, or any other exception) or returns a move that is not legal, the game stops and
that bot loses it; the reason is kept with the result, and the arena goes on.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field

from ..bot_registry import make_bot
from ..bots.base import Bot, BotError
from ..engine.game import Game
from ..engine.rules import Rules

FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True)
class GameResult:
    """The result of one game, seen from bot A (the arena's first bot)."""

    seed: int
    a_seat: int
    """The seat bot A played (0 moves first only if the deal says so, R1.4)."""
    winner: str | None
    """``"A"``, ``"B"`` or None for a draw."""
    points: int
    """Points the winner scored (R4.1); 0 for a draw."""
    turns: int
    reason: str
    """Why the game ended; for a forfeit, which bot failed and how."""
    a_times: tuple[float, ...] = field(default=(), repr=False)
    """Bot A's seconds per decision."""
    b_times: tuple[float, ...] = field(default=(), repr=False)
    a_turn_times: tuple[float, ...] = field(default=(), repr=False)
    """Bot A's seconds per turn (all decisions of one turn added up)."""
    b_turn_times: tuple[float, ...] = field(default=(), repr=False)
    forfeit: str | None = None
    """``"A"`` or ``"B"`` when that bot failed and lost the game by it."""
    recorded_times: tuple[float, float] | None = None
    """For a game read back from an arena CSV (``--resume``): each bot's total thinking
    seconds as recorded there. The times of its decisions are not kept in the CSV, so
    ``a_times`` and the like are empty and a summary's times leave such games out."""

    @property
    def time_totals(self) -> tuple[float, float]:
        """Bot A's and bot B's thinking seconds in this game, in all."""
        if self.recorded_times is not None:
            return self.recorded_times
        return sum(self.a_times), sum(self.b_times)

    @property
    def is_draw(self) -> bool:
        return self.winner is None


def play_game(
    bot_a: Bot, bot_b: Bot, seed: int, a_seat: int, rules: Rules = Rules.STANDARD
) -> GameResult:
    """Deal game ``seed`` and play it with bot A in ``a_seat`` and bot B in the other seat."""
    game = Game.new(seed, rules, recording=False)
    seats: dict[int, tuple[str, Bot]] = {a_seat: ("A", bot_a), 1 - a_seat: ("B", bot_b)}
    times: dict[str, list[float]] = {"A": [], "B": []}
    turn_times: dict[str, list[float]] = {"A": [], "B": []}
    failure: tuple[str, str] | None = None
    for seat, (label, bot) in seats.items():
        try:
            bot.new_game(seat)
        except Exception as error:  # a broken bot loses, the arena goes on
            failure = (label, _describe(bot, error))
            break
    current_turn = 0
    while failure is None and game.outcome is None:
        seat = game.to_move
        label, bot = seats[seat]
        observation = game.observation(seat)
        start = time.perf_counter()
        try:
            move = bot.choose(observation)
        except Exception as error:
            failure = (label, _describe(bot, error))
            break
        elapsed = time.perf_counter() - start
        if move not in observation.legal_moves:
            failure = (label, f"{bot.name}: illegal move {move!s}")
            break
        times[label].append(elapsed)
        if game.turn != current_turn:
            current_turn = game.turn
            turn_times[label].append(elapsed)
        else:
            turn_times[label][-1] += elapsed
        game.apply(move)
    if failure is not None:
        loser, reason = failure
        loser_seat = a_seat if loser == "A" else 1 - a_seat
        winner = "B" if loser == "A" else "A"
        points = len(game.players[loser_seat].payoff)  # R4.1 as if the other bot had won
        return GameResult(
            seed,
            a_seat,
            winner,
            points,
            game.turn,
            f"{FORFEIT}: {reason}",
            tuple(times["A"]),
            tuple(times["B"]),
            tuple(turn_times["A"]),
            tuple(turn_times["B"]),
            forfeit=loser,
        )
    outcome = game.outcome
    assert outcome is not None
    winner_label = None if outcome.winner is None else seats[outcome.winner][0]
    return GameResult(
        seed,
        a_seat,
        winner_label,
        outcome.points,
        game.turn,
        outcome.reason,
        tuple(times["A"]),
        tuple(times["B"]),
        tuple(turn_times["A"]),
        tuple(turn_times["B"]),
    )


def _describe(bot: Bot, error: Exception) -> str:
    if isinstance(error, BotError):
        return f"{error.bot}: {error.reason}"
    return f"{bot.name}: {type(error).__name__}: {error}"


def bot_seed(seed: int, label: str) -> int:
    """The seed a bot gets for the games of deal ``seed``: independent of how jobs are split."""
    return seed * 2 + (0 if label == "A" else 1)


def _forfeit_at_start(
    seed: int, a_seat: int, loser: str, rules: Rules, error: BotError
) -> GameResult:
    game = Game.new(seed, rules, recording=False)
    loser_seat = a_seat if loser == "A" else 1 - a_seat
    return GameResult(
        seed,
        a_seat,
        "B" if loser == "A" else "A",
        len(game.players[loser_seat].payoff),
        game.turn,
        f"{FORFEIT}: {error.bot}: {error.reason}",
        forfeit=loser,
    )


def play_pair(
    name_a: str, name_b: str, seed: int, rules: Rules = Rules.STANDARD
) -> tuple[GameResult, GameResult]:
    """Deal ``seed`` twice, bot A in seat 0 then in seat 1 (paired deals cancel the luck of
    the cards). Bots are made by name (:func:`~spite_malice.bot_registry.make_bot`)."""
    results: list[GameResult] = []
    for a_seat in (0, 1):
        bot_a = bot_b = None
        try:
            label = "A"
            try:
                bot_a = make_bot(name_a, bot_seed(seed, "A"))
                label = "B"
                bot_b = make_bot(name_b, bot_seed(seed, "B"))
            except BotError as error:  # an outside program that does not start loses
                results.append(_forfeit_at_start(seed, a_seat, label, rules, error))
                continue
            results.append(play_game(bot_a, bot_b, seed, a_seat, rules))
        finally:
            for bot in (bot_a, bot_b):
                if bot is not None:
                    with contextlib.suppress(Exception):
                        bot.close()
    return results[0], results[1]
