"""Reasons players read, which the layers above the engine can say in another language.

The engine imports nothing of ours, so it cannot translate: a reason it gives a player (why
a move is illegal) is a :class:`Reason`, its English text that also carries its template and
fields; the table (``spite_malice.table.words``) says it in the player's language. The
templates are marked with a local :func:`N_`, the marker Babel extracts (docs/translating.md).
"""

from __future__ import annotations

from .cards import RANK_NAMES, a_rank


def N_(message: str) -> str:
    """Marks a text players read for the catalogs (Babel knows ``N_``) without translating
    it: the engine imports nothing of ours, so the layers above it translate (the table,
    through :attr:`Reason.template`)."""
    return message


class Reason(str):
    """A reason players read, in English (it *is* that text, so it compares, prints and
    formats as before), that also carries its ``template`` and ``fields`` so that a layer
    above the engine can say it in the player's language.

    Field values are numbers; a field named ``rank`` is a rank (1..13) shown by its name
    ("Ace", "7", "King") and ``a_rank`` one shown with its article ("an Ace", "a 7")."""

    template: str
    fields: dict[str, int]

    def __new__(cls, template: str, **fields: int) -> Reason:
        shown: dict[str, object] = dict(fields)
        if "rank" in fields:
            shown["rank"] = RANK_NAMES[fields["rank"] - 1]
        if "a_rank" in fields:
            shown["a_rank"] = a_rank(fields["a_rank"])
        self = super().__new__(cls, template.format(**shown))
        self.template = template
        self.fields = fields
        return self
