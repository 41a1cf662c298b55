"""The rules options: one frozen, keyword-only value with the defaults of ``rules.md``
(beside this module)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, ClassVar, Literal

from .errors import NotationError, RulesError, quote

FirstPlayer = Literal["higher_card", "alternate", "loser"]
FIRST_PLAYER_RULES: tuple[FirstPlayer, ...] = ("higher_card", "alternate", "loser")

HAND_SIZE = 5
"""Cards in a full hand (R1.2, R2.1)."""
SIDE_STACKS = 4
"""Side stacks per player (R1.3)."""
TURN_LIMIT = 1000
"""R4.3: a game that reaches this many turns is drawn."""
NUMBER_LIMITS: dict[str, tuple[int, int | None]] = {
    "decks": (2, 3),  # R0.2
    "payoff_size": (5, 30),  # R1.2
    "center_stacks": (3, 4),  # R1.3
    "match_target": (1, None),  # R5.1
}
"""The whole-number options and their ranges (lowest, highest or None: no highest), so that
front ends can say what a value must be."""


def _number_range(low: int, high: int | None) -> str:
    if high is None:
        return "a positive whole number" if low == 1 else f"a whole number of at least {low}"
    return f"{low} or {high}" if high == low + 1 else f"{low} to {high}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """Every rules option marked [option] in ``rules.md``; the defaults: the standard game."""

    decks: int = 2
    """R0.2: decks shuffled together, 2 or 3."""
    payoff_size: int = 20
    """R1.2: cards in each pay-off pile, 5 to 30."""
    center_stacks: int = 3
    """R1.3: center stacks on the table, 3 or 4."""
    king_can_start_stack: bool = True
    """R3.2: a King may start an empty center stack as an Ace."""
    first_player: FirstPlayer = "higher_card"
    """R1.4: who starts a game: the higher pay-off top, alternating, or the last game's loser."""
    match_target: int = 50
    """R5.1: points that win a match."""

    STANDARD: ClassVar[Rules]
    QUICK: ClassVar[Rules]

    def __post_init__(self) -> None:
        """Refuse an option out of its range with :class:`~.errors.RulesError`."""
        for name, (low, high) in NUMBER_LIMITS.items():
            value = getattr(self, name)
            if type(value) is not int or value < low or (high is not None and value > high):
                raise RulesError(f"invalid rules: {name} must be {_number_range(low, high)}")
        if type(self.king_can_start_stack) is not bool:
            raise RulesError("invalid rules: king_can_start_stack must be true or false")
        if type(self.first_player) is not str or self.first_player not in FIRST_PLAYER_RULES:
            choices = ", ".join(FIRST_PLAYER_RULES)
            raise RulesError(f"invalid rules: first_player must be one of {choices}")

    @property
    def deck_size(self) -> int:
        """All cards in play: 52 per deck."""
        return 52 * self.decks

    def to_json(self) -> dict[str, Any]:
        """Only the options that differ from the defaults, as ``notation.md`` writes them."""
        default = _DEFAULT
        return {
            field.name: getattr(self, field.name)
            for field in fields(self)
            if getattr(self, field.name) != getattr(default, field.name)
        }

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Read the ``rules`` object of a position or record; unknown keys are refused."""
        if data is None:
            return _DEFAULT
        if not isinstance(data, dict):
            raise NotationError("rules", data, "expected an object of rules options")
        known = {field.name for field in fields(cls)}
        odd = [key for key in data if type(key) is not str]
        if odd:
            raise NotationError("rules", data, f"option names are strings, not {quote(odd[0])}")
        unknown = sorted(set(data) - known)
        if unknown:
            reason = f"unknown option {quote(unknown[0])}; known: {', '.join(sorted(known))}"
            raise NotationError("rules", data, reason)
        try:
            return replace(_DEFAULT, **data)
        except RulesError as error:
            raise NotationError("rules", data, str(error).removeprefix("invalid rules: ")) from None

    def as_dict(self) -> dict[str, Any]:
        """Every option, defaults included."""
        return asdict(self)


_DEFAULT = Rules()
Rules.STANDARD = _DEFAULT
Rules.QUICK = Rules(payoff_size=10)

PRESETS: dict[str, Rules] = {"standard": Rules.STANDARD, "quick": Rules.QUICK}
"""Named variants of the rules."""
