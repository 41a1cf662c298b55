"""The four levels: names, the contract others code against, legal play, determinism."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from spite_malice.bot_registry import make_bot
from spite_malice.bots import (
    HARD,
    LEVELS,
    MEDIUM,
    Bot,
    EasyBot,
    ExpertBot,
    PlanningBot,
    ReferenceBot,
)
from spite_malice.bots.leaf import shipped_model
from spite_malice.bots.levels import level_label
from spite_malice.engine import Game, Move

FAST_LEVELS = ("easy", "medium", "hard")


def small_expert(seed: int) -> ExpertBot:
    """An Expert whose search is fixed by its sample count, not by the clock."""
    return ExpertBot(seed, budget=60.0, max_samples=8)


def play(bots: tuple[Bot, Bot], seed: int, *, max_turns: int = 1000) -> Game:
    """Play a game, checking that every move is one of the observation's legal moves."""
    game = Game.new(seed)
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    while not game.is_over and game.turn <= max_turns:
        observation = game.observation(game.to_move)
        move = bots[game.to_move].choose(observation)
        assert isinstance(move, Move)
        assert move in observation.legal_moves, f"{bots[game.to_move].name} played {move}"
        game.play(move)
    return game


def test_levels_are_the_contract() -> None:
    assert LEVELS == ("easy", "medium", "hard", "expert")
    names = {level: make_bot(level, seed=1).name for level in LEVELS}
    assert names == {"easy": "Easy", "medium": "Medium", "hard": "Hard", "expert": "Expert"}
    hard = make_bot("HARD")
    assert isinstance(hard, PlanningBot) and hard.setting is HARD
    assert isinstance(make_bot("Easy", 3), EasyBot)
    medium = make_bot("medium")
    assert isinstance(medium, PlanningBot) and medium.setting is MEDIUM


def test_expert_budget_default_and_option() -> None:
    assert make_bot("expert", 1).budget == 1.0  # type: ignore[attr-defined]
    assert ExpertBot(budget=0.05).budget == 0.05
    assert make_bot("expert:0.25", 1).budget == 0.25  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        make_bot("expert:fast")
    with pytest.raises(ValueError):
        ExpertBot(budget=0)


def test_expert_option_names_a_leaf_model(tmp_path: Path) -> None:
    # For research: an Expert whose sampled games are scored by another leaf model, so that
    # the arena can play two models head to head.
    shipped = shipped_model()
    other = replace(shipped, intercept=shipped.intercept + 1.0)
    path = tmp_path / "leaf.json"
    path.write_text(other.to_json(), encoding="utf-8")
    bot = make_bot(f"expert:600:24:leaf={path}", 1)
    assert isinstance(bot, ExpertBot)
    assert (bot.budget, bot.max_samples) == (600.0, 24)
    assert bot.leaf is not None and bot.leaf.model == other
    assert make_bot(f"expert:2:leaf={path}", 1).max_samples == 48  # type: ignore[attr-defined]
    plain = make_bot("expert:600:24", 1)
    assert isinstance(plain, ExpertBot) and plain.leaf is not None
    assert plain.leaf.model == shipped
    assert level_label(f"expert:600:24:leaf={path}") == "Expert 600s 24 samples (leaf.json)"


