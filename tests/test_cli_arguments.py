"""Every number the command line takes is checked before anything starts, and a bad one is
told what it must be, in a sentence (``cli/arguments.py``): never argparse's "invalid int
value" or a helper's name, and never a value the game would misuse later (a seed of -1)."""

from __future__ import annotations

import pytest

from spite_malice.cli import build_parser, main


@pytest.mark.parametrize(
    ("command", "option", "value", "message"),
    [
        ("arena", "--games", "abc", "'abc' is not a whole number"),
        ("arena", "--jobs", "0", "must be at least 1, not 0"),
        ("ladder", "--seed", "-1", "must be 0 to 2**63 - 1, not -1"),
        ("serve", "--port", "70000", "70000 is not a port number (0-65535)"),
        ("cluster", "--instances", "0", "must be at least 1, not 0"),
        ("cluster", "--port", "abc", "'abc' is not a port number"),
        ("play", "--seed", "-1", "must be 0 to 2**63 - 1, not -1"),
        ("play", "--seed", str(2**63), f"must be 0 to 2**63 - 1, not {2**63}"),
        ("play", "--payoff-size", "99", "must be 5 to 30, not 99"),
        ("play", "--payoff-size", "4", "must be 5 to 30, not 4"),
        ("play", "--target", "0", "must be at least 1, not 0"),
        ("play", "--delay", "-1", "must be 0 seconds or more, not -1"),
        ("play", "--delay", "nan", "must be 0 seconds or more, not nan"),
        ("daily", "--delay", "soon", "'soon' is not a number of seconds"),
        ("replay", "--game", "abc", "'abc' is not a whole number"),
        ("replay", "--game", "0", "must be at least 1, not 0"),
        (
            "serve",
            "--trusted-proxies",
            "10.0.0.300",
            "'10.0.0.300' is not an IP address or network (such as 10.0.0.5 or 10.0.0.0/24)",
        ),
        (
            "serve",
            "--trusted-proxies",
            "10.0.0.5/24",
            "'10.0.0.5/24' is not an IP address or network (such as 10.0.0.5 or 10.0.0.0/24)",
        ),
        (
            "serve",
            "--trusted-proxies",
            "balancer",
            "'balancer' is not an IP address or network (such as 10.0.0.5 or 10.0.0.0/24)",
        ),
        (
            "serve",
            "--trusted-proxies",
            "10.0.0.5,",
            "'10.0.0.5,' has an empty entry: give addresses separated by commas, or 'none'",
        ),
    ],
)
def test_a_bad_number_is_refused_with_what_it_must_be(
    capsys: pytest.CaptureFixture[str], command: str, option: str, value: str, message: str
) -> None:
    with pytest.raises(SystemExit) as caught:
        main([command, option, value])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert f"spite-malice {command}: error: argument {option}: {message}\n" in err
    assert "invalid" not in err.splitlines()[-1]


def test_good_numbers_are_read_as_numbers() -> None:
    args = build_parser().parse_args(
        ["play", "--seed", "0", "--delay", "0", "--payoff-size", "5", "--target", "1"]
    )
    assert (args.seed, args.delay, args.payoff_size, args.target) == (0, 0.0, 5, 1)
    args = build_parser().parse_args(["cluster", "--instances", "5", "--port", "0"])
    assert (args.instances, args.port) == (5, 0)
    args = build_parser().parse_args(["play", "--seed", str(2**63 - 1)])
    assert args.seed == 2**63 - 1


def test_trusted_proxies_are_read_as_a_list() -> None:
    """The balancers whose X-Forwarded-For ``serve`` believes: none by default (a server
    run alone believes nobody's), addresses and networks, or none at all."""
    assert build_parser().parse_args(["serve"]).trusted_proxies == []
    args = build_parser().parse_args(["serve", "--trusted-proxies", "10.0.0.5, 10.1.0.0/16"])
    assert args.trusted_proxies == ["10.0.0.5", "10.1.0.0/16"]
    assert build_parser().parse_args(["serve", "--trusted-proxies", "none"]).trusted_proxies == []
