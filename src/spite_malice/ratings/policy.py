"""What a rating means on this server: its pools, when it is provisional, which players a
leaderboard shows, how fast an idle player's deviation grows, and the computer levels'
fixed ratings (``docs/ratings.md`` says why each figure is what it is)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from .glicko2 import (
    INITIAL_DEVIATION,
    INITIAL_RATING,
    INITIAL_VOLATILITY,
    Glicko,
    Outcome,
    idle,
    update,
)

STRANGER_POOLS = ("standard", "quick")
"""The quick-match pools (``TableMeta.pool``): one rating each, as lichess keeps one per
time control (a game to 20 cards and one to 10 are not the same test of skill)."""
COMPUTER_POOL = "computer"
"""The rating against the computer: a rating of its own on the same scale (see
:data:`LEVEL_RATINGS`), never mixed with the ratings between strangers."""
TURN_POOLS: dict[str, int] = {"days-1": 1, "days-3": 3, "days-7": 7}
"""The turn-based quick-match pools (``TableMeta.pool``) and their time per move in days:
strangers who play one move at a time over days, standard rules, one game."""
TURN_BASED_POOL = "turn-based"
"""The rating of turn-based games between strangers, whatever their time per move: a
rating apart from the live pools', as lichess keeps its correspondence rating apart from
its live ones (a game with days to think is not the test of skill a game of 90 seconds a
turn is), and one for all three times per move (1, 3 and 7 days a move are the same test;
three ratings would each need their own games to be known)."""
POOLS = (*STRANGER_POOLS, TURN_BASED_POOL, COMPUTER_POOL)


def rating_pool(pool: str) -> str:
    """The rating a game of quick-match pool ``pool`` counts in (and pairs by)."""
    return TURN_BASED_POOL if pool in TURN_POOLS else pool


PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is above this is provisional, shown as ``1500?`` and kept off
the leaderboards (lichess's figure: a 95% interval of about +-220 points)."""
LEADERBOARD_DAYS = 30
"""A leaderboard shows the players who finished a rated game of its pool in this many
days."""
LEADERBOARD_SIZE = 50
PERIODS_PER_DAY = 0.2
"""Rating periods an idle player's deviation grows by each day (one every five days, about
lichess's 0.21436), so that the rating of someone back after months counts as less known."""

LEVEL_RATINGS: dict[str, Glicko] = {
    "easy": Glicko(1154.0, 30.0, INITIAL_VOLATILITY),
    "medium": Glicko(1532.0, 30.0, INITIAL_VOLATILITY),
    "hard": Glicko(1814.0, 30.0, INITIAL_VOLATILITY),
    "expert": Glicko(1957.0, 30.0, INITIAL_VOLATILITY),
}
"""Each computer level's fixed rating, never updated: the arena's ladder
(``spite-malice ladder --games 1000 --bots easy,medium,hard --seed 1``: Bradley-Terry Elo,
mean 1500: Hard 1814, Medium 1532, Easy 1154) and Expert from its arena run against Hard
(Elo +143, so 1814 + 143). The ladder's logistic Elo is the model Glicko's expected score
uses when the opponent's deviation is small, so its figures are taken on the Glicko scale
as they are, its mean 1500 where a new player starts. The deviation, 30, is about twice the
ladder's standard error, for the difference between bots' play against bots and against
people."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one pool, as shown and as pairing reads it."""

    rating: float
    deviation: float
    volatility: float
    games: int
    provisional: bool

    @property
    def shown(self) -> str:
        """The rating as players see it: ``1500``, or ``1500?`` while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"

    @property
    def glicko(self) -> Glicko:
        return Glicko(self.rating, self.deviation, self.volatility)


NEW_RATING = Rating(INITIAL_RATING, INITIAL_DEVIATION, INITIAL_VOLATILITY, 0, True)
"""A player who never finished a rated game of the pool."""


def is_provisional(deviation: float) -> bool:
    return deviation > PROVISIONAL_DEVIATION


def rating(value: Glicko, games: int) -> Rating:
    return Rating(
        value.rating, value.deviation, value.volatility, games, is_provisional(value.deviation)
    )


def as_of(value: Glicko, since: datetime, now: datetime) -> Glicko:
    """``value``, last updated at ``since``, at ``now``: its deviation widened for the idle
    days between (:data:`PERIODS_PER_DAY`)."""
    days = (now - since) / timedelta(days=1)
    return idle(value, days * PERIODS_PER_DAY)


def after_game(player: Glicko, opponent: Glicko, score: float) -> Glicko:
    """``player`` after one rated game against ``opponent`` (a rating period of one game)."""
    return update(player, [Outcome(opponent, score)])


def score_of(seat: int, winner: int | None) -> float:
    """A seat's score in a finished game: 1 won, 0 lost, 0.5 drawn (no winner)."""
    if winner is None:
        return 0.5
    return 1.0 if winner == seat else 0.0
