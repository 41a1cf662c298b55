"""Helpers that drive the terminal game the way a person does: by key presses."""

from __future__ import annotations

from textual.pilot import Pilot

from spite_malice.engine import Move, Rules
from spite_malice.tui.app import SpiteMaliceApp
from spite_malice.tui.persistence import NoPersistence, Persistence
from spite_malice.tui.places import hand_source
from spite_malice.tui.screens import GameOverScreen, GameScreen, TableSettings
from spite_malice.tui.session import GameSession, MatchSetup

SHORT = Rules(payoff_size=5)
"""Short games, so a test plays one to the end in a few turns."""
QUICK_WIN = 247
"""A seed whose first SHORT game the person wins in five moves with the reference policy."""
SHORT_GAME = 233
"""A seed whose first SHORT game lasts five turns of both players; the person wins it."""


def make_app(
    *,
    seed: int = 7,
    rules: Rules = SHORT,
    level: str = "reference",
    ascii_only: bool = False,
    persistence: Persistence | None = None,
    resume: bool = True,
) -> SpiteMaliceApp:
    """A game that never pauses between the computer's moves and keeps nothing by default."""
    return SpiteMaliceApp(
        MatchSetup(rules=rules, level=level, seed=seed),
        settings=TableSettings(ascii_only=ascii_only, move_delay=0.0),
        persistence=persistence or NoPersistence(),
        resume=resume,
    )


def table(app: SpiteMaliceApp) -> GameScreen:
    return app.game_screen


def session(app: SpiteMaliceApp) -> GameSession:
    return app.game_screen.session


async def settle(pilot: Pilot[None]) -> None:
    """Wait until the computer and any hint are done and every message is handled."""
    app = pilot.app
    for _ in range(1000):
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = table(app)  # type: ignore[arg-type]
        busy = screen.computer_busy or screen.hint_busy or bool(app.workers)
        if not busy:
            return
    raise AssertionError("the game did not settle")


def keys_for(app: SpiteMaliceApp, move: Move) -> list[str]:
    """The two key presses that make ``move``: its source's key, then its target's."""
    source, _, target = move.notation.partition("-")
    if source == "P":
        first = "p"
    elif source.startswith("S"):
        first = "asdf"[int(source[1:]) - 1]
    else:
        hand = session(app).hand()
        first = "12345"[[hand_source(card) for card in hand].index(source)]
    number = int(target[1:]) - 1
    second = "zxcv"[number] if target.startswith("C") else "asdf"[number]
    return [first, second]


def game_over_shown(app: SpiteMaliceApp) -> bool:
    return isinstance(app.screen, GameOverScreen)


async def play_to_the_end(pilot: Pilot[None], *, limit: int = 500) -> int:
    """Play the person's moves by key presses (the reference policy chooses them) until the
    game-over box shows; returns the number of key presses."""
    from spite_malice.bots import reference_move

    app: SpiteMaliceApp = pilot.app  # type: ignore[assignment]
    presses = 0
    while not game_over_shown(app):
        assert app.is_running, "the app stopped"
        assert presses < limit, "the game did not end"
        s = session(app)
        assert s.is_human_turn, "the computer's turn did not end"
        keys = keys_for(app, reference_move(s.game))
        before = len(s.game.moves)
        await pilot.press(*keys)
        presses += len(keys)
        await settle(pilot)
        assert len(session(app).game.moves) > before or session(app) is not s, "no move made"
    return presses
