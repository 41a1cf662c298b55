"""The engine's reasons in the player's language.

The engine imports nothing of ours, so it cannot translate: the reasons it gives players
(why a move is illegal, why a move cannot be taken back) are :class:`~..engine.reasons.Reason`
values, English text that carries its template and fields. This module says them in the
current language (``spite_malice.i18n.use_language``), filling the fields with the rank
words of every other sentence players read ("there is no Seven in your hand", "center 2 needs
a four"; :mod:`..i18n.cards`), also in English: the engine's own English text keeps its
digits ("a 4") for the errors of its API and its records.
"""

from __future__ import annotations

from ..engine.cards import ASCII_SPACE
from ..engine.errors import quote
from ..engine.match import DREW_FIVE, TURNED_UP
from ..engine.moves import ALL_MOVES
from ..engine.reasons import Reason
from ..engine.rules import FIRST_PLAYER_RULES, NUMBER_LIMITS, Rules
from ..i18n import N_, _
from ..i18n.cards import a_value_word, rank_name

BARRIERS = {
    TURNED_UP: N_("That move cannot be taken back: a new card was turned up."),
    DREW_FIVE: N_("That move cannot be taken back: five new cards were drawn."),
}
"""The sentence for each of the engine's undo barriers (R3.4(a), R3.4(c))."""


def say_reason(reason: str) -> str:
    """``reason`` in the current language: a :class:`Reason` is translated from its template
    and fields, a ``rank`` by its name ("Seven") and an ``a_rank`` as a value ("a four",
    "an Ace"); any other text is an English one (of a bot, a record) and stays as it is."""
    if not isinstance(reason, Reason):
        return reason
    fields: dict[str, object] = dict(reason.fields)
    if "rank" in reason.fields:
        fields["rank"] = rank_name(reason.fields["rank"])
    if "a_rank" in reason.fields:
        fields["a_rank"] = a_value_word(reason.fields["a_rank"])
    return _(reason.template, **fields)


def barrier_sentence(barrier: str) -> str:
    """Why the last move cannot be taken back, as a sentence in the current language."""
    known = BARRIERS.get(barrier)
    if known is not None:
        return _(known)
    return _("That move cannot be taken back: {reason}.", reason=say_reason(barrier))


_SOURCES = frozenset(move.notation.partition("-")[0] for move in ALL_MOVES)
_TARGETS = frozenset(move.notation.partition("-")[2] for move in ALL_MOVES)


def notation_problem(move: object) -> str:
    """Why ``move`` (text the engine's ``parse_move`` refused) is not a move, as a sentence in
    the current language: the engine's reason is English, with its notation's grammar."""
    # TRANSLATORS: {reason} is one sentence saying what is wrong
    lead = N_("This move is not one the game can read. {reason}")
    if not isinstance(move, str) or not move.isascii():
        reason = _("A move is written in plain letters and digits, such as H7-C1.")
        return _(lead, reason=reason)
    source, dash, target = move.strip(ASCII_SPACE).upper().partition("-")
    if not dash:
        reason = _("A move is where the card comes from, a '-', then where it goes, such as H7-C1.")
    elif source == "H10":
        reason = _("A 10 in the hand is written HT, such as HT-C1.")
    elif source not in _SOURCES:
        # TRANSLATORS: {source} is what was sent before the '-', quoted; P, H, S1 to S4 stay
        reason = _(
            "There is no place {source} to play from: a move starts with P (the pay-off pile), "
            "H and a rank (a card in the hand, such as H7) or S1 to S4 (a side stack).",
            source=quote(source),
        )
    elif target not in _TARGETS:
        # TRANSLATORS: {target} is what was sent after the '-', quoted; C1 to C4, S1 to S4 stay
        reason = _(
            "There is no place {target} to play to: a move ends with C1 to C4 (a center stack) "
            "or S1 to S4 (a side stack).",
            target=quote(target),
        )
    else:
        reason = _("It is not written as a move is, such as H7-C1.")
    return _(lead, reason=reason)


def rules_problem(options: object) -> str | None:
    """What is wrong with a rules object (``web-protocol.md`` 2.2), in a sentence, or None
    when the engine will accept it (R0.2, R1.2 to R1.4, R3.2, R5.1 set the ranges)."""
    if not isinstance(options, dict):
        return _("The rules must be a JSON object of options.")
    defaults = Rules.STANDARD.as_dict()
    known = list(defaults)
    for name, value in options.items():
        if not isinstance(name, str) or name not in known:
            return _(
                "There is no rules option {name}. The options are: {names}.",
                name=quote(name),
                names=", ".join(known),
            )
        if name in NUMBER_LIMITS:
            low, high = NUMBER_LIMITS[name]
            if type(value) is not int:
                return _("The rules option {name} must be a whole number.", name=name)
            if high is None and value < low:
                return _("The rules option {name} must be at least {low}.", name=name, low=low)
            if high == low + 1 and value not in (low, high):
                return _(
                    "The rules option {name} must be {low} or {high}.",
                    name=name,
                    low=low,
                    high=high,
                )
            if high is not None and not low <= value <= high:
                # TRANSLATORS: {name} is the option's name in the rules (payoff_size ...)
                return _(
                    "The rules option {name} must be {low} to {high}.",
                    name=name,
                    low=low,
                    high=high,
                )
        elif name == "first_player":
            if value not in FIRST_PLAYER_RULES:
                return _(
                    "The rules option {name} must be one of: {choices}.",
                    name=name,
                    choices=", ".join(FIRST_PLAYER_RULES),
                )
        elif isinstance(defaults[name], bool) and type(value) is not bool:
            return _("The rules option {name} must be true or false.", name=name)
    return None
