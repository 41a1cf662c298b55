"""The import graph of ``spite_malice`` points one way (issue 16, item 4): no module imports,
even inside a function or for type checking only, a module that imports it back."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import spite_malice
from sources import parse_file

ROOT = Path(spite_malice.__file__).resolve().parent

KNOWN_CYCLES: list[set[str]] = []
"""Cycles that are known and allowed for now (none: a new one fails the test)."""


@functools.cache
def _modules() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _graph() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports (a package stands for its ``__init__``): a
    fresh copy of :func:`_import_graph`, which is worked out once a test process."""
    return {name: set(imported) for name, imported in _import_graph().items()}


Import = tuple[int | None, str, tuple[str, ...]]
"""One import statement: ``None`` for ``import a, b`` (the names, no module) or the level of
``from ... import`` (0 when absolute), the module named after ``from``, the names imported."""


@functools.cache
def _imports() -> dict[str, tuple[Import, ...]]:
    """Module -> its import statements, anywhere in it; each file parsed once a test process
    (its tree then dropped: a kept tree would slow every garbage collection after)."""
    found: dict[str, tuple[Import, ...]] = {}
    for name, path in _modules().items():
        statements: list[Import] = []
        for node in ast.walk(parse_file(path)):
            if isinstance(node, ast.Import):
                statements.append((None, "", tuple(alias.name for alias in node.names)))
            elif isinstance(node, ast.ImportFrom):
                names = tuple(alias.name for alias in node.names)
                statements.append((node.level, node.module or "", names))
        found[name] = tuple(statements)
    return found


@functools.cache
def _import_graph() -> dict[str, frozenset[str]]:
    modules = _modules()

    def known(name: str) -> str:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name

    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for level, module, names in _imports()[name]:
            targets: list[str] = []
            if level is None:
                targets = list(names)
            else:
                if level:
                    base = ".".join(package.split(".")[: len(package.split(".")) - level + 1])
                    base = f"{base}.{module}" if module else base
                else:
                    base = module
                targets = [
                    f"{base}.{alias}" if f"{base}.{alias}" in modules else base for alias in names
                ]
            for target in map(known, targets):
                if target.startswith("spite_malice") and target != name:
                    graph[name].add(target)
    return {name: frozenset(imported) for name, imported in graph.items()}


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_sees_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]


def test_no_import_cycles_but_the_known_ones() -> None:
    cycles = _cycles(_graph())
    unknown = [sorted(cycle) for cycle in cycles if cycle not in KNOWN_CYCLES]
    assert not unknown, f"import cycles: {unknown}"


def test_the_bots_do_not_import_the_bot_text_protocol() -> None:
    graph = _graph()
    for name, imported in graph.items():
        if name.startswith("spite_malice.bots"):
            outside = {
                t
                for t in imported
                if not t.startswith(
                    ("spite_malice.bots", "spite_malice.engine", "spite_malice.i18n")
                )
                and t != "spite_malice.levels"
            }
            assert not outside, f"{name} imports {sorted(outside)}"


def test_the_translations_and_the_engine_import_nothing_of_ours_above_them() -> None:
    """spite_malice.i18n sits beside the engine, under everything that shows text: it imports
    only itself, and the engine imports only itself (texts it makes are translated above it)."""
    graph = _graph()
    for name, imported in graph.items():
        for layer in ("spite_malice.i18n", "spite_malice.engine"):
            if name.startswith(layer):
                outside = {
                    t for t in imported if t.startswith("spite_malice") and not t.startswith(layer)
                }
                assert not outside, f"{name} imports {sorted(outside)}"


def test_the_levels_are_data_below_the_bots_and_the_table() -> None:
    """The levels' ids and labels (``spite_malice.levels``) import nothing of ours; the table
    layer's levels read them there and ask the bots' registry what can play, never the bots
    themselves for a word."""
    graph = _graph()
    assert not graph["spite_malice.levels"]
    assert graph["spite_malice.table.levels"] == {
        "spite_malice.levels",
        "spite_malice.i18n",
        "spite_malice.bot_registry",
    }
    assert "spite_malice.levels" in graph["spite_malice.bots.levels"]


