"""No import circles among hoaregpu's modules (issue 14, item 5).

The graph: an edge from module A to module B when A's module-level code imports B (`import
B`, `from B import x`, `from pkg import B` for a submodule B; relative imports resolved).
Imports inside functions are lazy (they run after both modules are loaded) and imports
under `if TYPE_CHECKING:` never run: neither is an edge. Parent packages are not edges of
their own (importing `a.b.c` runs `a/__init__` and `a/b/__init__`, but a circle through a
package's `__init__` shows as a circle through the modules it imports)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "hoaregpu"


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def module_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Import statements that run when the module is imported: top level, and inside
    module-level `if`/`try`/`with` blocks, except `if TYPE_CHECKING:` bodies."""
    out: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            out.append(node)
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                todo += node.body
            todo += node.orelse
        elif isinstance(node, ast.Try):
            todo += [*node.body, *node.orelse, *node.finalbody]
            for h in node.handlers:
                todo += h.body
        elif isinstance(node, ast.With):
            todo += node.body
    return out


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    files = {module_name(p, package): p for p in package.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        here = name.split(".") if is_package else name.split(".")[:-1]
        edges: set[str] = set()
        for node in module_level_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = here[: len(here) - node.level + 1] if node.level else []
                origin = ".".join([*base, *([node.module] if node.module else [])])
                targets = []
                for a in node.names:
                    sub = f"{origin}.{a.name}"
                    targets.append(sub if sub in files else origin)
            edges.update(t for t in targets if t in files and t != name)
        graph[name] = edges
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, todo = work[-1]
            if todo:
                w = todo.pop()
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, sorted(graph[w])))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_circles() -> None:
    assert circles(import_graph()) == []


def test_the_graph_sees_a_circle(tmp_path: Path) -> None:
    """The check can fail: a planted circle (relative, through `from . import`, and a lazy
    and a TYPE_CHECKING import that are not edges) is found, and only it."""
    pkg = tmp_path / "hoaregpu"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .sub import b\n")
    (pkg / "sub" / "b.py").write_text("try:\n    from ..c import x\nexcept ImportError:\n    pass\n")
    (pkg / "c.py").write_text("import hoaregpu.a\nx = 1\n")
    (pkg / "d.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .e import y\n"
        "def f():\n    from .e import y\n"
    )
    (pkg / "e.py").write_text("from . import d\ny = 2\n")
    graph = import_graph(pkg)
    assert graph["hoaregpu.a"] == {"hoaregpu.sub.b"}
    assert graph["hoaregpu.d"] == set()
    assert circles(graph) == [["hoaregpu.a", "hoaregpu.c", "hoaregpu.sub.b"]]
