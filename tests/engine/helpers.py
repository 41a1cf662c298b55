"""Helpers that set up engine positions from the notation, so that a test reads like the rule.

A test names only the piles it is about; :func:`position` puts every other card of the
deck somewhere harmless (see its docstring), so that the position is a legal one of 104
(or 156) cards and the engine accepts it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from spite_malice.engine import (
    ALL_MOVES,
    KING,
    QUEEN,
    RANK_OF,
    Game,
    Move,
    Rules,
    card_str,
    parse_card,
)
from spite_malice.engine.cards import Card, full_deck

Piles = Sequence[str]
"""Piles in notation: one string per pile, cards separated by spaces, bottom to top."""

FILLER_PAYOFF = ("QS", "QH")
"""Pay-off piles for tests that do not care about them: a lone Queen, built only on a Jack."""


def cards(text: str) -> list[Card]:
    """``"AS 2H KD"`` as cards, bottom to top."""
    return [parse_card(word) for word in text.split()]


def names(pile: Iterable[Card]) -> str:
    """Cards back in notation, space-separated, bottom to top."""
    return " ".join(card_str(card) for card in pile)


def position(
    *,
    to_move: int = 0,
    hands: tuple[str, str] = ("", ""),
    payoffs: tuple[str, str] = FILLER_PAYOFF,
    sides: tuple[Piles, Piles] = ((), ()),
    center: Piles = (),
    stock: str = "",
    leftovers: Literal["stock", "side"] = "stock",
    rules: Rules = Rules.STANDARD,
    turn: int | None = None,
) -> dict[str, Any]:
    """A position (the JSON object of notation.md) with the piles given and nothing else.

    Every pile is a string of cards, bottom to top; missing side and center stacks are
    empty. The cards the test does not name (the rest of the full deck) go where they
    cannot matter:

    - ``leftovers="stock"`` (the default): at the bottom of the stock, under the cards of
      ``stock``, which are therefore the next ones drawn (the last one first);
    - ``leftovers="side"``: at the bottom of the side stacks of the player *not* to move,
      spread over all four, under whatever ``sides`` puts there. The stock is then exactly
      ``stock``, for tests that need a tiny or empty stock. The player to move can never
      touch these cards (R3.5); the opponent could, once it is their turn, so use this for
      tests about the mover's turn only.
    """
    used: Counter[Card] = Counter()
    named: list[list[Card]] = []

    def take(text: str) -> list[Card]:
        pile = cards(text)
        used.update(pile)
        named.append(pile)
        return pile

    center_piles = [take(text) for text in center]
    center_piles += [[] for _ in range(rules.center_stacks - len(center_piles))]
    players: list[dict[str, Any]] = []
    for seat in (0, 1):
        side = [take(text) for text in sides[seat]]
        side += [[] for _ in range(4 - len(side))]
        players.append({"payoff": take(payoffs[seat]), "hand": take(hands[seat]), "side": side})
    stock_top = take(stock)

    rest = Counter(full_deck(rules.decks))
    rest.subtract(used)
    overused = sorted(card_str(card) for card, count in rest.items() if count < 0)
    if overused:
        raise ValueError(f"the test names these cards too often: {' '.join(overused)}")
    spare = sorted(rest.elements())

    if leftovers == "stock":
        stock_cards = spare + stock_top
    else:
        stock_cards = stock_top
        other = players[1 - to_move]["side"]
        for i in range(4):
            other[i] = spare[i::4] + other[i]

    result: dict[str, Any] = {
        "to_move": to_move,
        "stock": [card_str(card) for card in stock_cards],
        "center": [[card_str(card) for card in pile] for pile in center_piles],
        "players": [
            {
                "payoff": [card_str(card) for card in p["payoff"]],
                "hand": [card_str(card) for card in p["hand"]],
                "side": [[card_str(card) for card in pile] for pile in p["side"]],
            }
            for p in players
        ],
    }
    if rules != Rules.STANDARD:
        result["rules"] = rules.to_json()
    if turn is not None:
        result["turn"] = turn
    return result


def game(*, seed: int = 0, recording: bool = True, **piles: Any) -> Game:
    """The game at :func:`position` (same arguments), its shuffles seeded with ``seed``."""
    played = Game.from_position(position(**piles), seed=seed)
    played.recording = recording
    return played


def all_cards(played: Game) -> list[Card]:
    """Every card of the game, wherever it is."""
    found = list(played.stock)
    for stack in played.center:
        found.extend(stack)
    for player in played.players:
        found.extend(player.payoff)
        found.extend(player.hand)
        for pile in player.side:
            found.extend(pile)
    return found


def assert_cards_conserved(played: Game) -> None:
    """Every face is in the game exactly ``decks`` times: nothing lost, nothing doubled."""
    counts = Counter(all_cards(played))
    decks = played.rules.decks
    wrong = {card_str(card): counts[card] for card in range(52) if counts[card] != decks}
    assert not wrong, f"cards not held exactly {decks} times: {wrong}"
    assert sum(counts.values()) == played.rules.deck_size


def snapshot(played: Game) -> tuple[Any, ...]:
    """Everything that can change in a game, to compare before and after."""
    return (
        played.to_position(),
        len(played.events),
        len(played.moves),
        played.outcome,
        played.rng.getstate(),
    )


def stall_move(played: Game) -> Move:
    """A policy that drags the game out: it never builds from the pay-off pile, builds
    whatever else it can (Kings from the hand aside), and discards its highest card onto the
    side stack whose top is the lowest card not below it, so that side stacks run downwards
    and unwind later. About a third of its self-play games reach the R4.3 turn limit."""
    builds = [
        move
        for move in played.legal_moves()
        if move.is_build and not move.is_from_payoff and move.hand_rank != KING
    ]
    if builds:
        return builds[0]
    me = played.players[played.to_move]
    rank = max(RANK_OF[card] for card in me.hand)
    fits = [
        (RANK_OF[pile[-1]] if pile else KING + 1, side)
        for side, pile in enumerate(me.side)
        if not pile or RANK_OF[pile[-1]] >= rank
    ]
    side = min(fits)[1] if fits else min(range(4), key=lambda i: len(me.side[i]))
    return Move.discard(rank, side)


def check_invariants(game: Game) -> None:
    """What must hold after every move."""
    assert_cards_conserved(game)
    for stack in game.center:
        for place, card in enumerate(stack, start=1):
            assert RANK_OF[card] in (place, KING), f"{card_str(card)} is card {place} of a stack"
        if len(stack) >= QUEEN:
            # Only the winning build leaves a complete stack on the table (R3.4(a)).
            assert game.outcome is not None and game.outcome.winner is not None
    for player in game.players:
        assert len(player.hand) <= 5
        assert len(player.payoff) <= game.rules.payoff_size
    if game.outcome is None:
        assert game.players[game.to_move].hand, "a decision point always has a hand card"
        legal = game.legal_moves()
        assert legal, "there is always a legal move: at least a discard"
        assert [m.index for m in legal] == sorted({m.index for m in legal})
        assert set(legal) == {m for m in ALL_MOVES if game.why_illegal(m) is None}
    else:
        assert game.legal_moves() == []
