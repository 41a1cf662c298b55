"""The engine's reasons in the player's language.

The engine imports nothing of ours, so it cannot translate: the reasons it gives players
(why a move is illegal, why a move cannot be taken back) are :class:`~..engine.reasons.Reason`
values, English text that carries its template and fields. This module says them in the
current language (``spite_malice.i18n.use_language``), filling the fields the same way.
"""

from __future__ import annotations

from ..bots.hints import a_rank_word, rank_word
from ..engine.match import DREW_FIVE, TURNED_UP
from ..engine.reasons import Reason
from ..i18n import N_, _

BARRIERS = {
    TURNED_UP: N_("That move cannot be taken back: a new card was turned up."),
    DREW_FIVE: N_("That move cannot be taken back: five new cards were drawn."),
}
"""The sentence for each of the engine's undo barriers (R3.4(a), R3.4(c))."""


def say_reason(reason: str) -> str:
    """``reason`` in the current language: a :class:`Reason` is translated from its template
    and fields; any other text is an English one (of a bot, a record) and stays as it is."""
    if not isinstance(reason, Reason):
        return reason
    fields: dict[str, object] = dict(reason.fields)
    if "rank" in reason.fields:
        fields["rank"] = rank_word(reason.fields["rank"])
    if "a_rank" in reason.fields:
        fields["a_rank"] = a_rank_word(reason.fields["a_rank"])
    return _(reason.template, **fields)


def barrier_sentence(barrier: str) -> str:
    """Why the last move cannot be taken back, as a sentence in the current language."""
    known = BARRIERS.get(barrier)
    if known is not None:
        return _(known)
    return _("That move cannot be taken back: {reason}.", reason=say_reason(barrier))
