"""Every import in pdfdesk/ points down the layers, and no two parts import each other.

The layers, lowest first: core and team (the team database, below every part keeping data in
it); models, index, review; tools; agent; the front ends (gui, mcp_server, cli, self_test,
__main__). A part may import its own layer or lower ones; parts of
one layer may import each other only without a cycle. Every import counts: at module level or
inside a function, absolute or relative, or an `importlib.import_module("...")` with a literal
name. The file is parsed, never imported, so an import that only runs on some path is seen too.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pdfdesk

PACKAGE = "pdfdesk"
ROOT = Path(pdfdesk.__file__).resolve().parent

# The part an import lands in, and its layer. `pdfdesk` is the package's own __init__ (the
# version), `resources` the bundled data package; both sit at the bottom with core.
LAYERS: dict[str, int] = {
    PACKAGE: 0, "resources": 0, "core": 0, "team": 0,
    "models": 1, "index": 1, "review": 1,
    "tools": 2,
    "agent": 3,
    "gui": 4, "mcp_server": 4, "cli": 4, "cli_review": 4, "cli_team": 4, "self_test": 4, "__main__": 4,
}


@dataclass(frozen=True)
class Edge:
    """One import statement: where it is, the module it names, and the two parts it joins."""

    file: str
    line: int
    target: str
    source_part: str
    target_part: str

    def where(self) -> str:
        return f"{self.file}:{self.line}: {self.source_part} imports {self.target} ({self.target_part})"


def module_name(path: Path, root: Path, package: str) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([package, *parts])


def part_of(module: str, package: str) -> str | None:
    """`pdfdesk.tools.pdf` -> "tools"; `pdfdesk` -> "pdfdesk"; None for another package."""
    pieces = module.split(".")
    if pieces[0] != package:
        return None
    return pieces[1] if len(pieces) > 1 else package


def _resolve(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute module of a relative import (`from ..tools import x` inside `module`)."""
    base = module.split(".")
    if not is_package:
        base.pop()
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, name] if name else base)


def _is_import_module(call: ast.Call) -> bool:
    func = call.func
    return (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
        isinstance(func, ast.Name) and func.id in ("import_module", "__import__"))