def test_the_engine_game_position_and_observation_import_one_way() -> None:
    graph = _graph()
    assert "spite_malice.engine.game" not in graph["spite_malice.engine.position"]
    assert "spite_malice.engine.game" not in graph["spite_malice.engine.observation"]


def test_the_offline_package_imports_only_what_runs_in_the_page() -> None:
    """spite_malice.offline runs in Pyodide in the page (docs/offline.md): it may use the
    engine, the bots, the table layer, the tutorial and the translations, never the web
    server's modules (FastAPI, pydantic) nor anything else above the table."""
    graph = _graph()
    allowed = (
        "spite_malice.offline",
        "spite_malice.engine",
        "spite_malice.match_records",
        "spite_malice.bots",
        "spite_malice.table",
        "spite_malice.i18n",
        "spite_malice.bot_registry",
        "spite_malice.bot_protocol",
        "spite_malice.tutorial",
        "spite_malice.levels",
    )
    for name, imported in graph.items():
        if name.startswith("spite_malice.offline"):
            outside = {t for t in imported if not t.startswith(allowed)}
            assert not outside, f"{name} imports {sorted(outside)}"
    for name, imported in graph.items():
        if name.startswith(("spite_malice.engine", "spite_malice.bots", "spite_malice.table")):
            assert not {t for t in imported if t.startswith("spite_malice.offline")}, name


def test_the_store_and_the_match_records_import_no_table_layer() -> None:
    """The data the table layer and the store share (a step, a match's meta, a seat) sit in
    ``spite_malice.match_records``, below both: it imports only the engine, and the store
    imports neither the table layer nor anything above it (its migrations are history: the
    one of revision 0002 names the levels as they were shown then, from the table layer)."""
    graph = _graph()
    for name, imported in graph.items():
        if name.startswith("spite_malice.match_records"):
            outside = {
                t
                for t in imported
                if not t.startswith(("spite_malice.match_records", "spite_malice.engine"))
            }
            assert not outside, f"{name} imports {sorted(outside)}"
        if name.startswith("spite_malice.store") and ".migrations" not in name:
            above = {
                t
                for t in imported
                if t.startswith(
                    (
                        "spite_malice.table",
                        "spite_malice.web",
                        "spite_malice.tui",
                        "spite_malice.bots",
                    )
                )
            }
            assert not above, f"{name} imports {sorted(above)}"


def test_the_package_ships_no_benchmarks() -> None:
    """The benchmarks (``benchmarks/bench`` and their launchers) live outside the shipped
    package: ``spite_malice`` has no benchmark package and no module of it imports one."""
    assert not (ROOT / "bench").exists()
    modules = _modules()
    assert not [name for name in modules if name.split(".")[1:2] == ["bench"]]
    for name in modules:
        for level, module, names in _imports()[name]:
            if level is None:
                targets = list(names)
            elif not level:
                targets = [module]
            else:
                continue
            assert not [t for t in targets if t.split(".")[0] in {"bench", "benchmarks"}], name


def test_the_bot_client_and_the_bot_host_share_only_the_protocol() -> None:
    """The bot author's side (``bot_client``) and the host's (``bot_protocol``) import each
    other nowhere but for the protocol's constants; the host imports nothing above the bots,
    and the client's only way up is its command (``python -m spite_malice.bot_client``)."""
    graph = _graph()
    for name, imported in graph.items():
        if name.startswith("spite_malice.bot_protocol"):
            above = {
                t
                for t in imported
                if not t.startswith(("spite_malice.bot_protocol", "spite_malice.engine"))
                and not t.startswith("spite_malice.bots")
            }
            assert not above, f"{name} imports {sorted(above)}"
        if (
            name.startswith("spite_malice.bot_client")
            and name != "spite_malice.bot_client.__main__"
        ):
            outside = {
                t
                for t in imported
                if not t.startswith(("spite_malice.bot_client", "spite_malice.engine"))
                and not t.startswith("spite_malice.bots")
                and t != "spite_malice.bot_protocol"
            }
            assert not outside, f"{name} imports {sorted(outside)}"
