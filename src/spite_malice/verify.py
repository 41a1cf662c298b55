"""Verifying a deal (docs/verifying.md): a finished game's record checked against the
commitment the server showed at its deal.

A record of a game played on the server holds ``"deal": {"commitment", "salt"}`` beside its
seed. :func:`verify_record` checks that the seed and salt make the commitment (so the seed was
fixed before the first move), then deals the game again from the seed and plays every move
(:func:`~spite_malice.replay.replay_frames`: the deck, the hands, the pay-off piles and every
draw and reshuffle come from the seed), and that the result is the record's. Each check is a
sentence in plain words, in the current language, saying what matched or what did not.
``spite-malice verify RECORD`` and the end screen's "Verify the deal" say them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .engine.commitment import COMMITMENT_PATTERN, SALT_PATTERN, matches
from .engine.record import GameRecord
from .i18n import _, ngettext
from .replay import ReplayError, read_record, replay_frames

SHORT = 12
"""How many hexadecimal digits of a commitment are shown in a sentence (the table shows as
many)."""


@dataclass(frozen=True, slots=True)
class Check:
    """One thing verified: whether it held, and a sentence saying so."""

    ok: bool
    text: str


@dataclass(frozen=True, slots=True)
class Verification:
    """The checks of one record, in order; it holds when every one does."""

    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(check.ok for check in self.checks)

    def to_json(self) -> dict[str, object]:
        return {"ok": self.ok, "checks": [{"ok": c.ok, "text": c.text} for c in self.checks]}


def verify_text(data: str | bytes) -> Verification:
    """:func:`verify_record` of a record file's contents (a file that is not a record gets one
    failed check saying why)."""
    try:
        record = read_record(data)
    except ReplayError as error:
        return Verification((Check(False, str(error)),))
    return verify_record(record)


def verify_record(record: GameRecord, seen: str | None = None) -> Verification:
    """Check ``record`` against its commitment (and against ``seen``, the commitment a player
    saw at the deal, when given), then deal it again from its seed and play it."""
    deal = record.extra.get("deal")
    committed = deal.get("commitment") if isinstance(deal, dict) else None
    salt = deal.get("salt") if isinstance(deal, dict) else None
    if not (
        isinstance(committed, str)
        and COMMITMENT_PATTERN.match(committed)
        and isinstance(salt, str)
        and SALT_PATTERN.match(salt)
    ):
        text = _("This record holds no commitment to its seed, so its deal cannot be verified.")
        return Verification((Check(False, text),))
    checks = []
    short = committed[:SHORT]
    if seen is not None and seen != committed:
        checks.append(
            Check(
                False,
                _(
                    "The commitment in this record ({record}…) is not the one shown at the "
                    "deal ({seen}…).",
                    record=short,
                    seen=seen[:SHORT],
                ),
            )
        )
    if matches(record.seed, salt, committed):
        checks.append(
            Check(
                True,
                _(
                    "The seed and the salt revealed make the commitment shown at the deal "
                    "({commitment}…): the seed was fixed before the first move.",
                    commitment=short,
                ),
            )
        )
    else:
        checks.append(
            Check(
                False,
                _(
                    "The seed and the salt in this record do not make its commitment "
                    "({commitment}…): this is not the seed committed to at the deal.",
                    commitment=short,
                ),
            )
        )
    try:
        frames = replay_frames(record)
    except ReplayError as error:
        checks.append(
            Check(
                False,
                # TRANSLATORS: {problem} is a sentence saying which move or result is wrong
                _(
                    "The game dealt from the seed does not match the record. {problem}",
                    problem=str(error),
                ),
            )
        )
    else:
        moves = len(frames) - 1
        checks.append(
            Check(
                True,
                ngettext(
                    "Dealt again from the seed, the cards dealt and every card drawn give "
                    "a game where its {n} move can be played, with the record's result.",
                    "Dealt again from the seed, the cards dealt and every card drawn give "
                    "a game where all {n} moves can be played, with the record's result.",
                    moves,
                ),
            )
        )
    return Verification(tuple(checks))


__all__ = ["Check", "Verification", "verify_record", "verify_text"]
