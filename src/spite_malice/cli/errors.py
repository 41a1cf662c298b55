"""What the command line says when a command cannot go on: one sentence for the player, in
their language, never a traceback (the exit status is 2).

:func:`expected_failure` turns the errors a player can cause or meet (a store that cannot be
opened, a file that cannot be read) into that sentence; anything else is a bug and keeps its
traceback. argparse's own messages ("the following arguments are required", "invalid
choice") go through the same catalogs: :func:`translate_argparse`.
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import sys

from ..i18n import N_, _, catalog, current_language

_STORE_MODULE = "spite_malice.store.access"
_OPEN = re.compile(r"^cannot open the database (?P<where>.+?): (?P<reason>.*)$", re.S)
_FAILED = re.compile(r"^the database (?P<where>.+?) failed: (?P<reason>.*)$", re.S)
_DRIVER_CLASS = re.compile(r"^\([\w.]+\)\s*")  # SQLAlchemy's "(sqlite3.OperationalError) "


def _reason(text: str) -> str:
    """The driver's own reason, its first line, without the exception's class name."""
    first = text.strip().split("\n", 1)[0]
    return _DRIVER_CLASS.sub("", first).strip() or first


def store_message(error: BaseException, location: str | None) -> str | None:
    """The sentence for one of the store's errors (``None`` if it is not one)."""
    access = sys.modules.get(_STORE_MODULE)
    if access is None or not isinstance(error, access.StoreError):
        return None  # the store was never loaded: the error cannot be one of its own
    text = str(error)
    if isinstance(error, access.StoreUnavailable):
        if location and os.path.isdir(location):
            return _(
                "{location} is a folder, not a database: give --db a file name or a database URL",
                location=location,
            )
        found = _OPEN.match(text)
        if found:
            return _(
                "cannot open the database {location}: {reason}",
                location=found["where"],
                reason=_reason(found["reason"]),
            )
        found = _FAILED.match(text)
        if found:
            return _(
                "the database {location} cannot be used now: {reason}",
                location=found["where"],
                reason=_reason(found["reason"]),
            )
        return _("the database cannot be used now: {reason}", reason=_reason(text))
    if isinstance(error, access.StoreDataError):
        return _("the database holds data this version cannot read: {reason}", reason=_reason(text))
    return _("the database refused this: {reason}", reason=_reason(text))


_OS_REASONS = {
    errno.ENOENT: N_("there is no such file"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EISDIR: N_("it is a folder, not a file"),
}


def os_message(error: OSError) -> str:
    """A file that cannot be read or written: its name and why (the usual reasons in the
    player's language, others in the system's words)."""
    known = _OS_REASONS.get(error.errno) if error.errno is not None else None
    reason = _(known) if known else error.strerror or str(error)
    if error.filename is not None:
        return _("{file}: {reason}", file=repr(error.filename), reason=reason)
    return reason


def stdout_is_a_terminal() -> bool:
    """Whether both standard input and output are a terminal (a full-screen game needs it)."""
    return sys.stdout.isatty() and sys.stdin.isatty()


def need_a_terminal(command: str) -> str:
    """The sentence that refuses a full-screen command without a terminal."""
    return _(
        "'{command}' draws a full-screen game and needs a terminal: its input or output is "
        "not one (to read a game as text, use 'spite-malice replay --text RECORD.json')",
        command=command,
    )


# argparse's own texts (Python's argparse module), marked here so that the catalogs carry
# them; :func:`translate_argparse` hands argparse our translation.
ARGPARSE_TEXTS = (
    # TRANSLATORS: argparse's texts keep their %s / %(name)s placeholders as they are.
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("ignored explicit argument %r"),
    N_("%(prog)s: error: %(message)s\n"),
)


def _argparse_gettext(message: str) -> str:
    return catalog(current_language()).gettext(message)


def _argparse_ngettext(singular: str, plural: str, n: int) -> str:
    return catalog(current_language()).ngettext(singular, plural, n)


def translate_argparse() -> None:
    """Make argparse's messages speak the current language (argparse reads its texts through
    the module's ``_`` and ``ngettext``, the gettext hooks it is written for)."""
    argparse._ = _argparse_gettext  # type: ignore[attr-defined]
    argparse.ngettext = _argparse_ngettext  # type: ignore[attr-defined]


__all__ = [
    "ARGPARSE_TEXTS",
    "need_a_terminal",
    "os_message",
    "stdout_is_a_terminal",
    "store_message",
    "translate_argparse",
]
