"""The benchmark of Expert's candidate lists (``benchmarks/bots_candidates.py``): each
variant's choice is made on some samples and valued on others, paired with the shipped
rule's."""

from __future__ import annotations

import pytest

from bench import bots_candidates
from bench.bots_candidates import valued_choices
from spite_malice.bots.planning import Ending, Plan
from spite_malice.engine import Move


def plan(card: int, value: float = 0.0) -> Plan:
    return Plan((Move.discard(card, 0),), 1, value, Ending.DISCARD)


EVALUATION, LUCKY, GOOD = plan(5), plan(6), plan(7)
# four samples to choose on, four to value the choice on
SCORES = {
    EVALUATION.moves: [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    LUCKY.moves: [0.5, 0.5, 0.5, 0.5, -0.2, -0.2, -0.2, -0.2],  # only on the choosing samples
    GOOD.moves: [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1],
}


def gains(lists: dict[str, list[Plan]], thresholds: list[float]) -> dict[tuple[str, float], float]:
    # eight samples to choose on: the rule takes at least MIN_SWITCH_SAMPLES
    scores = {moves: row[:4] * 2 + row[4:] for moves, row in SCORES.items()}
    return valued_choices(lists, scores, 8, 0.0, thresholds, [list(range(8))])


def test_a_choice_is_valued_on_samples_it_never_saw() -> None:
    found = gains({"lucky": [EVALUATION, LUCKY], "good": [EVALUATION, GOOD]}, [1.0])
    # the lucky plan looked best where it was chosen and loses 20 points where it is valued
    assert found["lucky", 1.0] == pytest.approx(-20.0)
    assert found["good", 1.0] == pytest.approx(10.0)


def test_each_list_is_valued_by_its_own_plans_in_any_order() -> None:
    # the good plan is second in one list and third in the other: its value follows it
    found = gains({"a": [EVALUATION, GOOD], "b": [EVALUATION, LUCKY, GOOD]}, [1.0])
    assert found["a", 1.0] == pytest.approx(10.0)
    assert found["b", 1.0] == pytest.approx(-20.0)  # the lucky plan's edge looked larger


def test_the_threshold_decides_whether_the_choice_leaves_the_evaluation() -> None:
    noisy = plan(8)
    scores = {
        EVALUATION.moves: [0.0] * 12,
        noisy.moves: [0.3, -0.1] * 4 + [0.1] * 4,  # +0.1 a sample, 1.3 standard errors
    }
    found = valued_choices({"x": [EVALUATION, noisy]}, scores, 8, 0.0, [1.0, 2.0], [list(range(8))])
    assert found["x", 1.0] == pytest.approx(10.0)
    assert found["x", 2.0] == 0.0  # kept the evaluation's choice


def test_a_list_must_start_with_the_evaluation_s_choice() -> None:
    with pytest.raises(ValueError, match="does not start with the evaluation's choice"):
        gains({"a": [EVALUATION, GOOD], "b": [GOOD, EVALUATION]}, [1.0])


@pytest.mark.slow  # a whole benchmark run (two games, each searched by every variant)
def test_a_run_prints_every_variant_paired_with_the_shipped_list(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Out of the default run (``pytest -m slow`` runs it): it plays the benchmark, which
    took 290 s on this 2-core machine under a load of about 15."""
    arguments = "--games 2 --jobs 2 --seed 9003 --decide 8 --truth 4 --samples 8 --trials 2"
    extra = ["--variant", "candidates=6", "--variant", "discard_plans=2", "--switch-z", "0.5"]
    assert bots_candidates.main([*arguments.split(), *extra]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "searches" in lines[0] and "in 2 game(s) against hard from deal 9003" in lines[0]
    rows = {tuple(cell.strip() for cell in line.split("|")[1:3]): line for line in lines[3:]}
    assert sorted(rows) == sorted(
        (name, z) for name in ("shipped", "candidates=6", "discard_plans=2") for z in ("1", "0.5")
    )
    assert rows["shipped", "1"].endswith("+0.000 (0.000) |")
    # the shipped value written out compares the same plans, so it gains exactly the same
    for z in ("1", "0.5"):
        assert rows["candidates=6", z].split("|")[3:] == rows["shipped", z].split("|")[3:]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--variant", "width=3"], "expected NAME=VALUE with NAME one of"),
        (["--variant", "candidates=many"], "is not a number"),
        (["--variant", "candidates=nan"], "is not a finite number"),
        (["--variant", "candidates=2.5"], "candidates is a whole number"),
        (["--variant", "discards=6,leaf=0"], "leaf does not make the candidate list"),
        (["--variant", "switch_z=2"], "switch_z does not make the candidate list"),
        (["--switch-z", "1,high"], "is not a list of numbers"),
        (["--samples", "4"], "keeps the evaluation's choice under 8"),
        (["--trials", "0"], "--trials must be at least 1"),
        (["--opponent", "nobody"], "--opponent: unknown bot 'nobody'"),
    ],
)
def test_bad_arguments_say_what_was_wrong(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        bots_candidates.main(arguments)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
