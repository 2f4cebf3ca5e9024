"""No import cycles among the project's modules, and scenes never import each other.

The graph is read from the source (ast), function-local imports included; imports under
`if TYPE_CHECKING:` are for the type checker only and are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("package", "games", "ai", "gui", "cli")

KNOWN_CYCLES: list[set[str]] = []
"""Cycles allowed for a while (none: add one only with a reason and a plan to remove it)."""


def module_name(path: Path) -> str:
    """'gui/play/scene.py' -> 'plyground.gui.play.scene'; a package's __init__ is the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    if parts[0] == "package":
        parts[0] = "plyground"  # package/ is the root of the import package
    else:
        parts.insert(0, "plyground")  # the wheel maps ai/, gui/, ... under plyground
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    """Every module of the project, by name."""
    found = {
        module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }
    if (ROOT / "main.py").exists():
        found["main"] = ROOT / "main.py"
    return found


def _type_checking_only(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
    )


def imported_names(tree: ast.AST, module: str, is_package: bool) -> list[str]:
    """Dotted names this module imports, anywhere in its body (not under TYPE_CHECKING)."""
    names: list[str] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if _type_checking_only(node):
            stack.extend(getattr(node, "orelse", []))
            continue
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.split(".")
                if not is_package:
                    parent = parent[:-1]
                parent = parent[: len(parent) - (node.level - 1)]
                base = ".".join(parent + ([base] if base else []))
            names.append(base)
            names.extend(f"{base}.{alias.name}" for alias in node.names)
        stack.extend(ast.iter_child_nodes(node))
    return names


def import_graph() -> dict[str, set[str]]:
    """module -> the project modules it imports."""
    modules = project_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        targets = set()
        for imported in imported_names(tree, name, path.name == "__init__.py"):
            if imported in modules and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
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


@pytest.mark.slow
def test_the_graph_is_read_from_the_source():
    graph = import_graph()
    assert "plyground.gui.play.controller" in graph["plyground.gui.play.scene"]
    assert "plyground.gui.play.game_history" in graph["plyground.gui.play.match"]
    assert "plyground.games.base" in graph["plyground.gui.play.controller"]


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_anywhere():
    unexpected = [c for c in cycles(import_graph()) if c not in KNOWN_CYCLES]
    assert unexpected == [], f"import cycles: {unexpected}"


def registered_scenes() -> set[str]:
    """The modules of the scenes the app switches between by name (`gui.app.SCENES`)."""
    tree = ast.parse((ROOT / "gui" / "app.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "SCENES" for target in node.targets
        ):
            table = ast.literal_eval(node.value)
            return {entry.split(":")[0] for entry in table.values()}
    raise AssertionError("gui/app.py has no SCENES table")


@pytest.mark.slow
def test_no_scene_imports_another_scene():
    """Scenes reach each other through `App.switch(name)`; only the bases are shared."""
    graph = import_graph()
    scenes = registered_scenes() | {
        name for name in graph if name.startswith("plyground.gui.scenes.")
    }
    bases = {
        "plyground.gui.scenes.base",
        "plyground.gui.scenes.file_dialog",
        "plyground.gui.scenes",
    }
    assert {
        "plyground.gui.scenes.menu",
        "plyground.gui.setup.scene",
        "plyground.gui.play.scene",
    } <= scenes
    offenders = {name: sorted(graph[name] & scenes - bases) for name in sorted(scenes)}
    assert {name: found for name, found in offenders.items() if found} == {}
    assert not graph["plyground.gui.app"] & scenes - {"plyground.gui.scenes.base"}


@pytest.mark.slow
def test_controller_and_ai_layers_point_one_way():
    graph = import_graph()
    for name, targets in graph.items():
        if name.startswith(("games", "ai")):
            assert not {t for t in targets if t.startswith(("gui", "cli"))}, name
        if name.startswith("games"):
            assert not {t for t in targets if t.startswith("ai")}, name