def test_expert_option_refuses_a_leaf_it_cannot_read(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read the leaf model"):
        make_bot(f"expert:600:24:leaf={tmp_path / 'missing.json'}")
    broken = tmp_path / "broken.json"
    broken.write_text('{"features": ["left"]}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"is not a leaf model .*no 'mean'"):
        make_bot(f"expert:600:24:leaf={broken}")
    good = tmp_path / "good.json"
    good.write_text(shipped_model().to_json(), encoding="utf-8")
    with pytest.raises(ValueError, match="SECONDS:SAMPLES"):
        make_bot(f"expert:fast:leaf={good}")


def test_unknown_bot_name_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")


@pytest.mark.parametrize("level", FAST_LEVELS)
def test_level_plays_only_legal_moves_to_the_end(level: str) -> None:
    for seed in (1, 2):
        game = play((make_bot(level, seed), ReferenceBot()), seed)
        assert game.is_over


def test_levels_against_each_other_play_legal_moves() -> None:
    game = play((make_bot("hard", 5), make_bot("medium", 6)), 11)
    assert game.is_over
    game = play((make_bot("easy", 5), make_bot("hard", 6)), 12)
    assert game.is_over


def test_expert_plays_legal_moves() -> None:
    play((small_expert(1), make_bot("hard", 2)), 21, max_turns=30)
    play((make_bot("easy", 2), ExpertBot(3, budget=0.01)), 22, max_turns=30)


@pytest.mark.parametrize("level", FAST_LEVELS)
def test_same_seed_same_game(level: str) -> None:
    first = play((make_bot(level, 7), make_bot("easy", 8)), 31)
    second = play((make_bot(level, 7), make_bot("easy", 8)), 31)
    assert first.moves == second.moves


def test_expert_is_deterministic_with_a_sample_cap() -> None:
    first = play((small_expert(4), make_bot("hard", 1)), 41, max_turns=16)
    second = play((small_expert(4), make_bot("hard", 1)), 41, max_turns=16)
    assert first.moves == second.moves


def test_easy_plays_its_payoff_card_when_it_can() -> None:
    from .positions import position

    game = Game.from_position(
        position(
            payoffs=(["9C", "AS"], ["4H", "9S"]),
            hands=(["KS", "9H", "9D", "2S", "3S"], ["AH", "5D", "6D", "QC", "JC"]),
        ),
        seed=1,
    )
    for seed in range(5):
        assert str(EasyBot(seed).choose(game.observation(0))) == "P-C1"


def test_easy_builds_from_its_side_stacks_first() -> None:
    # A 2 on side stack 1 and a 2 in the hand both fit the Ace on center stack 1 (R3.1);
    # whenever Easy builds here, it builds the side stack's card, so its side stacks empty.
    from .positions import position

    game = Game.from_position(
        position(
            payoffs=(["9C", "7S"], ["4H", "9S"]),
            hands=(["2H", "9H", "9D", "QS", "JS"], ["AH", "5D", "6D", "QC", "JC"]),
            sides=([["2D"], [], [], []], [[], [], [], []]),
            center=[["AS"], [], []],
        ),
        seed=1,
    )
    moves = {str(EasyBot(seed).choose(game.observation(0))) for seed in range(40)}
    builds = {move for move in moves if "-C" in move}
    assert builds == {"S1-C1"}
    assert any(move.startswith("H") and "-S" in move for move in moves)  # it sometimes discards


def test_easy_spends_a_king_when_it_builds() -> None:
    # Only a King from the hand can be built here (R3.1); Easy builds it as any other card
    # (most of the time) and never discards it while it holds other cards (R3.3).
    from .positions import position

    game = Game.from_position(
        position(
            payoffs=(["9C", "7S"], ["4H", "9S"]),
            hands=(["KH", "9H", "9D", "QS", "JS"], ["AH", "5D", "6D", "QC", "JC"]),
        ),
        seed=1,
    )
    moves = [str(EasyBot(seed).choose(game.observation(0))) for seed in range(40)]
    kings_built = [move for move in moves if move.startswith("HK-C")]
    assert len(kings_built) > len(moves) // 2
    assert not [move for move in moves if move.startswith("HK-S")]


def test_easy_against_easy_rarely_draws() -> None:
    # Easy used to keep its Kings and skip 3 builds in 10, and four of its games in five
    # against itself stalled until the stock ran out (R4.2). Seeded games, so the count is
    # fixed; the benchmark figures are in docs/bots.md, "Draw rates".
    games = [
        play((make_bot("easy", 2 * seed), make_bot("easy", 2 * seed + 1)), seed)
        for seed in range(40)
    ]
    draws = sum(1 for game in games if game.outcome is not None and game.outcome.winner is None)
    assert draws <= 6


def test_expert_samples_option_and_labels() -> None:
    from spite_malice.bots.levels import level_label

    bot = make_bot("expert:60:16", 1)
    assert isinstance(bot, ExpertBot)
    assert (bot.budget, bot.max_samples) == (60.0, 16)
    assert level_label("hard") == "Hard"
    assert level_label("expert:0.25") == "Expert 0.25s"
    assert level_label("expert:60:16") == "Expert 60s 16 samples"
    assert level_label("./mybot") == "./mybot"


def test_expert_slower_setting_takes_more_samples() -> None:
    from spite_malice.bots.expert import DEFAULT_SAMPLES

    slow = make_bot("expert:5", 1)
    assert isinstance(slow, ExpertBot)
    assert (slow.budget, slow.max_samples) == (5.0, 5 * DEFAULT_SAMPLES)
    quick = make_bot("expert:0.25", 1)
    assert isinstance(quick, ExpertBot) and quick.max_samples == DEFAULT_SAMPLES
    fixed = make_bot("expert:5:30", 1)
    assert isinstance(fixed, ExpertBot) and fixed.max_samples == 30
