"""The chance interface (issue 16, item 2): a game whose chance comes from outside waits for
each chance event and takes its outcome through ``Game.deal``; fed what the seeded dealer
would deal, it is the seeded game."""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest

from spite_malice.bots import reference_move
from spite_malice.engine import (
    STOCK_EXHAUSTED,
    ArgumentError,
    Game,
    GameDealt,
    IllegalMoveError,
    PlayerState,
    Rules,
    make_card,
)
from spite_malice.engine.cards import full_deck
from spite_malice.engine.chance import Deal, Draw, Reshuffle, TurnUp

from .helpers import cards, game


def _seeded_outcome(played: Game, rng: random.Random) -> list[int] | list[list[int]]:
    """What ``Game.new``'s seeded dealer deals for the event ``played`` waits for."""
    event = played.chance[0]
    if isinstance(event, Deal):
        deck = full_deck(played.rules.decks)
        rng.shuffle(deck)
        return deck
    if isinstance(event, Reshuffle) and event.piles == "payoffs":
        piles = [played.players[0].payoff[:], played.players[1].payoff[:]]
        rng.shuffle(piles[0])
        rng.shuffle(piles[1])
        return piles
    if isinstance(event, Reshuffle):
        stock = played.stock[:]
        rng.shuffle(stock)
        return stock
    if isinstance(event, Draw):
        return played.stock[::-1][: event.count]
    assert isinstance(event, TurnUp)
    return [played.players[event.player].payoff[-1]]


def _settle(played: Game, rng: random.Random, kinds: Counter[str]) -> None:
    while played.chance:
        kinds[type(played.chance[0]).__name__] += 1
        played.deal(_seeded_outcome(played, rng))


def vars_of(player: PlayerState) -> tuple[object, ...]:
    return (player.payoff, player.hand, player.side)


def _tie_seed(rules: Rules) -> int:
    """A seed whose deal ties the pay-off tops (R1.4)."""
    return next(
        seed
        for seed in range(1000)
        if any(isinstance(e, GameDealt) and e.reshuffles for e in Game.new(seed, rules).events)
    )


@pytest.mark.parametrize("rules", [Rules.STANDARD, Rules(payoff_size=6, center_stacks=4)])
def test_fed_the_seeded_dealer_s_outcomes_an_undealt_game_is_the_seeded_game(
    rules: Rules,
) -> None:
    kinds: Counter[str] = Counter()
    for seed in [*range(12), _tie_seed(rules)]:
        seeded = Game.new(seed, rules)
        outside = Game.undealt(rules)
        assert outside.chance == [Deal(rules.deck_size)] and outside.legal_moves() == []
        rng = random.Random(seed)
        _settle(outside, rng, kinds)
        assert outside.to_position() == seeded.to_position()
        assert outside.events == seeded.events  # GameDealt, its tie reshuffles counted
        while not seeded.is_over:
            move = reference_move(seeded)
            seeded.play(move)
            outside.play(move)
            _settle(outside, rng, kinds)
            assert outside.to_position() == seeded.to_position()
            assert outside.outcome == seeded.outcome
        # the same events; a turned-up pay-off card is recorded when it is dealt
        assert Counter(map(str, outside.events)) == Counter(map(str, seeded.events))
    assert set(kinds) == {"Deal", "Reshuffle", "Draw", "TurnUp"}


def test_r1_4_tied_tops_wait_for_both_piles_reshuffled() -> None:
    rules = Rules(payoff_size=5)
    outside = Game.undealt(rules)
    deck = full_deck(rules.decks)
    deck[4], deck[9] = make_card(7, 0), make_card(7, 1)  # both tops 7s
    deck[deck.index(make_card(7, 0), 10)], deck[deck.index(make_card(7, 1), 10)] = (
        deck[4 + 52],
        deck[9 + 52],
    )
    outside.deal(deck)
    assert outside.chance == [Reshuffle("payoffs")] and outside.first is None
    one, two = outside.players[0].payoff[:], outside.players[1].payoff[:]
    with pytest.raises(ArgumentError, match="within itself"):
        outside.deal([two, one])
    outside.deal([one, two])  # the same order again: tied again
    assert outside.chance == [Reshuffle("payoffs")]
    outside.deal([one[::-1], two])
    assert not outside.chance and outside.events == [GameDealt(outside.first or 0, 2)]
    higher = 0 if one[0] % 13 > two[-1] % 13 else 1
    assert outside.first == outside.to_move == higher


