"""Places on the table: every legal move is made by exactly its two keys."""

from __future__ import annotations

from spite_malice.bots import reference_move
from spite_malice.engine import Rules
from spite_malice.tui.places import (
    CENTER_KEYS,
    HAND_KEYS,
    PAYOFF_KEY,
    SIDE_KEYS,
    keys_for,
    pile_source,
    pile_target,
    place_name,
)
from spite_malice.tui.session import GameSession, MatchSetup

PILE_OF_KEY = {
    PAYOFF_KEY: "payoff",
    **{key: f"hand-{i}" for i, key in enumerate(HAND_KEYS)},
    **{key: f"side-{i}" for i, key in enumerate(SIDE_KEYS)},
    **{key: f"center-{i}" for i, key in enumerate(CENTER_KEYS)},
}


def test_the_keys_of_every_legal_move_name_its_source_and_target() -> None:
    checked = 0
    for seed in range(1, 6):
        session = GameSession.new(
            MatchSetup(rules=Rules(payoff_size=8), level="reference", seed=seed)
        )
        for _ in range(60):
            if session.game.is_over:
                break
            if session.is_human_turn:
                player = session.game.players[0]
                hand = session.hand()
                for move in session.legal_moves():
                    first, second = keys_for(move, hand)
                    source = pile_source(PILE_OF_KEY[first], player.payoff, player.side, hand)
                    target = pile_target(PILE_OF_KEY[second])
                    assert f"{source}-{target}" == move.notation
                    checked += 1
                session.play(reference_move(session.game))
            else:
                session.play_computer(reference_move(session.game))
    assert checked > 500


def test_places_read_as_words() -> None:
    assert place_name("side-1") == "side stack 2"
    assert place_name("center-0") == "center 1"
    assert place_name("payoff") == "your pay-off pile"
    assert place_name("hand-4") == "card 5 of your hand"
