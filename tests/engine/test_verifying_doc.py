"""docs/verifying.md says exactly how a seed deals a game, so that anyone can check a deal
with their own code: here a Mersenne Twister written from that page alone (not Python's
``random``) deals games, which must be the engine's deals card for card, draws included."""

from __future__ import annotations

import hashlib

import pytest

from spite_malice.bots import ReferenceBot
from spite_malice.engine import CardsDrawn, Game, Rules, StackCompleted, card_str
from spite_malice.engine.commitment import commitment, matches

N, M = 624, 397
MASK = 0xFFFFFFFF


class Twister:
    """MT19937 as docs/verifying.md describes it."""

    def __init__(self, seed: int) -> None:
        key = []
        while True:
            key.append(seed & MASK)
            seed >>= 32
            if not seed:
                break
        self.mt = self._genrand(19650218)
        mt = self.mt
        i, j = 1, 0
        for _ in range(max(N, len(key))):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & MASK
            i, j = i + 1, j + 1
            if i >= N:
                mt[0], i = mt[N - 1], 1
            if j >= len(key):
                j = 0
        for _ in range(N - 1):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & MASK
            i += 1
            if i >= N:
                mt[0], i = mt[N - 1], 1
        mt[0] = 0x80000000
        self.index = N

    @staticmethod
    def _genrand(seed: int) -> list[int]:
        mt = [seed]
        for i in range(1, N):
            mt.append((1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK)
        return mt

    def _twist(self) -> None:
        mt = self.mt
        for i in range(N):
            y = (mt[i] & 0x80000000) | (mt[(i + 1) % N] & 0x7FFFFFFF)
            mt[i] = mt[(i + M) % N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        self.index = 0

    def uint32(self) -> int:
        if self.index >= N:
            self._twist()
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def below(self, n: int) -> int:
        k = n.bit_length()
        while True:
            r = self.uint32() >> (32 - k)
            if r < n:
                return r

    def shuffle(self, x: list[int]) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]


def _names(cards: list[int]) -> list[str]:
    return ["A23456789TJQK"[f % 13] + "SHDC"[f // 13] for f in cards]


def _deal(
    seed: int, payoff: int, decks: int = 2
) -> tuple[list[list[str]], list[list[str]], list[str], Twister]:
    """The pay-off piles, hands and stock (top last) the page's steps give, and the
    generator after the deal."""
    rng = Twister(seed)
    deck = [face for _ in range(decks) for face in range(52)]
    rng.shuffle(deck)
    piles = [deck[:payoff], deck[payoff : 2 * payoff]]
    hands = [deck[2 * payoff : 2 * payoff + 5], deck[2 * payoff + 5 : 2 * payoff + 10]]
    stock = deck[2 * payoff + 10 :]
    ranks = {f % 13 for f in piles[0] + piles[1]}
    while piles[0][-1] % 13 == piles[1][-1] % 13 and len(ranks) > 1:
        rng.shuffle(piles[0])
        rng.shuffle(piles[1])
    return [_names(p) for p in piles], [sorted(_names(h)) for h in hands], _names(stock), rng


@pytest.mark.parametrize("seed", [0, 1, 123, 2**32 - 1, 2**32, 987654321987654321, 2**63 - 1])
@pytest.mark.parametrize("payoff", [5, 20])
def test_the_documented_shuffle_deals_what_the_engine_deals(seed: int, payoff: int) -> None:
    game = Game.new(seed, Rules(payoff_size=payoff))
    piles, hands, stock, _ = _deal(seed, payoff)
    assert [[card_str(c) for c in p.payoff] for p in game.players] == piles
    assert [sorted(card_str(c) for c in p.hand) for p in game.players] == hands
    assert [card_str(c) for c in game.stock] == stock


def test_draws_and_the_reshuffle_of_a_completed_stack_follow_the_documented_generator() -> None:
    """Play a game to its end: every draw takes the documented stock's last cards, and every
    completed stack goes to the end of the stock, which the documented generator shuffles."""
    seed = 4242
    game = Game.new(seed, Rules(payoff_size=5))
    _, _, stock, rng = _deal(seed, 5)
    model = [_face(name) for name in stock]
    bot = ReferenceBot(0)
    draws = reshuffles = 0
    for _ in range(3000):
        if game.is_over:
            break
        seen = len(game.events)
        game.play(bot.choose(game.observation(game.to_move)))
        for event in game.events[seen:]:
            if isinstance(event, CardsDrawn):
                taken = model[len(model) - event.count :][::-1]
                del model[len(model) - event.count :]
                assert _names(taken) == [card_str(c) for c in event.cards]
                draws += 1
            elif isinstance(event, StackCompleted):
                model.extend(event.cards)
                rng.shuffle(model)
                reshuffles += 1
        assert _names(model) == [card_str(c) for c in game.stock]
    assert draws > 0 and reshuffles > 0, "the game checked no draw or no reshuffle"


def _face(name: str) -> int:
    return "SHDC".index(name[1]) * 13 + "A23456789TJQK".index(name[0])


def test_the_commitment_is_the_documented_sha256() -> None:
    salt = "00112233445566778899aabbccddeeff"

    assert commitment(123, salt) == hashlib.sha256(b"123:" + salt.encode()).hexdigest()
    assert matches(123, salt, commitment(123, salt))
    assert not matches(124, salt, commitment(123, salt))
    assert not matches(123, "not a salt", commitment(123, salt))
