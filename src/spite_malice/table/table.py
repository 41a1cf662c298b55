"""A table: one match between two seats, and every request the seats may make of it.

Requests are checked first (``check_*``: pure, a :class:`TableError` when refused) and give a
:class:`Step`; :meth:`Table.apply` then carries the step out. A front end that stores steps
stores each one between the two, so a step the store refused never happened.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from ..bots import Bot
from ..engine.cards import card_str
from ..engine.commitment import commitment as seed_commitment
from ..engine.errors import NotationError, SpiteMaliceError, quote
from ..engine.game import Game, Outcome
from ..engine.match import Match
from ..engine.moves import Move, parse_move
from ..engine.observation import Observation
from ..engine.record import GameRecord
from ..engine.rules import HAND_SIZE, TURN_LIMIT, Rules
from ..i18n import _
from ..match_records.meta import TableMeta, pool_rules
from . import computer
from .computer import Suggestion
from .errors import TableError
from .levels import level_label
from .seats import COMPUTER, PERSON, Seat
from .steps import ABORT, CLAIM, DEAL, HINT, MOVE, RESIGN, UNDO, Applied, Step
from .words import barrier_sentence, notation_problem, say_reason

RESIGNED = "resigned"
"""The reason a resigned game ends with (its winner is the other seat, for no points)."""
CLAIMED = "claimed"
"""The reason a claimed game ends with: the claimer wins, for no points, the absent friend
loses it (and the match, as by resigning)."""
PLAYING, FINISHED, ABANDONED = "playing", "finished", "abandoned"


@dataclass(frozen=True, slots=True)
class Savepoint:
    """Where a game stood and where in the match (:meth:`Table.savepoint`,
    :meth:`Table.roll_back`): the number of its moves then, and, only for a game that cannot
    be dealt again from its seed, a copy of it (its log included)."""

    game: Game | None
    """The copy; None when the roll back deals the game again from its seed."""
    game_number: int
    plies: int
    chance: tuple[Any, ...] | None = None
    """The state of the random generator the copy shares with the game (None: none)."""
    moves: int = 0
    """How many moves the game had."""
    score: tuple[int, int] = (0, 0)
    """The match's score the game carried."""