def imports_of(path: Path, module: str, known: set[str]) -> list[tuple[int, str]]:
    """(line, absolute module) for every import in one file, wherever it appears."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node.level, node.module) if node.level else node.module or ""
            for alias in node.names:  # `from pdfdesk import cli` imports the module pdfdesk.cli
                submodule = f"{base}.{alias.name}"
                found.append((node.lineno, submodule if submodule in known else base))
        elif isinstance(node, ast.Call) and _is_import_module(node) and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                name = first.value
                if name.startswith("."):
                    anchor = node.args[1] if len(node.args) > 1 else None
                    if not (isinstance(anchor, ast.Constant) and isinstance(anchor.value, str)):
                        continue
                    level = len(name) - len(name.lstrip("."))
                    name = _resolve(anchor.value, True, level, name.lstrip(".") or None)
                found.append((node.lineno, name))
    return found


def import_edges(root: Path, package: str) -> list[Edge]:
    """Every import from one part of the package into another."""
    files = sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)
    modules = {path: module_name(path, root, package) for path in files}
    known = set(modules.values())
    edges = []
    for path, module in modules.items():
        source = part_of(module, package)
        for line, target in imports_of(path, module, known):
            target_part = part_of(target, package)
            if target_part is not None and source is not None and target_part != source:
                edges.append(Edge(path.relative_to(root.parent).as_posix(), line, target, source, target_part))
    return edges


def _cycles(edges: list[Edge]) -> list[set[str]]:
    """The groups of parts that import each other, directly or round a loop (Tarjan's SCCs)."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source_part, set()).add(edge.target_part)
        graph.setdefault(edge.target_part, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def layer_problems(root: Path, package: str, layers: dict[str, int]) -> list[str]:
    """One line per offending import (file:line), empty when the layering holds."""
    edges = import_edges(root, package)
    problems = []
    for edge in edges:
        unknown = [p for p in (edge.source_part, edge.target_part) if p not in layers]
        if unknown:
            problems.append(f"{edge.where()}: {', '.join(unknown)} has no layer; give it one in {Path(__file__).name}")
        elif layers[edge.target_part] > layers[edge.source_part]:
            problems.append(f"{edge.where()}: upward, from layer {layers[edge.source_part]} "
                            f"to layer {layers[edge.target_part]}")
    for group in _cycles(edges):
        loop = " <-> ".join(sorted(group))
        problems += [f"{edge.where()}: part of the cycle {loop}" for edge in edges
                     if edge.source_part in group and edge.target_part in group]
    return problems


def test_imports_point_down_and_form_no_cycle():
    problems = layer_problems(ROOT, PACKAGE, LAYERS)
    assert not problems, "imports against the layering:\n" + "\n".join(problems)


def test_every_part_of_the_package_has_a_layer():
    parts = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    parts |= {p.stem for p in ROOT.glob("*.py") if p.name != "__init__.py"}
    assert parts <= set(LAYERS), f"parts without a layer: {sorted(parts - set(LAYERS))}"


def test_tools_import_nothing_from_the_agent_or_the_window():
    edges = import_edges(ROOT, PACKAGE)
    assert [e.where() for e in edges if e.source_part == "tools" and e.target_part in ("agent", "gui")] == []


def test_models_build_on_core_alone():
    edges = import_edges(ROOT, PACKAGE)
    assert [e.where() for e in edges if e.source_part == "models" and e.target_part not in ("core", PACKAGE)] == []


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_checker_finds_planted_upward_imports_and_cycles(tmp_path):
    """A tiny package with one import of every kind the checker must see, each placed wrongly."""
    package = tmp_path / "pdfdesk"
    _write(package, {
        "__init__.py": "",
        "core/__init__.py": "",
        "core/pages.py": "def f():\n    from ..tools import pdf\n    return pdf\n",      # relative, in a function
        "core/text.py": "import importlib\nimportlib.import_module('pdfdesk.gui.window')\n",  # by name
        "models/__init__.py": "",
        "models/keys.py": "from pdfdesk.core import pages\n",                           # downward: fine
        "index/__init__.py": "from pdfdesk.review import store\n",
        "review/__init__.py": "",
        "review/store.py": "import pdfdesk.index\n",                                       # siblings in a cycle
        "tools/__init__.py": "",
        "tools/pdf.py": "from pdfdesk import agent\n",                                     # `from package import`
        "agent/__init__.py": "",
        "gui/__init__.py": "",
        "gui/window.py": "from pdfdesk import cli\n",
        "cli.py": "def main():\n    from pdfdesk.gui import window\n",                    # front ends in a cycle
    })
    problems = layer_problems(package, "pdfdesk", LAYERS)
    expected = [
        "pdfdesk/core/pages.py:2: core imports pdfdesk.tools.pdf (tools): upward",
        "pdfdesk/core/text.py:2: core imports pdfdesk.gui.window (gui): upward",
        "pdfdesk/tools/pdf.py:1: tools imports pdfdesk.agent (agent): upward",
        "pdfdesk/index/__init__.py:1: index imports pdfdesk.review.store (review): part of the cycle index <-> review",
        "pdfdesk/review/store.py:1: review imports pdfdesk.index (index): part of the cycle index <-> review",
        "pdfdesk/gui/window.py:1: gui imports pdfdesk.cli (cli): part of the cycle cli <-> gui",
        "pdfdesk/cli.py:2: cli imports pdfdesk.gui.window (gui): part of the cycle cli <-> gui",
    ]
    for line in expected:
        assert any(p.startswith(line) for p in problems), f"not reported: {line}\nreported:\n" + "\n".join(problems)
    assert len(problems) == len(expected), "\n".join(problems)
    assert not any("models/keys.py" in p for p in problems)  # a downward import is no problem

    (package / "extra").mkdir()
    (package / "extra" / "__init__.py").write_text("from pdfdesk.core import pages\n", encoding="utf-8")
    assert any(p.startswith("pdfdesk/extra/__init__.py:1: extra imports pdfdesk.core.pages (core): extra has no layer")
               for p in layer_problems(package, "pdfdesk", LAYERS))
