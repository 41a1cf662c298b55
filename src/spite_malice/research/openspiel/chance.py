"""The chance bookkeeping of the OpenSpiel adapter (:mod:`.game`): a state's engine game,
the counts of the cards nobody has seen, and the chance event it waits for, kept in a plain
Python object (:class:`_EngineBox`) beside the pybind11 state; and the tables the state's
methods read (the words of information states, the places waiting for chance, the legal
actions by flag pieces)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import compress
from operator import itemgetter
from typing import Any, NoReturn

import pyspiel

from ...engine.cards import FACES, Card, card_str, full_deck
from ...engine.chance import Deal, Draw, Piles, Reshuffle, TurnUp
from ...engine.game import Game
from ...engine.moves import ALL_MOVES, SIDE_SOURCE_BASE, TARGETS
from ...engine.rules import HAND_SIZE

# A place waiting for a chance outcome: (kind, player) with kind "hand" (a card drawn into
# that player's hand) or "payoff" (that player's pay-off top).
_Slot = tuple[str, int]

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_FACE_RANGE = range(FACES)
_RECYCLED_RANGE = range(FACES, 2 * FACES)

# The words of information states, made once as whole entries of _EngineBox.log (owner,
# text, text the others see), so that logging one is an append: a move, a card drawn (as its
# owner and as the others see it) and a pay-off card turned up, for each seat.
_MOVE_WORDS = tuple(
    tuple((-1, f"{who}:{move.notation}", None) for move in ALL_MOVES) for who in (0, 1)
)
_DRAW_WORDS = tuple(
    tuple((who, f"{who}+{card_str(face)}", f"{who}+??") for face in _FACE_RANGE) for who in (0, 1)
)
_TURN_UP_WORDS = tuple(
    tuple((-1, f"{who}^{card_str(face)}", None) for face in _FACE_RANGE) for who in (0, 1)
)

# The places waiting for chance that each event brings (see _next_chance), made once.
_PAYOFF_SLOTS: tuple[_Slot, _Slot] = (("payoff", 0), ("payoff", 1))
_DRAW_SLOTS = tuple(
    tuple([("hand", who)] * count for count in range(HAND_SIZE + 1)) for who in (0, 1)
)
_DEAL_SLOTS = [("hand", 0)] * HAND_SIZE + [("hand", 1)] * HAND_SIZE + list(_PAYOFF_SLOTS)
_TIE_SLOTS = list(_PAYOFF_SLOTS)


def _weighted(
    outcomes: range, counts: list[int], scale: float, most: int
) -> Iterator[tuple[int, float]]:
    """``(outcomes[i], counts[i] * scale)`` for each count that is not 0, in order; no count
    is above ``most``."""
    # the usual two decks spelled out (no comprehension to run); the same floats either way
    chances = (0.0, scale, scale + scale) if most == 2 else [n * scale for n in range(most + 1)]
    # One C call looks up every chance (a third faster than a map over the counts); the two
    # extra indexes make it give a tuple even for one count or none, and zip stops at the
    # outcomes, of which there are as many as counts that are not 0.
    picked = itemgetter(*filter(None, counts), 0, 0)(chances)
    return zip(compress(outcomes, counts), picked)  # noqa: B905


class _ActionPiece(dict[bytes, tuple[int, ...]]):
    """The flagged actions of one piece of :meth:`Game.legal_move_flags`, by the piece's
    bytes, filled in as pieces turn up."""

    def __init__(self, start: int) -> None:
        super().__init__()
        self.start = start

    def __missing__(self, flags: bytes) -> tuple[int, ...]:
        actions = self[flags] = tuple(compress(range(self.start, self.start + len(flags)), flags))
        return actions


# The flags cut in three: pay-off and hand Ace-6, hand 7-King, side stacks. Whole flag strings
# seldom repeat (half of them are new in 200 games), but each piece's patterns are few: about
# 6,000, 2,000 and 300 over 1,000 first-fit games.
_CUT_1 = 7 * TARGETS
_CUT_2 = SIDE_SOURCE_BASE * TARGETS
_PIECE_1, _PIECE_2, _PIECE_3 = _ActionPiece(0), _ActionPiece(_CUT_1), _ActionPiece(_CUT_2)


def _flagged_actions(flags: bytes) -> list[int]:
    """The actions whose flag is set in ``flags`` (144 bytes), ascending."""
    return [*_PIECE_1[flags[:_CUT_1]], *_PIECE_2[flags[_CUT_1:_CUT_2]], *_PIECE_3[flags[_CUT_2:]]]


class _EngineBox:
    """A state's engine :class:`Game` and the bookkeeping of its unseen cards and of the
    chance event it waits for (see :class:`SpiteMaliceState`).

    They live here rather than on the state because the state is a pybind11 object, whose
    attributes cost about twice as much to read or write as a slot of a plain Python object;
    the state's methods read its box once. The box is copied fast when OpenSpiel clones the
    state (by deep copy), and pickles slot by slot.
    """

    __slots__ = (
        "chosen",
        "dealing",
        "decks",
        "fresh",
        "fresh_total",
        "game",
        "known",
        "known_totals",
        "log",
        "payoff_size",
        "points_reward",
        "recycled",
        "recycled_total",
        "reveals",
    )

    def __init__(self, game: Game, decks: int, payoff_size: int, points_reward: bool) -> None:
        self.game = game
        self.points_reward = points_reward
        self.payoff_size = payoff_size
        self.decks = decks  # no face has more unseen cards than this
        self.fresh = [decks] * FACES
        self.fresh_total = decks * FACES
        self.recycled = [0] * FACES
        self.recycled_total = 0
        self.known = [0] * (2 * FACES)  # player * FACES + face
        self.known_totals = [0, 0]
        self.reveals: list[_Slot] = []  # places waiting for a card, the next first
        self.chosen: list[Card] = []  # cards chosen so far for the engine's event
        self.dealing = False  # whether the event waiting is the deal (R1.2)
        # What happened, for information states: (owner, text, text others see or None)
        self.log: list[tuple[int, str, str | None]] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _EngineBox:
        copy = _EngineBox.__new__(_EngineBox)
        copy.game = self.game.copy()
        copy.points_reward = self.points_reward
        copy.payoff_size = self.payoff_size
        copy.decks = self.decks
        copy.fresh = self.fresh[:]  # the lists hold numbers, cards and tuples of them
        copy.fresh_total = self.fresh_total
        copy.recycled = self.recycled[:]
        copy.recycled_total = self.recycled_total
        copy.known = self.known[:]
        copy.known_totals = self.known_totals[:]
        copy.reveals = self.reveals[:]
        copy.chosen = self.chosen[:]
        copy.dealing = self.dealing
        copy.log = self.log[:]
        return copy

    # ----------------------------------------------------------------- chance

    def next_chance(self) -> None:
        """Turn the chance event the engine waits for into cards to reveal, settling a
        shuffle of the stock at once."""
        game = self.game
        chance = game.chance
        while chance:
            event = chance[0]
            if type(event) is Draw:  # R2.1, R3.4(c): the most frequent first
                self.reveals += _DRAW_SLOTS[event.player][event.count]
            elif type(event) is TurnUp:  # R3.4(a)
                self.reveals.append(_PAYOFF_SLOTS[event.player])
            elif type(event) is Deal:  # R1.2
                self.reveals += _DEAL_SLOTS
                self.dealing = True
            elif type(event) is Reshuffle and event.piles is Piles.STOCK:  # R3.4(b)
                game.apply_chance(game.stock)  # its cards were counted when the stack completed
                continue
            else:  # R1.4: both tops go back into their piles
                known = self.known
                for who, player in enumerate(game.players):
                    known[who * FACES + player.payoff[-1]] += 1
                    self.known_totals[who] += 1
                self.reveals += _TIE_SLOTS
                self.log.append((-1, "tie", None))
            return

    def draw_card(self, outcome: int, who: int) -> None:
        """:meth:`_reveal` of a card drawn from the stock into ``who``'s hand (not at the
        deal), spelled out: the same steps, with fewer lookups."""
        game = self.game
        chosen = self.chosen
        if outcome >= FACES:  # R3.4(b): a recycled card, which the stock always keeps
            face = outcome - FACES
            if not self.recycled[face]:
                self.impossible(outcome)
            self.recycled[face] -= 1
            self.recycled_total -= 1
        else:
            face = outcome
            fresh = self.fresh
            if not fresh[face]:
                self.impossible(face)
            stock = game.stock
            recycled = self.recycled_total
            if recycled:
                if len(stock) - len(chosen) <= recycled:
                    self.impossible(face)  # only recycled cards are left in the stock
                if stock.count(face) <= self.recycled[face] + chosen.count(face):
                    self.draw_room(face, stock, chosen)  # it keeps all it holds: swap one in
            elif chosen:
                if stock.count(face) <= chosen.count(face):
                    self.draw_room(face, stock, chosen)
            elif face not in stock:  # (no card the stock must keep: any copy will do)
                self.draw_room(face, stock, chosen)
            fresh[face] -= 1
            self.fresh_total -= 1
        reveals = self.reveals
        del reveals[0]
        chosen.append(face)
        self.log.append(_DRAW_WORDS[who][face])
        if not reveals:  # every card drawn is chosen: the engine draws them
            self.chosen = []
            game.apply_chance(chosen)
            if game.chance:
                self.next_chance()

    def turn_up(self, face: Card, who: int) -> None:
        """:meth:`_reveal` of a never-seen card of ``face`` turned up on ``who``'s pay-off
        pile, which holds no known card (R3.4(a); not at the deal, not after a tie, whose
        piles hold their old tops), spelled out."""
        fresh = self.fresh
        if not fresh[face]:
            self.impossible(face)
        game = self.game
        pile = game.players[who].payoff
        if face not in pile:  # swap one in (any card of the pile is a never-seen one)
            stock = game.stock
            other = game.players[1 - who].payoff
            if stock.count(face) > self.recycled[face]:
                stock[stock.index(face)], pile[0] = pile[0], face
            elif not self.known_totals[1 - who] and face in other[:-1]:
                other[other.index(face)], pile[0] = pile[0], face
            else:
                self.make_room(face, "payoff", who)
        fresh[face] -= 1
        self.fresh_total -= 1
        del self.reveals[0]
        self.log.append(_TURN_UP_WORDS[who][face])
        game.apply_chance((face,))
        if game.chance:
            self.next_chance()

    def reveal(self, outcome: int) -> None:
        """A chance outcome: the next place waiting shows a card (see the class docstring)."""
        reveals = self.reveals
        kind, who = reveals[0]
        if not 0 <= outcome < 2 * FACES:
            self.impossible(outcome)
        hand = kind == "hand"
        if outcome >= FACES:  # a card seen before: recycled in the stock, or known in a pile
            face = outcome - FACES
            if hand:
                if not self.recycled[face]:
                    self.impossible(outcome)
                self.recycled[face] -= 1
                self.recycled_total -= 1
            else:
                at = who * FACES + face
                if not self.known[at]:
                    self.impossible(outcome)
                self.known[at] -= 1
                self.known_totals[who] -= 1
        else:
            face = outcome
            if not self.fresh[face]:
                self.impossible(outcome)
            game = self.game
            if self.dealing:  # R1.2: the deal's cards are placed when it is settled
                pass
            elif hand:  # the stock must hold a never-seen card of the face it need not keep
                stock = game.stock
                recycled = self.recycled_total
                chosen = self.chosen
                if recycled and len(stock) - len(chosen) <= recycled:
                    self.impossible(outcome)  # only recycled cards are left in the stock
                if stock.count(face) <= self.recycled[face] + chosen.count(face):
                    self.draw_room(face, stock, chosen)
            else:  # likewise the pile, whose top waits (no card of it chosen yet)
                pile = game.players[who].payoff
                known_total = self.known_totals[who]
                if len(pile) <= known_total:
                    self.impossible(outcome)  # only known cards are left in the pile
                if pile.count(face) <= self.known[who * FACES + face]:
                    stock = game.stock
                    other = game.players[1 - who].payoff
                    if known_total:
                        self.make_room(face, kind, who)
                    elif stock.count(face) > self.recycled[face]:
                        # the usual case: the stock gives a never-seen one for the pile's
                        # bottom card (never seen either: the pile holds no known card)
                        at = stock.index(face)
                        stock[at], pile[0] = pile[0], face
                    elif not self.known_totals[1 - who] and face in other[:-1]:
                        at = other.index(face)  # likewise the other pile's face-down cards
                        other[at], pile[0] = pile[0], face
                    else:
                        self.make_room(face, kind, who)
            self.fresh[face] -= 1
            self.fresh_total -= 1
        del reveals[0]
        self.chosen.append(face)
        if hand:
            self.log.append(_DRAW_WORDS[who][face])
        else:
            self.log.append(_TURN_UP_WORDS[who][face])
        if not reveals:  # every card of the engine's chance event is chosen
            self.settle()
            self.next_chance()

    def settle(self) -> None:
        """Give the engine the outcome of its chance event, every card of it chosen."""
        game = self.game
        chosen = self.chosen
        self.chosen = []
        if not self.dealing and type(game.chance[0]) is not Reshuffle:  # a draw, a turn-up
            game.apply_chance(chosen)
        elif self.dealing:
            self.dealing = False  # R1.2: the piles' face-down cards are any never-seen
            size = self.payoff_size
            fresh = self.fresh_faces()
            # any order will do; with one card of every face in the stock, a draw seldom
            # needs a card swapped in from a pay-off pile (see _make_room)
            firsts = sorted(set(fresh))
            for face in firsts:
                fresh.remove(face)
            stock_size = len(fresh) + len(firsts) - 2 * (size - 1)
            order = firsts + fresh
            stock, rest = order[:stock_size], order[stock_size:]
            piles = [rest[: size - 1], rest[size - 1 :]]
            deck = piles[0] + [chosen[10]] + piles[1] + [chosen[11]] + chosen[:10]
            game.apply_chance(deck + stock)
        else:  # R1.4: each pile reshuffled within itself, the chosen card on top
            piles = []
            for who, top in enumerate(chosen):
                pile = game.players[who].payoff[:]
                pile.reverse()
                pile.remove(top)
                pile.reverse()
                piles.append([*pile, top])
            game.apply_chance(piles)

    def places(self) -> list[tuple[list[Card], int, int]]:
        """The engine's hidden places: (list, how many of its first cards are hidden, the
        place's key for :meth:`_required`): the stock, then each pay-off pile's face-down
        cards (the whole pile while its top waits for chance)."""
        game = self.game
        event = game.chance[0] if game.chance else None
        places = [(game.stock, len(game.stock), -1)]
        for who, player in enumerate(game.players):
            waiting = isinstance(event, Reshuffle) or (
                isinstance(event, TurnUp) and event.player == who
            )
            pile = player.payoff
            places.append((pile, len(pile) if waiting else max(0, len(pile) - 1), who))
        return places

    def required(self, key: int, face: Card) -> int:
        """How many cards of ``face`` the place ``key`` must keep: the stock its recycled
        ones and the cards chosen for a draw; a pile its known ones and a top chosen for it."""
        chosen = self.chosen
        if key < 0:
            if chosen and type(self.game.chance[0]) is Draw:
                return self.recycled[face] + chosen.count(face)
            return self.recycled[face]
        game = self.game
        event = game.chance[0] if game.chance else None
        top = 0
        if isinstance(event, Reshuffle) and key < len(chosen):
            top = int(chosen[key] == face)
        elif isinstance(event, TurnUp) and event.player == key and chosen:
            top = int(chosen[0] == face)
        return self.known[key * FACES + face] + top

    def draw_room(self, face: Card, stock: list[Card], chosen: list[Card]) -> None:
        """Before a never-seen card of ``face`` is drawn from ``stock``, which holds none it
        need not keep: swap one in from the face-down cards of a pay-off pile with no known
        card, for a stock card it need not keep; :meth:`_make_room` in any other case."""
        recycled = self.recycled
        for who, player in enumerate(self.game.players):
            if self.known_totals[who]:
                continue
            pile = player.payoff
            try:
                at = pile.index(face, 0, len(pile) - 1)  # not the face-up top
            except ValueError:
                continue
            for i, card in enumerate(stock):
                if card != face and stock.count(card) > recycled[card] + chosen.count(card):
                    stock[i], pile[at] = face, card
                    return
            break
        self.make_room(face, "hand", 0)

    def make_room(self, face: Card, kind: str, who: int) -> None:
        """Before a never-seen card of ``face`` is chosen for the stock (``kind == "hand"``) or
        pile ``who``: make the engine's place hold one such card it need not keep, swapping
        it in from another hidden place if need be (never-seen cards are interchangeable)."""
        game = self.game
        # the place: the whole stock, or the whole pile whose top waits for chance
        key = -1 if kind == "hand" else who
        place = game.stock if kind == "hand" else game.players[who].payoff
        if place.count(face) > self.required(key, face):
            return  # the usual case: it holds a spare one
        for other, hidden, other_key in self.places():
            if other is place:
                continue
            try:
                at = other.index(face, 0, hidden)
            except ValueError:
                continue
            if other_key >= 0 and not self.known[other_key * FACES + face]:
                pass  # a pile with no known card of the face: any copy is a never-seen one
            elif other[:hidden].count(face) <= self.required(other_key, face):
                continue
            for i in range(len(place) - 1, -1, -1):  # a spare card of the place, to swap out
                card = place[i]
                if card != face and place.count(card) > self.required(key, card):
                    place[i], other[at] = face, card
                    return
        raise AssertionError(f"no never-seen {card_str(face)} to bring into view")

    def fresh_faces(self) -> list[Card]:
        """The never-seen cards, by face."""
        return [face for face, count in enumerate(self.fresh) for _ in range(count)]

    @staticmethod
    def impossible(outcome: int) -> NoReturn:
        if not 0 <= outcome < 2 * FACES:
            raise ValueError(f"no chance outcome {outcome}; outcomes run 0 to {2 * FACES - 1}")
        raise ValueError(
            f"chance outcome {outcome} ({card_str(outcome % FACES)}) is impossible here"
        )

    def arrange_hidden(self) -> None:
        """Put the unseen cards into the engine's hidden places, agreeing with the counts:
        the recycled cards and some never-seen ones in the stock, each pile's known cards and
        never-seen ones in the pay-off piles (at a player's turn: nothing waits for chance)."""
        fresh = self.fresh_faces()
        for pile, hidden, key in self.places():
            if key < 0:
                need = [face for face, count in enumerate(self.recycled) for _ in range(count)]
            else:
                known = self.known[key * FACES : (key + 1) * FACES]
                need = [face for face, count in enumerate(known) for _ in range(count)]
            take = hidden - len(need)
            pile[:hidden] = need + fresh[:take]
            del fresh[:take]
        assert not fresh, "the counts fit the places"

    def redeal_unseen(self, player: int, rng: random.Random) -> None:
        """Deal the opponent's hand afresh (see :meth:`resample_from_infostate`)."""
        game = self.game
        opponent = game.players[1 - player]
        unseen = opponent.hand[:]
        unseen += self.fresh_faces()
        unseen += [face for face, count in enumerate(self.recycled) for _ in range(count)]
        rng.shuffle(unseen)
        opponent.hand[:] = unseen[: len(opponent.hand)]
        left = unseen[len(opponent.hand) :]
        # Of what is left, as many as before are recycled (cards of completed stacks, which
        # can only be in the stock), as far as the faces allow; the rest were never seen.
        counts = [0] * FACES
        for card in left:
            counts[card] += 1
        recycled = [min(was, now) for was, now in zip(self.recycled, counts, strict=True)]
        short = sum(self.recycled) - sum(recycled)
        spare = [face for face in range(FACES) for _ in range(counts[face] - recycled[face])]
        rng.shuffle(spare)
        for face in spare[:short]:
            recycled[face] += 1
        self.recycled = recycled
        self.recycled_total = sum(recycled)
        self.fresh = [now - was for now, was in zip(counts, recycled, strict=True)]
        self.fresh_total = sum(self.fresh)
        self.arrange_hidden()
        # The opponent's hand is no longer what its own draws said: keep its draws hidden
        # from everyone in this copy and note its new hand for its own information state.
        self.log = [
            (owner, others if owner == 1 - player and others else text, others)
            for owner, text, others in self.log
        ]
        shown = " ".join(card_str(card) for card in sorted(opponent.hand))
        self.log.append((1 - player, f"{1 - player}=[{shown}]", None))

    def check_counts(self) -> None:
        """Assert the bookkeeping of unseen cards (for tests): the counts fit the places,
        every place holds the cards it must, and the engine holds exactly the cards of the
        decks, with the cards chosen for the chance event it waits for."""
        recycled, fresh = sum(self.recycled), sum(self.fresh)
        known = sum(self.known)
        assert min(self.recycled) >= 0 and min(self.fresh) >= 0 and min(self.known) >= 0
        assert (recycled, fresh) == (self.recycled_total, self.fresh_total), "totals drifted"
        assert [sum(self.known[:FACES]), sum(self.known[FACES:])] == self.known_totals
        unseen = Counter(self.fresh_faces())
        unseen.update(face for face, n in enumerate(self.recycled) for _ in range(n))
        unseen.update(i % FACES for i, n in enumerate(self.known) for _ in range(n))
        assert max(unseen.values(), default=0) <= self.decks, "more of a face than the decks"
        game = self.game
        if game.chance and isinstance(game.chance[0], Deal):
            assert recycled == known == 0 and fresh + len(self.chosen) == game.rules.deck_size
            return
        places = self.places()
        hidden = sum(size for _, size, _ in places)
        for pile, size, key in places:
            have = Counter(pile[:size])
            for face in range(FACES):
                assert have[face] >= self.required(key, face), "a place lost a card it keeps"
        assert recycled + fresh + known + len(self.chosen) == hidden, "counts drifted"
        cards = list(game.stock) + [card for stack in game.center for card in stack]
        for player in game.players:
            cards += player.payoff + player.hand + [card for pile in player.side for card in pile]
        assert sorted(cards) == sorted(full_deck(game.rules.decks)), "the deck is not whole"
