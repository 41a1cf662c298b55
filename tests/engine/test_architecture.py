"""The engine is a plain-Python core: standard library only, nothing else of ours, no I/O."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import spite_malice.engine
from sources import parse_file

ENGINE = Path(spite_malice.engine.__file__).resolve().parent
MODULES = sorted(ENGINE.glob("*.py"))


def _imports(path: Path) -> list[tuple[str, int]]:
    """(module, level) of every import in the file; level > 0 for relative imports."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(parse_file(path)):
        if isinstance(node, ast.Import):
            found += [(alias.name, 0) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.module or "", node.level))
    return found


def test_the_engine_imports_only_the_standard_library_and_itself() -> None:
    assert len(MODULES) >= 8
    for path in MODULES:
        for module, level in _imports(path):
            if level == 1:
                continue  # a sibling module of the engine
            assert level == 0, f"{path.name} reaches outside the engine: {'.' * level}{module}"
            top = module.split(".")[0]
            assert top in sys.stdlib_module_names or top == "__future__", (
                f"{path.name} imports {module}"
            )


def test_the_engine_does_no_io_and_uses_no_global_randomness() -> None:
    for path in MODULES:
        tree = parse_file(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("open", "print", "input"), (
                    f"{path.name}: {node.func.id}"
                )
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr == "Random", f"{path.name} uses random.{node.attr}"
