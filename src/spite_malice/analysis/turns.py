"""A seat's turns cut into decisions, each with that seat's observation and nothing more.

A turn (R2) is builds then a discard, but the player does not choose it all at once: building
the pay-off top turns up an unknown card (R3.4(a)) and emptying the hand draws five unknown
cards (R3.4(c)), after which the player looks again. So a turn is cut into decisions, the
same way the turn planner cuts a plan at its :attr:`~spite_malice.bots.planning.Plan.commit`:
each decision holds the seat's :class:`~spite_malice.engine.Observation` (R6.3: the only thing
the analysis reads about the table) and the moves the seat made until new cards were seen or
the turn ended. Those moves use only cards the seat could see, so they are legal in every
game sampled from the observation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.errors import ArgumentError, PositionError, SpiteMaliceError, quote
from ..engine.game import Game
from ..engine.moves import Move, parse_move
from ..engine.observation import Observation
from ..engine.record import GameRecord


@dataclass(frozen=True, slots=True)
class Decision:
    """One choice of the seat: what it saw, and the moves it made before it saw new cards."""

    turn: int
    """The game's turn number (1 for the first turn of the game)."""
    player_turn: int
    """The seat's own turn number, as the end of a game counts turns (1 for the seat's first
    turn; a game set up from a position counts as if the turns before it alternated from
    turn 1)."""
    observation: Observation
    """The seat's view of the table when it chose (its own hand, the face-up cards)."""
    moves: tuple[Move, ...]
    """The moves played: builds, ending with a discard, a pay-off build or a build that
    emptied the hand (or the game's last move)."""

    @property
    def index(self) -> int:
        """How many moves of the game were made before this decision."""
        return len(self.observation.history)


def _saw_new_cards(game: Game, seat: int, hand: int, payoff: int) -> bool:
    """Whether the move just played in ``game`` ended ``seat``'s decision, read from the
    engine's position rather than from the rules: the turn passed (a discard, R2.3), or the
    seat now sees cards it did not (its pay-off pile, of ``payoff`` cards before, turned up a
    new top, R3.4(a); its hand, of ``hand`` cards before, was dealt five, R3.4(c)), or it is
    about to (a game of explicit chance waits for those cards to be dealt)."""
    player = game.players[seat]
    if game.to_move != seat or game.chance:
        return True
    return len(player.payoff) < payoff or len(player.hand) > hand


def seat_decisions(start: Game, moves: Sequence[Move | str], seat: int) -> list[Decision]:
    """The decisions of ``seat`` when ``moves`` are played from ``start`` (left unchanged).

    Each move is checked as :meth:`Game.play` checks it; a move that is not legal raises
    :class:`~spite_malice.engine.PositionError` saying which one."""
    if type(seat) is not int or seat not in (0, 1):
        raise ArgumentError(f"seat must be 0 or 1, not {quote(seat)}")
    game = start.copy(recording=False)
    # turns alternate (R2): the seat plays the odd turns or the even ones
    odd = (game.turn % 2 == 1) == (game.to_move == seat)

    def own(turn: int) -> int:
        return (turn + 1) // 2 if odd else turn // 2

    decisions: list[Decision] = []
    observation: Observation | None = None
    played: list[Move] = []
    turn = game.turn
    for number, text in enumerate(moves, start=1):
        if game.is_over:
            raise PositionError(f"move {number} ({quote(str(text))}) comes after the game ended")
        mine = game.to_move == seat
        if mine and observation is None:
            observation = game.observation(seat)
            turn = game.turn
        player = game.players[seat]
        hand, payoff = len(player.hand), len(player.payoff)
        try:
            move = parse_move(text)
            game.play(move)
        except SpiteMaliceError as error:
            raise PositionError(f"move {number} ({quote(str(text))}) fails: {error}") from None
        if not mine:
            continue
        played.append(move)
        if game.is_over or _saw_new_cards(game, seat, hand, payoff):
            assert observation is not None
            decisions.append(Decision(turn, own(turn), observation, tuple(played)))
            observation, played = None, []
    if observation is not None and played:  # a record that stops in the middle of a turn
        decisions.append(Decision(turn, own(turn), observation, tuple(played)))
    return decisions


def record_decisions(record: GameRecord, seat: int) -> list[Decision]:
    """The decisions of ``seat`` in a game record (checked: its moves and its result)."""
    record.replay(recording=False)  # refuses a record whose moves or result are wrong
    start = Game.new(record.seed, record.rules, first=record.first, recording=False)
    return seat_decisions(start, record.moves, seat)
