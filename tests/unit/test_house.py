"""The house (README ▸ Development): the window never imports the command line, no two modules
import each other (directly or round a longer circle), packages import one way, and no module
grows past 500 lines.

Imports are read with ``ast`` from every file under planner/, wherever they stand: at module
level or inside a function (a late import hides a circle from the interpreter, not from the
reader). Only imports under ``if TYPE_CHECKING:`` are left out: they never run, and they are how
a typed back-reference is written (an extension's ``attach(window: MainWindow)``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import planner

ROOT = Path(planner.__file__).resolve().parent
MAX_LINES = 500
#: Circles waiting for their package's owner (issue 23); each entry is the sorted module names.
#: Remove an entry when its circle is cut: the test then keeps it cut.
PENDING: set[tuple[str, ...]] = set()


def modules() -> dict[str, Path]:
    """Every module under planner/ by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The planner modules ``name`` imports: ``from a.b import c`` is ``a.b.c`` when that is a
    module, else ``a.b``; a relative import is resolved against the package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    typing_only = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If) and _type_checking(node.test)
                   for statement in node.body for inner in ast.walk(statement)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = alias.name
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target:
                    found.add(target)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                if f"{source}.{alias.name}" in known:
                    found.add(f"{source}.{alias.name}")
                elif source in known:
                    found.add(source)
    found.discard(name)
    return found


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imported(name, path, known) for name, path in known.items()}


def circles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected parts of more than one node (Tarjan, iterative): each is a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []
    for start, targets in graph.items():
        if start in index:
            continue
        work = [(start, iter(sorted(targets)))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        part.append(member)
                        if member == node:
                            break
                    if len(part) > 1:
                        found.append(tuple(sorted(part)))
    return found


def package_of(name: str) -> str:
    """The package a module lives in: ``planner.X`` (the window, ``planner.ui``, is one)."""
    return ".".join(name.split(".")[:2])


def test_the_window_never_imports_the_command_line():
    graph = import_graph()
    wrong = sorted(f"{name} imports {target}" for name, targets in graph.items() if name.startswith("planner.ui")
                   for target in targets if target == "planner.cli" or target.startswith("planner.cli."))
    assert wrong == []


def test_no_two_modules_import_each_other():
    graph = import_graph()
    assert "planner.ui.app" in graph["planner.cli"]  # the reader sees a function's import
    assert "planner.ui.validation.live" not in graph["planner.ui.main_window"]  # a type-only import
    found = set(circles(graph))
    assert found - PENDING == set(), "modules in a circle: one module, or a third below them"
    assert PENDING <= found, "a pending circle is cut: take it out of PENDING"


def test_packages_import_one_way():
    graph: dict[str, set[str]] = {}
    for name, targets in import_graph().items():
        room = package_of(name)
        graph.setdefault(room, set()).update(package_of(t) for t in targets if package_of(t) != room)
    assert circles(graph) == []


#: The window's own top: it assembles the features (``main_window``), starts the app and opens files.
WINDOW_TOP = {"planner.ui.main_window", "planner.ui.app", "planner.ui.files"}


def window_room(name: str) -> str:
    """A module's room inside the window: its feature folder (``planner.ui.cables``), the top
    (``WINDOW_TOP``) or the shared base (the other modules directly under ``planner/ui``)."""
    if name in WINDOW_TOP:
        return "top"
    parts = name.split(".")
    return ".".join(parts[:3]) if len(parts) > 3 else "base"


def test_the_windows_feature_folders_import_one_way():
    graph: dict[str, set[str]] = {}
    for name, targets in import_graph().items():
        if not name.startswith("planner.ui"):
            continue
        room = window_room(name)
        graph.setdefault(room, set()).update(window_room(t) for t in targets
                                             if t.startswith("planner.ui") and window_room(t) != room)
    assert circles(graph) == []
    assert "top" not in set().union(*graph.values()), "only the top assembles the window"


def test_the_circle_finder_finds_long_circles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"d"}, "f": set()}
    assert sorted(circles(graph)) == [("a", "b", "c"), ("d", "e")]


def test_no_module_is_over_500_lines():
    long = {name: n for name, path in modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}, "split these by what they do"
