"""Read a Python source file into its syntax tree, for the tests that check the code itself
(imports, marked texts, benchmarks).

Python 3.11 counts the depth of its syntax-tree converter once per interpreter, not per
thread, and its tracebacks parse source lines (for the ``^^^`` marks). A traceback written
by another thread of the same test process at that moment (a server's log) makes
``ast.parse`` fail with "AST constructor recursion depth mismatch", though the file is
fine. Such a failure is parsed again; any other error is the file's own and is raised."""

from __future__ import annotations

import ast
from pathlib import Path

_TRIES = 5


def parse_file(path: Path) -> ast.Module:
    """The syntax tree of the Python file at ``path``."""
    return parse_source(path.read_text(encoding="utf-8"), str(path))


def parse_source(source: str, filename: str = "<source>") -> ast.Module:
    """The syntax tree of ``source``."""
    for attempt in range(_TRIES):
        try:
            return ast.parse(source, filename)
        except SystemError as error:
            if "recursion depth mismatch" not in str(error) or attempt == _TRIES - 1:
                raise
    raise AssertionError("unreachable")
