"""``benchmarks/bots_expert.py`` refuses what it cannot run, saying what was wrong."""

from __future__ import annotations

import pytest

from bench import bots_expert


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--budget", "0"], "--budget must be positive seconds, not 0"),
        (["--budget", "nan"], "--budget must be positive seconds, not nan"),
        (["--jobs", "0"], "--samples, --deals and --jobs must be at least 1"),
        (["--deals", "0"], "--samples, --deals and --jobs must be at least 1"),
        (["--opponent", "nobody"], "--opponent: unknown bot 'nobody'"),
        (["--set", "candidates=inf"], "is not a finite number"),
        (["--set", "leaf=0.5"], "leaf is 0 (off) or 1 (on)"),
        (["--set", "rounds=1.5"], "rounds is a whole number"),
    ],
)
def test_bad_arguments_say_what_was_wrong(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        bots_expert.main(arguments)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


def test_a_whole_number_setting_is_read_in_its_own_type() -> None:
    settings = bots_expert.settings_with([bots_expert.parse_setting("discard_plans=2")])
    assert settings.discard_plans == 2 and isinstance(settings.discard_plans, int)
