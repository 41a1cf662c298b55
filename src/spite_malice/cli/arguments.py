"""The command line's argument types: each refuses a bad value with a sentence that says what
the value must be (``--games: 'abc' is not a whole number``), before anything starts.

argparse shows an :class:`argparse.ArgumentTypeError`'s text as it is, after the option's
name; a plain ``int`` would say "invalid int value" and a helper's name ("invalid _positive
value"), and a value the type accepts but the game cannot use (a seed of -1, a negative
delay) would only fail later, or not at all.
"""

from __future__ import annotations

import argparse
import ipaddress
import math

from ..engine.rules import NUMBER_LIMITS
from ..engine.seeds import SEED_LIMIT
from ..i18n import _

PORTS = 65535
"""The highest TCP port."""


def whole_number(text: str) -> int:
    """A whole number, written in decimal."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text} is not a whole number", text=repr(text))
        ) from None


def positive(text: str) -> int:
    """A whole number of at least 1 (games, runs, jobs, instances, a match's target)."""
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(_("must be at least 1, not {value}", value=value))
    return value


def port(text: str) -> int:
    """A TCP port, 0 (any free one) to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text} is not a port number", text=repr(text))
        ) from None
    if not 0 <= value <= PORTS:
        raise argparse.ArgumentTypeError(
            _("{value} is not a port number (0-{ports})", value=value, ports=PORTS)
        )
    return value


def seed(text: str) -> int:
    """A seed: a whole number from 0 to 2**63 - 1, as every record keeps it."""
    value = whole_number(text)
    if not 0 <= value < SEED_LIMIT:
        raise argparse.ArgumentTypeError(_("must be 0 to 2**63 - 1, not {value}", value=value))
    return value


def seconds(text: str) -> float:
    """A time in seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text} is not a number of seconds", text=repr(text))
        ) from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(_("must be 0 seconds or more, not {text}", text=text))
    return value


def payoff_size(text: str) -> int:
    """Cards in each pay-off pile, within the rules' range (R1.2)."""
    low, high = NUMBER_LIMITS["payoff_size"]
    value = whole_number(text)
    if value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(
            _("must be {low} to {high}, not {value}", low=low, high=high, value=value)
        )
    return value


NO_PROXY = "none"
"""The word for "trust no balancer" (every connection's own address counts)."""


def proxies(text: str) -> list[str]:
    """Addresses or networks (``10.0.0.5``, ``10.0.0.0/24``, ``::1``), comma-separated, of the
    load balancers whose ``X-Forwarded-For`` names the real client; ``none`` for none.
    Each is checked here: the web server would take a mistyped one as a name that never
    matches, and silently count every player as the balancer."""
    if text.strip().lower() == NO_PROXY:
        return []
    found = [part.strip() for part in text.split(",")]
    if not all(found):
        raise argparse.ArgumentTypeError(
            f"{text!r} has an empty entry: give addresses separated by commas, or 'none'"
        )
    for entry in found:
        try:
            ipaddress.ip_network(entry) if "/" in entry else ipaddress.ip_address(entry)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{entry!r} is not an IP address or network (such as 10.0.0.5 or 10.0.0.0/24)"
            ) from None
    return found


__all__ = [
    "NO_PROXY",
    "payoff_size",
    "port",
    "positive",
    "proxies",
    "seconds",
    "seed",
    "whole_number",
]
