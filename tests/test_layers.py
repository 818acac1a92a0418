"""The package's import graph: no cycles, and every import goes down DESIGN.md's layer table.

Imports inside functions count as much as those at the top of a module: a lazy import
hides a cycle from Python, not from the design.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import bidlab

ROOT = Path(bidlab.__file__).parent

# DESIGN.md's layer table, lowest first. A module may import its own layer or any layer
# below it; layers of equal rank (Spades, tabular) are independent of each other.
LAYERS: dict[str, int] = {
    "runtime": 0, "cards": 1, "bridge": 2, "dd": 3, "encodings": 4, "envs": 5, "nets": 6, "agents": 7,
    "learn": 8, "search": 9, "eval": 10, "spades": 11, "tabular": 11, "front ends": 12,
}


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if module in ("bidlab", "bidlab.errors", "bidlab.fileio") or parts[:2] == ["bidlab", "runtime"]:
        return "runtime"  # the package root (version), its errors and atomic writes sit with the runtime
    if module == "bidlab.bridge.features":
        return "encodings"
    if len(parts) > 1 and parts[1] in ("cli", "web", "bluechip", "__main__"):  # __main__: python -m bidlab
        return "front ends"
    if len(parts) > 1 and parts[1] in LAYERS:
        return parts[1]
    return None


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _imported_names(module: str, path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            yield base
            for alias in node.names:
                yield f"{base}.{alias.name}"


def _resolve(name: str) -> str | None:
    """The bidlab module an imported name lives in (longest known prefix)."""
    parts = name.split(".")
    while parts and ".".join(parts) not in MODULES:
        parts.pop()
    return ".".join(parts) if parts and parts[0] == "bidlab" else None


def import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for module, path in MODULES.items():
        for name in _imported_names(module, path):
            target = _resolve(name)
            if target and target != module:
                graph[module].add(target)
    return graph


GRAPH = import_graph()


def upward_edges() -> set[tuple[str, str]]:
    """(importer, imported) pairs that break the layer order."""
    bad = set()
    for module, targets in GRAPH.items():
        src = layer_of(module)
        for target in targets:
            dst = layer_of(target)
            if src is None or dst is None or src == dst:
                continue
            if LAYERS[dst] >= LAYERS[src]:  # up, or sideways between independent layers
                bad.add((module, target))
    return bad


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def subpackage_graph() -> dict[str, set[str]]:
    key = lambda m: ".".join(m.split(".")[:2])  # noqa: E731
    g: dict[str, set[str]] = {}
    for module, targets in GRAPH.items():
        for t in targets:
            if key(t) != key(module) and "bidlab" not in (key(t), key(module)):
                g.setdefault(key(module), set()).add(key(t))
    return g


def module_graph_without_package_inits() -> dict[str, set[str]]:
    """Module-level graph; importing a package's ``__init__`` re-exports is not a cycle of its own."""
    packages = {m for m, p in MODULES.items() if p.name == "__init__.py"}
    return {m: {t for t in ts if t not in packages} for m, ts in GRAPH.items() if m not in packages}


# Edges the code still has, each tied to the work that removes it. A strict xfail turns red
# when the edge disappears, so the entry is deleted then.
KNOWN_UPWARD: set[tuple[str, str]] = set()
KNOWN_CYCLES: list[list[str]] = []


def test_every_module_has_a_layer():
    assert [m for m in MODULES if layer_of(m) is None] == []


def test_the_graph_sees_lazy_imports():
    """A guard on the walker itself: imports inside functions are edges too."""
    assert "bidlab.agents.sayc" in GRAPH["bidlab.agents.registry"]  # imported inside _sayc
    assert "bidlab.dd.solver" in GRAPH["bidlab.dd.generate"]


def test_layers_import_only_downward():
    assert sorted(upward_edges() - KNOWN_UPWARD) == []


def test_agents_do_not_import_learning_or_evaluation():
    reached = {t for m, ts in GRAPH.items() if layer_of(m) == "agents" for t in ts}
    assert not {layer_of(t) for t in reached} & {"learn", "search", "eval", "front ends"}


def test_runtime_imports_nothing_of_bidlab_above_it():
    for m, ts in GRAPH.items():
        if layer_of(m) == "runtime":
            assert {layer_of(t) for t in ts} <= {"runtime"}, (m, ts)


def test_no_import_cycles_between_subpackages():
    assert cycles(subpackage_graph()) == []


def test_no_import_cycles_between_modules():
    assert [c for c in cycles(module_graph_without_package_inits()) if c not in KNOWN_CYCLES] == []




def test_the_checks_catch_a_planted_upward_import_and_cycle(monkeypatch):
    """The checks themselves can fail: plant an agent -> learn import and a two-module cycle."""
    graph = {m: set(ts) for m, ts in GRAPH.items()}
    graph["bidlab.agents.neural"].add("bidlab.learn.sl")
    graph["bidlab.cards"].add("bidlab.bridge.calls")
    graph["bidlab.bridge.calls"].add("bidlab.cards")
    me = sys.modules[__name__]
    monkeypatch.setattr(me, "GRAPH", graph)
    assert ("bidlab.agents.neural", "bidlab.learn.sl") in me.upward_edges()
    assert ("bidlab.cards", "bidlab.bridge.calls") in me.upward_edges()
    assert ["bidlab.bridge.calls", "bidlab.cards"] in me.cycles(me.module_graph_without_package_inits())