class Table:
    """One match between two seats. Read it freely; change it only with :meth:`apply`."""

    def __init__(self, match: Match, meta: TableMeta) -> None:
        self.match = match
        self.meta = meta
        self.assisted: set[int] = set()
        """Numbers (from 1) of the games in which undo or a hint was used."""
        self.resigned: int | None = None
        """The seat that resigned the match, if one did (or whose friend claimed it)."""
        self.claimed = False
        """Whether the match ended by a claim (the resigned seat was offline too long)."""
        self.plies = 0
        """Steps applied in the current game's log (the deal is the first)."""
        self.aborted = False
        """Whether the match was called off before both players moved (no result)."""
        self.moved: set[int] = set()
        """The seats that have played a move in the current game."""
        self.turns = 0
        """Turns ended in the current game (each move that passes the turn counts one)."""
        self._deal_keys: tuple[tuple[int, int, int], str, str] | None = None
        """The last (bot seed, game number, seed) with its salt and commitment: made at every
        state, the same for the whole game."""
        self._reveal: tuple[tuple[Any, ...], dict[str, Any]] | None = None
        """The finished game's reveal and what it was made of (see :meth:`reveal`)."""
        self._match_view: tuple[tuple[Any, ...], dict[str, Any]] | None = None
        """The last :meth:`match_view` and what it was made of."""
        self.bot: Bot | None = None
        if self.computer_seat is not None:
            self.bot = computer.new_computer(meta.level or "medium", meta.bot_seed)

    # ----------------------------------------------------------------- making tables

    @classmethod
    def new(
        cls,
        rules: Rules,
        seats: tuple[Seat, Seat],
        *,
        level: str | None = None,
        seed: int | None = None,
        tokens: tuple[str | None, str | None] = (None, None),
        practice: bool = False,
        daily: str | None = None,
    ) -> Table:
        """A new match, not dealt yet: store and apply :meth:`check_deal` to deal game 1.

        ``seed`` makes the match reproducible; without one every game's deal is secret.
        ``practice`` marks a match whose seed the player chose (see :class:`TableMeta`)."""
        names = (seats[0].name or "Player 1", seats[1].name or "Player 2")
        bot_seed = seed if seed is not None else secrets.randbits(63)
        meta = TableMeta(seats, level, tokens, bot_seed, practice, daily)
        return cls(Match(rules, seed, names), meta)

    @classmethod
    def restore(
        cls, rules: Rules, seed: int | None, meta: TableMeta, steps: Iterable[Step]
    ) -> Table:
        """The table a stored log describes: a new one with every step applied in order."""
        names = (meta.seats[0].name or "Player 1", meta.seats[1].name or "Player 2")
        table = cls(Match(rules, seed, names), meta)
        for step in steps:
            table.apply(step)
        return table

    def rematch(
        self, *, rules: Rules | None = None, level: str | None = None, seed: int | None = None
    ) -> Table:
        """A new match at this table: the same seats, tokens and (unless given) rules and
        level; the computer's seat is renamed after its level. The rematch of a rated match
        between strangers is rated in the same pool (both players agreed to it) when it keeps
        the pool's rules and a secret seed."""
        level = level or self.meta.level
        seats = list(self.meta.seats)
        for index, seat in enumerate(seats):
            if seat.is_computer and level is not None:
                seats[index] = replace(seat, name=level_label(level))
        rules = rules or self.rules
        fresh = Table.new(
            rules,
            (seats[0], seats[1]),
            level=level if self.computer_seat is not None else None,
            seed=seed,
            tokens=self.meta.tokens,
            practice=seed is not None,
        )
        pool = self.meta.pool
        if pool is not None and seed is None and pool_rules(pool) == rules:
            fresh.meta = replace(fresh.meta, pool=pool)
        return fresh

    # ----------------------------------------------------------------- reading

    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def game(self) -> Game:
        game = self.match.game
        if game is None:
            raise SpiteMaliceError("no game is dealt yet")
        return game

    @property
    def is_dealt(self) -> bool:
        return self.match.game is not None

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return self.meta.seats

    @property
    def kind(self) -> str:
        return self.meta.kind

    @property
    def level(self) -> str | None:
        return self.meta.level

    @property
    def names(self) -> list[str | None]:
        return self.meta.names

    @property
    def computer_seat(self) -> int | None:
        return self.meta.computer_seat

    @property
    def game_number(self) -> int:
        return self.match.game_number

    @property
    def is_assisted(self) -> bool:
        """Whether undo or a hint was used in the current game."""
        return self.game_number in self.assisted

    @property
    def is_game_over(self) -> bool:
        return self.resigned is not None or (self.is_dealt and self.game.is_over)

    @property
    def status(self) -> str:
        """``playing``, ``finished`` (a player reached the target) or ``abandoned``."""
        if self.resigned is not None:
            return ABANDONED
        return FINISHED if self.match.is_over else PLAYING

    @property
    def is_full(self) -> bool:
        first, second = self.meta.seats
        return first.is_taken and second.is_taken

    @property
    def computer_to_move(self) -> bool:
        seat = self.computer_seat
        return seat is not None and not self.is_game_over and self.game.to_move == seat

    def observation(self, seat: int) -> Observation:
        observation: Observation = self.game.observation(seat)
        return observation

    def undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take a move back now (a plain sentence), or None."""
        try:
            self.check_undo(seat)
        except TableError as error:
            return error.message
        return None

    def undo_barrier(self, seat: int) -> str | None:
        """When ``seat``'s last move showed a hidden card, the sentence saying why it cannot
        be taken back; else None."""
        if seat == self.computer_seat or self.is_game_over or self.game.to_move != seat:
            return None
        barrier = self.match.undo_barrier
        return None if barrier is None else barrier_sentence(barrier)

    def can_undo(self, seat: int) -> bool:
        if not self._is_turn(seat) or self.match.turn_moves() == 0:
            # check_undo would refuse (a sentence made for nothing): not the seat's turn, or
            # nothing of it played yet (every state at the start of a person's turn)
            return False
        return self.undo_refusal(seat) is None

    def can_hint(self, seat: int) -> bool:
        if not self._is_turn(seat):
            return False  # check_hint would refuse
        try:
            self.check_hint(seat)
        except TableError:
            return False
        return True

    def reveal(self) -> dict[str, Any] | None:
        """Every card that was hidden, once the current game is over (won, drawn or resigned),
        so that players can check that nobody cheated; None while it is played (R6: no
        hidden card leaves the server during play). Pay-off piles bottom to top (their
        face-up top last), hands in their order, the stock in the order it would have been
        drawn (the next card first). With them the game's seed (decimal text: a page's
        numbers hold 53 bits) and salt, which its commitment was made of (docs/verifying.md),
        and the game's record, to verify the deal from."""
        if not self.is_dealt or not self.is_game_over:
            return None
        game = self.game
        assert game.seed is not None
        # every state of a finished game carries it: made once, while what it shows stands
        made_of = (
            self.meta.bot_seed,
            self.game_number,
            game.seed,
            game.first,
            self.resigned,
            self.claimed,
            game.outcome,
            self.match.players,
            tuple(game.moves),
        )
        cached = self._reveal
        if cached is not None and cached[0] == made_of:
            return cached[1]
        reveal = self._make_reveal(game)
        self._reveal = (made_of, reveal)
        return reveal

    def _make_reveal(self, game: Game) -> dict[str, Any]:
        assert game.seed is not None
        ended = game.outcome
        if ended is None:  # resigned (or claimed): the game ends where it stood
            assert self.resigned is not None
            ended = Outcome(1 - self.resigned, 0, CLAIMED if self.claimed else RESIGNED)
        record = self._game_record(ended).to_json()
        record["seed"] = str(record["seed"])  # exact in a page, as the seed beside it
        return {
            "game": self.game_number,
            "payoffs": [[card_str(c) for c in player.payoff] for player in game.players],
            "hands": [[card_str(c) for c in player.hand] for player in game.players],
            "stock": [card_str(c) for c in reversed(game.stock)],
            "seed": str(game.seed),
            "salt": self.deal_salt(),
            "commitment": self.commitment(),
            "record": record,
        }

    def deal_salt(self) -> str:
        """The secret salt of the current game's commitment (docs/verifying.md): an HMAC-SHA256
        of the game's number and seed keyed by the match's computer seed, a 63-bit secret the
        server keeps and never sends, so that each game's salt is secret until its end, and
        revealing one tells nothing of the next."""
        return self._deal_secrets()[0]

    def _deal_secrets(self) -> tuple[str, str]:
        """The current game's salt and commitment, made once a game (every state shows the
        commitment)."""
        game = self.game
        assert game.seed is not None
        made_of = (self.meta.bot_seed, self.game_number, game.seed)
        cached = self._deal_keys
        if cached is not None and cached[0] == made_of:
            return cached[1], cached[2]
        key = self.meta.bot_seed.to_bytes(8, "big")
        message = f"{self.game_number}:{game.seed}".encode("ascii")
        salt = hmac.new(key, message, hashlib.sha256).hexdigest()[:32]
        made = seed_commitment(game.seed, salt)
        self._deal_keys = (made_of, salt, made)
        return salt, made

    def commitment(self) -> str | None:
        """The current game's commitment to its seed (SHA-256 of the seed and its salt, shown
        from the deal on); None before the first deal."""
        if not self.is_dealt:
            return None
        return self._deal_secrets()[1]

    def match_view(self) -> dict[str, Any]:
        """The match's score and finished games, as both front ends show them. Every state
        carries it and it changes only from game to game: made again only when what it is
        made of changed (the match, its game and that game's outcome, the games' number,
        the assisted games, the commitment), else the same dictionary (read it, never change
        it: the states made before hold it too)."""
        match = self.match
        game = match.game
        made_of = (
            match,
            game,
            None if game is None else game.outcome,
            match.game_number,
            frozenset(self.assisted),
            self.commitment(),
        )
        kept = self._match_view
        if kept is not None and kept[0] == made_of:
            return kept[1]
        view = self._made_match_view()
        self._match_view = (made_of, view)
        return view

    def _made_match_view(self) -> dict[str, Any]:
        match = self.match
        games = [
            {
                "number": number,
                "winner": record.result.winner if record.result else None,
                "points": record.result.points if record.result else 0,
                "reason": record.result.reason if record.result else "",
                "assisted": number in self.assisted,
            }
            for number, record in enumerate(match.records, start=1)
        ]
        return {
            "score": list(match.score),
            "target": match.rules.match_target,
            "game_number": match.game_number,
            "over": match.is_over,
            "winner": match.winner,
            "games": games,
            "commitment": self.commitment(),
        }

    # ----------------------------------------------------------------- checking requests

    def check_deal(self) -> Step:
        """The next game's deal (the first one for a new table)."""
        if self.resigned is not None:
            raise TableError("match_over", _("This match was resigned: start a new match."))
        if self.is_dealt:
            if not self.game.is_over:
                raise TableError("game_not_over", _("The game is not over yet."))
            if self.match.is_over:
                raise TableError("match_over", _("The match is over: start a new match."))
        return Step(DEAL, self.game_number + 1, 0, seed=self.match.next_seed())

    def check_move(self, seat: int, move: Move | str) -> Step:
        """``seat`` playing ``move`` (notation or a :class:`Move`)."""
        self._check_turn(seat, MOVE, str(move), busy=True)
        try:
            parsed = parse_move(move)
        except NotationError:
            raise TableError("bad_notation", notation_problem(move)) from None
        game = self.game
        reason = game.why_illegal(parsed)
        if reason is not None:
            said = say_reason(reason)
            # TRANSLATORS: {move} is the move in notation (P-C1), {reason} why it is not legal
            text = _("illegal move {move}: {reason}", move=quote(str(move)), reason=said)
            raise TableError("illegal_move", text, said) from None
        step = Step(MOVE, self.game_number, self.plies, seat, parsed.notation)
        if not _may_end_game(game, parsed):
            return step
        trial = game.copy()  # play it on a copy to know how the game ends, for statistics
        trial.apply(parsed)
        if trial.outcome is None:
            return step
        record = self._game_record(trial.outcome, parsed.notation)
        score = list(self.match.score)
        if trial.outcome.winner is not None:
            score[trial.outcome.winner] += trial.outcome.points
        winner = None
        if max(score) >= self.rules.match_target:
            winner = 0 if score[0] > score[1] else 1
        return replace(step, finished=record, assisted=self.is_assisted, match_winner=winner)

    def check_undo(self, seat: int) -> Step:
        """``seat`` taking back its last move of this turn (against the computer only)."""
        if self.computer_seat is None:
            raise TableError("no_undo", _("Undo is for games against the computer."))
        if seat == self.computer_seat:
            raise TableError("no_undo", _("The computer does not take moves back."))
        self._check_turn(seat, UNDO)
        if self.match.turn_moves() == 0:
            raise TableError("no_undo", _("Nothing of your current turn to take back."))
        barrier = self.undo_barrier(seat)
        if barrier is not None:
            raise TableError("no_undo", barrier)
        if self.match.undo_refusal is not None:  # only a game played without its event log
            raise TableError(
                "no_undo", _("A game played without its event log cannot take moves back.")
            )
        return Step(UNDO, self.game_number, self.plies, seat)

    def check_hint(self, seat: int) -> Step:
        """``seat`` asking for a hint (against the computer only); the hint marks the game
        assisted, as undo does."""
        if self.computer_seat is None or seat == self.computer_seat:
            raise TableError("not_available", _("Hints are for games against the computer."))
        self._check_turn(seat, HINT)
        return Step(HINT, self.game_number, self.plies, seat)

    def check_resign(self, seat: int) -> Step:
        """``seat`` giving up the match: its current game counts as lost, for no points."""
        if self.is_game_over:
            raise TableError("game_over", _("The game is over."))
        record = self._game_record(Outcome(1 - seat, 0, RESIGNED))
        return Step(
            RESIGN, self.game_number, self.plies, seat, finished=record, assisted=self.is_assisted
        )

    def check_claim(self, seat: int) -> Step:
        """``seat`` claiming the game because its friend is gone (the caller checks how long
        for): the friend's match ends as if resigned, its game a win of ``seat`` for no
        points. Between friends only, while a game is played."""
        if self.computer_seat is not None:
            raise TableError("not_available", _("Claiming a game is for games between friends."))
        if not self.is_dealt:
            raise TableError("game_not_dealt", _("No game is dealt yet."))
        if self.is_game_over:
            raise TableError("game_over", _("The game is over."))
        if not self.is_full:
            raise TableError("waiting_for_opponent", _("Wait for your friend to join."))
        record = self._game_record(Outcome(seat, 0, CLAIMED))
        return Step(CLAIM, self.game_number, self.plies, seat, finished=record)

    def check_abort(self, seat: int) -> Step:
        """``seat`` calling off a match between strangers before both players have moved
        in its first game: it ends without a result (no finished game, never rated)."""
        if self.meta.pool is None:
            raise TableError("not_available", _("Only a game between strangers is aborted."))
        if not self.is_dealt:
            raise TableError("game_not_dealt", _("No game is dealt yet."))
        if self.is_game_over:
            raise TableError("game_over", _("The game is over."))
        if self.game_number != 1 or len(self.moved) == 2:
            raise TableError(
                "too_late",
                _("Both players have moved: the game can no longer be aborted. You may resign."),
            )
        return Step(ABORT, self.game_number, self.plies, seat)

    def _game_record(self, result: Outcome, last: str | None = None) -> GameRecord:
        """The record of the game in play ending with ``result``: after the move ``last``
        (which ends it), or where it stands (a resignation or a claim)."""
        game = self.game
        assert game.seed is not None and game.first is not None
        moves = [str(m) for m in game.moves]
        if last is not None:
            moves.append(last)
        return GameRecord(
            seed=game.seed,
            moves=tuple(moves),
            rules=game.rules,
            players=self.match.players,
            first=game.first,
            result=result,
            extra={"deal": {"commitment": self.commitment(), "salt": self.deal_salt()}},
        )

    def _is_turn(self, seat: int) -> bool:
        """Whether :meth:`_check_turn` lets ``seat`` go on (without making its refusal: the
        page's state asks it of every seat at every move)."""
        # the seat to move first: it rules out the other seat's states at once (the others
        # are properties that read more)
        match = self.match
        return (
            match.game is not None
            and match.game.to_move == seat
            and not self.is_game_over
            and self.is_full
        )

    def _check_turn(self, seat: int, what: str, move: str = "", *, busy: bool = False) -> None:
        """Refuse ``what`` (a step kind: MOVE of ``move``, UNDO or HINT) unless it is
        ``seat``'s turn in a game being played."""
        if not self.is_dealt:
            raise TableError("game_not_dealt", _("No game is dealt yet."))
        if self.is_game_over:
            raise TableError("game_over", _refusal(what, move, computer=False, over=True))
        if not self.is_full:
            raise TableError("waiting_for_opponent", _("Wait for your friend to join."))
        if self.game.to_move != seat:
            if busy and self.computer_seat is not None and self.computer_seat != seat:
                raise TableError("busy", _("The computer is playing its turn."))
            computer = seat == self.computer_seat
            raise TableError("not_your_turn", _refusal(what, move, computer=computer, over=False))

    # ----------------------------------------------------------------- the computer

    def think(self) -> Move:
        """The computer's next move (it may be slow: run it off any UI or event-loop thread
        unless its decisions are known to be quick). The table is not changed; check and
        apply the move as any other."""
        seat = self.computer_seat
        assert seat is not None and self.bot is not None, "the computer does not sit here"
        return computer.choose(self.bot, self.observation(seat))

    def suggest(self, seat: int) -> Suggestion:
        """A hint for ``seat`` (slow: run it off any UI thread); the table is not changed."""
        return computer.suggest(self.observation(seat), self.meta.bot_seed + len(self.game.moves))

    # ----------------------------------------------------------------- changing

    def apply(self, step: Step) -> Applied:
        """Carry out a checked (or stored) step: the only way a table changes."""
        expected = 0 if step.kind == DEAL else self.plies
        number = self.game_number + 1 if step.kind == DEAL else self.game_number
        if step.ply != expected or step.game != number:
            raise SpiteMaliceError(
                f"step {step.kind} of game {step.game} ply {step.ply} does not follow "
                f"game {self.game_number} ply {self.plies}"
            )
        if step.kind == DEAL:
            game = self.match.next_game(seed=step.seed)
            self.plies = 1
            self.moved, self.turns = set(), 0
            if self.bot is not None and self.computer_seat is not None:
                self.bot.new_game(self.computer_seat)
            return Applied(step, None, list(game.events))
        self.plies += 1
        if step.kind == MOVE:
            assert step.move is not None
            game = self.game
            before = len(game.events)
            mover = game.to_move
            move = self.match.play(step.move)
            self.moved.add(mover)
            if game.is_over or game.to_move != mover:
                self.turns += 1
            return Applied(step, move, game.events[before:])
        if step.kind == UNDO:
            self.assisted.add(self.game_number)
            return Applied(step, self.match.undo())
        if step.kind == HINT:
            self.assisted.add(self.game_number)
            return Applied(step)
        if step.kind == RESIGN:
            self.resigned = step.seat
            return Applied(step)
        if step.kind == ABORT:
            self.resigned, self.aborted = step.seat, True
            return Applied(step)
        if step.kind == CLAIM:
            assert step.seat is not None
            self.resigned, self.claimed = 1 - step.seat, True
            return Applied(step)
        raise SpiteMaliceError(f"unknown step kind {step.kind!r}")

    def savepoint(self) -> Savepoint:
        """The current game as it stands, to go back to with :meth:`roll_back`: a front end
        that applies several moves before storing them together (the computer's turn, one
        write instead of one a move) goes back when the store refuses them."""
        game = self.game
        if game.seed is not None and game.first is not None:
            # A dealt game is kept as its number of moves: a roll back (the store refused,
            # rare) deals it again from its seed and plays its moves, as an undo does, so
            # that the savepoint a server takes at every computer's turn copies nothing (the
            # copy was 3 to 5% of an instance's CPU under load).
            return Savepoint(
                None, self.game_number, self.plies, moves=len(game.moves), score=game.score
            )
        # The copy shares the game's random generator and keeps only its state, restored
        # by a roll back: a generator of its own cost a fresh one (seeded from the system's
        # entropy) and two copies of its state, about three quarters of a copy's time.
        rng = game.rng
        kept = game.copy(rng=rng, recording=game.recording)
        kept.events = list(game.events)  # the copy starts its log empty: the log is kept too
        chance = rng.getstate() if rng is not None else None
        return Savepoint(kept, self.game_number, self.plies, chance)

    def roll_back(self, point: Savepoint) -> None:
        """Go back to ``point`` (taken in this game, with moves only applied since: no deal,
        undo, hint or resignation, none of which a savepoint covers)."""
        if point.game_number != self.game_number or point.plies > self.plies:
            raise SpiteMaliceError(
                f"savepoint of game {point.game_number} ply {point.plies} is not behind "
                f"game {self.game_number} ply {self.plies}"
            )
        kept = point.game
        if kept is None:
            game = self.game
            assert game.seed is not None and game.first is not None
            record = GameRecord(
                seed=game.seed,
                moves=tuple(str(move) for move in game.moves[: point.moves]),
                rules=game.rules,
                first=game.first,
            )
            kept = record.replay(recording=game.recording)  # the deal, the shuffles, the log
            kept.score = point.score
        elif kept.rng is not None and point.chance is not None:
            kept.rng.setstate(point.chance)  # the shuffles since, undone too
        self.match.game = kept
        self.plies = point.plies

    def take_seat(self, seat: int, taken: Seat, token_hash: str | None = None) -> None:
        """Seat a player (a friend joining); not a step: the match itself does not change."""
        seats = list(self.meta.seats)
        seats[seat] = taken
        tokens = list(self.meta.tokens)
        if token_hash is not None:
            tokens[seat] = token_hash
        self.meta = replace(self.meta, seats=(seats[0], seats[1]), tokens=(tokens[0], tokens[1]))
        players = list(self.match.players)
        players[seat] = taken.name or players[seat]
        self.match.players = (players[0], players[1])

    def close(self) -> None:
        """Release the computer player."""
        if self.bot is not None:
            self.bot.close()


