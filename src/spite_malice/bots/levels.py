"""The bots of the four levels and the settings their names may carry (``expert:0.25``);
:mod:`spite_malice.bot_registry` makes them by name. The levels' list and labels are data in
:mod:`spite_malice.levels` (re-exported here)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..levels import LEVELS, level_label
from ..levels import split_leaf as _split_leaf
from .base import Bot
from .baselines import EXPERT_1_SAMPLES, Expert1Bot
from .expert import DEFAULT_BUDGET, DEFAULT_SAMPLES, EXPERT_SETTINGS, ExpertBot
from .leaf import LeafModel

__all__ = ["LEVELS", "expert", "expert_1_with_option", "expert_with_option", "level_label"]


def expert(seed: int | None) -> Bot:
    """Expert with its default budget (1 s a turn)."""
    return ExpertBot(seed)


def _budget_option(name: str, option: str, default_samples: int) -> tuple[float, int]:
    """The seconds and samples of ``NAME:SECONDS`` or ``NAME:SECONDS:SAMPLES``."""
    budget_text, _, samples_text = option.partition(":")
    try:
        budget = float(budget_text)
        samples = int(samples_text) if samples_text else default_samples
    except ValueError:
        raise ValueError(
            f"{name}:{option}: expected {name}:SECONDS or {name}:SECONDS:SAMPLES, "
            f"such as {name}:0.25 or {name}:60:16"
        ) from None
    return budget, samples


def _leaf_option(option: str) -> tuple[str, LeafModel | None]:
    """``option`` without a trailing ``:leaf=FILE``, and the leaf model read from FILE
    (``None`` when the option names none)."""
    head, file = _split_leaf(option)
    if file is None:
        return option, None
    try:
        return head, LeafModel.from_file(Path(file))
    except ValueError as error:
        raise ValueError(f"expert:{option}: {error}") from None


def expert_with_option(seed: int | None, option: str) -> Bot:
    """``expert:SECONDS`` or ``expert:SECONDS:SAMPLES`` (samples a search; with a budget that
    reaches them Expert is deterministic whatever the machine's load). Without SAMPLES, a
    budget above the default's 1 s takes proportionally more samples (``expert:5``, for
    analysis: 5 s a turn and up to five times :data:`~.expert.DEFAULT_SAMPLES`); a shorter
    one keeps the default's and takes what the time allows.

    For research, either form may end in ``:leaf=FILE``: Expert then scores its sampled games
    with the leaf model in FILE (a JSON of ``benchmarks/bots_leaf.py``) instead of the one
    that ships, so that the arena can play two leaf models head to head
    (``spite-malice arena expert:600:24:leaf=new.json expert:600:24``)."""
    option, model = _leaf_option(option)
    budget_text = option.partition(":")[0]
    try:
        scale = max(1.0, float(budget_text) / DEFAULT_BUDGET)
    except ValueError:
        scale = 1.0  # _budget_option reports the mistake
    budget, samples = _budget_option("expert", option, round(DEFAULT_SAMPLES * scale))
    if model is None:
        return ExpertBot(seed, budget, max_samples=samples)
    settings = replace(EXPERT_SETTINGS, leaf_model=model)
    return ExpertBot(seed, budget, max_samples=samples, settings=settings)


def expert_1_with_option(seed: int | None, option: str) -> Bot:
    """``expert-1:SECONDS`` or ``expert-1:SECONDS:SAMPLES``: the frozen baseline's budget."""
    budget, samples = _budget_option("expert-1", option, EXPERT_1_SAMPLES)
    return Expert1Bot(seed, budget, max_samples=samples)
