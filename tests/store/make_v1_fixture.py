"""Make ``fixtures/v1.db``: a version-1 database written by the code of commit eb6d63a.

Run with that commit's sources first on the path (``git worktree add /tmp/old eb6d63a``)::

    PYTHONPATH=/tmp/old/src python tests/store/make_v1_fixture.py tests/store/fixtures/v1.db

It holds a web match against the computer in progress (one finished game, an assisted current
game), a finished terminal match, a friend room waiting for its friend and two players'
settings: what the migration test expects to find again.
"""

from __future__ import annotations

import sys

from spite_malice.bots import reference_move
from spite_malice.engine import Match, Rules
from spite_malice.store import SavedMatch, Store

QUICK = Rules(payoff_size=5, match_target=8)


def main(path: str) -> None:
    store = Store.open(path)
    web = Match(QUICK, 11, ("alice", "Easy"))
    web.next_game()
    saved = SavedMatch(
        "web-1",
        web,
        level="easy",
        players=("alice", None),
        room="ABCDEF",
        meta={"names": ["alice", "Easy"], "tokens": ["0" * 64, None], "assisted_games": []},
    )
    store.save_match(saved)
    game = web.game
    assert game is not None
    while not game.is_over:
        game.play(reference_move(game))
        store.save_match(saved)
    web.book()
    game = web.next_game()
    for _ in range(7):
        game.play(reference_move(game))
    saved.assisted = True
    store.save_match(saved)

    term = Match(QUICK, 12, ("You", "Medium"))
    done = SavedMatch(
        "terminal-1",
        term,
        level="medium",
        players=("bob", None),
        source="terminal",
        meta={"name": "You"},
    )
    while not term.is_over:
        game = term.next_game()
        while not game.is_over:
            game.play(reference_move(game))
        store.save_match(done)
        term.book()
    store.save_match(done)

    friend = Match(QUICK, 13, ("carol", "Player 2"))
    friend.next_game()
    store.save_match(
        SavedMatch(
            "friend-1",
            friend,
            kind="friend",
            players=("carol", None),
            room="GHJKMN",
            meta={"names": ["carol", None], "tokens": ["1" * 64, None], "assisted_games": []},
        )
    )
    store.save_settings("alice", {"level": "hard", "animation_speed": "fast"})
    store.save_settings("bob", {"level": "easy"})
    store.close()


if __name__ == "__main__":
    main(sys.argv[1])