def _refusal(what: str, move: str, *, computer: bool, over: bool) -> str:
    """Why a move, undo or hint is refused: the game is over, or it is not the turn of the
    seat (yours, or the computer's when the computer's seat asked)."""
    shown = quote(move)
    if over:
        if what == MOVE:
            return _("illegal move {move}: the game is over", move=shown)
        return _("undo: the game is over") if what == UNDO else _("a hint: the game is over")
    if computer:
        if what == MOVE:
            return _("illegal move {move}: it is not the computer's turn", move=shown)
        if what == UNDO:
            return _("undo: it is not the computer's turn")
        return _("a hint: it is not the computer's turn")
    if what == MOVE:
        return _("illegal move {move}: it is not your turn", move=shown)
    return _("undo: it is not your turn") if what == UNDO else _("a hint: it is not your turn")


def _may_end_game(game: Game, move: Move) -> bool:
    """Whether ``move`` can end the game: a conservative test (never False for a move that
    does), so that most moves need no trial copy. A game ends when the pay-off pile empties
    (R4.1), at the turn limit (R4.3) or when a draw finds the stock short (R4.2); a
    completed stack only adds cards to the stock."""
    me = game.players[game.to_move]
    if move.is_from_payoff:
        return len(me.payoff) == 1
    short = len(game.stock) < HAND_SIZE
    if move.is_discard:
        return short or game.turn >= TURN_LIMIT
    return short and move.is_from_hand and len(me.hand) == 1


def person_seats(name: str, player: str | None, level: str) -> tuple[Seat, Seat]:
    """The seats of a game against the computer: the person in seat 0."""
    return (Seat(PERSON, name, player), Seat(COMPUTER, level_label(level)))
