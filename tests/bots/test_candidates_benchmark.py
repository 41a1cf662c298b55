"""The benchmark of Expert's candidate lists (``benchmarks/bots_candidates.py``): every
variant's choices are valued on the same held-out samples, paired with the shipped rule's."""

from __future__ import annotations

import pytest

from spite_malice.bench import bots_candidates
from spite_malice.bench.bots_candidates import SHIPPED, _game_gains, parse_variant


def test_a_variant_that_changes_nothing_gains_exactly_what_the_shipped_list_gains() -> None:
    same = parse_variant("candidates=6")  # the shipped value, written out
    wider = parse_variant("discard_plans=2")
    rows, sizes = _game_gains([(SHIPPED, ()), same, wider], [1.0, 0.5], "hard", 8, 4, 8, 2, 0, 9003)
    assert rows, "the shipped Expert searched somewhere in a whole game"
    for row in rows:
        for z in (1.0, 0.5):
            assert row["candidates=6", z] == row[SHIPPED, z]
            assert -100.0 <= row["discard_plans=2", z] <= 100.0
    # the wider list holds the shipped one, and is longer somewhere in the game
    assert sizes["candidates=6"] == sizes[SHIPPED]
    assert all(w >= s for w, s in zip(sizes["discard_plans=2"], sizes[SHIPPED], strict=True))
    assert sum(sizes["discard_plans=2"]) > sum(sizes[SHIPPED])


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--variant", "width=3"], "expected NAME=VALUE with NAME one of"),
        (["--variant", "candidates=many"], "is not a number"),
        (["--switch-z", "1,high"], "is not a list of numbers"),
        (["--variant", "discards=6,switch_z=2"], "give switch thresholds with --switch-z"),
        (["--samples", "4"], "keeps the evaluation's choice under 8"),
    ],
)
def test_bad_arguments_say_what_was_wrong(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        bots_candidates.main(arguments)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