def test_outcomes_that_do_not_fit_are_refused_and_change_nothing() -> None:
    outside = Game.undealt()
    with pytest.raises(ArgumentError, match="whole deck"):
        outside.deal(full_deck(2)[:-1])
    with pytest.raises(ArgumentError, match="list of cards"):
        outside.deal(["AS"] * 104)  # type: ignore[list-item]
    assert outside.chance == [Deal(104)] and not outside.stock
    outside.deal(full_deck(2))
    while outside.chance:  # a tie with this order: reshuffle within each pile
        outside.deal([outside.players[0].payoff[::-1], outside.players[1].payoff])
    with pytest.raises(ArgumentError, match="no chance event"):
        outside.deal([])


def test_a_draw_takes_cards_of_the_stock_and_moves_wait_for_it() -> None:
    played = game(
        hands=("AS 2S 3S 4S KS", "2D"), stock="5C 6C 7C 8C 9C", leftovers="side", recording=False
    )
    outside = played.copy()
    outside.rng = None  # chance from outside from here on
    for move in ("HA-C1", "H2-C1", "H3-C1", "H4-C1", "HK-C1"):
        outside.play(move)
    assert outside.chance == [Draw(outside.to_move, 5)]  # R3.4(c): an empty hand draws five
    assert outside.legal_moves() == [] and outside.legal_move_flags() == bytes(144)
    with pytest.raises(IllegalMoveError, match="waits for chance"):
        outside.play("P-C2")
    with pytest.raises(ArgumentError, match="in the stock"):
        outside.deal(cards("5C 6C 7C 8C TC"))
    with pytest.raises(ArgumentError, match="takes 5"):
        outside.deal(cards("5C 6C"))
    outside.deal(cards("9C 5C 7C 6C 8C"))
    assert outside.players[outside.to_move].hand[-5:] == cards("9C 5C 7C 6C 8C")
    assert not outside.stock and outside.legal_moves()


def test_r4_2_a_short_draw_ends_the_game_after_its_cards_are_dealt() -> None:
    played = game(hands=("AS", "2D"), stock="5C 6C", leftovers="side")
    outside = played.copy(recording=True)
    outside.rng = None  # chance from outside from here on
    outside.play("HA-C1")
    assert outside.chance == [Draw(outside.to_move, 2)] and outside.outcome is None
    outside.deal(cards("6C 5C"))
    assert outside.outcome is not None and outside.outcome.reason == STOCK_EXHAUSTED
    assert [type(e).__name__ for e in outside.events][-2:] == ["CardsDrawn", "GameDrawn"]


def test_a_copy_shares_or_copies_every_field_and_pickles() -> None:
    played = Game.new(3)
    for _ in range(30):
        played.apply(reference_move(played))
    copied = played.copy(recording=True)
    for name in Game.__slots__:
        mine, theirs = getattr(played, name), getattr(copied, name)
        if name == "rng":
            assert mine is not theirs and mine.getstate() == theirs.getstate()
        elif name == "events":
            assert theirs == []
        elif name == "players":
            assert [vars_of(p) for p in mine] == [vars_of(p) for p in theirs]
            assert all(a is not b for a, b in zip(mine, theirs, strict=True))
        elif isinstance(mine, list):
            assert mine == theirs and mine is not theirs, name
        else:
            assert mine == theirs, name
    copied.players[0].hand.clear()
    copied.center[0].append(0)
    assert played.players[0].hand and played.center[0] != copied.center[0]
    outside = Game.undealt()
    outside.deal(full_deck(2)[::-1])
    again = pickle.loads(pickle.dumps(outside))
    assert again.to_position() == outside.to_position() and again.chance == outside.chance
