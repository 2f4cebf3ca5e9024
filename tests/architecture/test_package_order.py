"""The written order of the project's layers and of `ai/`'s subpackages, enforced.

A package may import only from itself and from those below it, counting every import:
function-local ones and those under ``if TYPE_CHECKING:`` too (a type-only import is still a
dependency a reader must follow).  The order is the one docs/ARCHITECTURE.md writes down.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.architecture.test_import_graph import ROOT, project_modules

AI_ORDER = (
    "evaluation",  # values, their provenance and their wording
    "engine",  # the search that plays (and the seam to heuristic files)
    "textbook",  # the algorithms as a student reads them, observed for traces
    "student_code",  # code that is not ours, run in workers; the exercise grader
    "players",  # players, presets, matches, tournaments
    "compare",  # algorithms side by side
    "advice",  # hints, analyses, reviews and their reports
    "bench",  # benchmarks: everything above, timed
)
"""`ai/`'s subpackages, lowest first."""

LAYERS = ("games", "ai", "gui", "cli")
"""The project's packages, lowest first (the terminal may draw with the window's kits, for
screenshots; the window never reaches into the terminal's commands)."""


def _imports(path: Path, module: str) -> list[str]:
    """Every dotted name `module` imports, type-only and function-local imports included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.split(".")
                if path.name != "__init__.py":
                    parent = parent[:-1]
                parent = parent[: len(parent) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            names += [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return names


def _part(name: str, depth: int) -> str | None:
    parts = name.split(".")
    return parts[depth] if len(parts) > depth and parts[0] == "plyground" else None


def _breaches(order: tuple[str, ...], depth: int, within: str | None) -> list[str]:
    found = []
    for module, path in project_modules().items():
        if within is not None and _part(module, 1) != within:
            continue
        own = _part(module, depth)
        if own not in order:
            continue
        for name in _imports(path, module):
            other = _part(name, depth)
            if within is not None and _part(name, 1) != within:
                continue
            if other in order and order.index(other) > order.index(own):
                found.append(f"{module} imports {name}")
    return sorted(set(found))


def test_ai_subpackages_import_only_those_below() -> None:
    assert _breaches(AI_ORDER, 2, "ai") == []


def test_every_ai_subpackage_is_placed_in_the_order() -> None:
    packages = {p.name for p in (ROOT / "ai").iterdir() if (p / "__init__.py").exists()}
    assert packages == set(AI_ORDER)


def test_layers_import_only_those_below() -> None:
    assert _breaches(LAYERS, 1, None) == []


def test_the_order_is_the_one_architecture_writes() -> None:
    text = " ".join((ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8").split())
    written = " < ".join(f"`{name}`" for name in AI_ORDER)
    assert written in text


def test_the_play_controller_imports_no_pygame() -> None:
    """The play screen's logic runs without a window: pygame stays in the scene and kits."""
    code = "import sys, plyground.gui.play.controller; print('pygame' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_set_up_helpers_never_see_the_set_up_scene() -> None:
    """The set-up screen's helpers take a `SetupForm` and the values they read (type-only
    imports counted): the scene imports them, never the reverse."""
    modules = project_modules()
    breaches = [
        f"{module} imports {name}"
        for module, path in modules.items()
        if module.startswith("plyground.gui.setup.") and module != "plyground.gui.setup.scene"
        for name in _imports(path, module)
        if name.startswith("plyground.gui.setup.scene")
    ]
    assert breaches == []


PLAY_PARTS = ("match", "search_jobs", "browse", "game_review", "events")
"""The play controller's parts and what they share: below the controller and the scene."""


def test_the_play_controllers_parts_never_see_the_controller_or_the_scene() -> None:
    """`SearchJobs`, `Browse` and `GameReviewer` take the `Match` and the parts they use (type-only
    imports counted): the controller imports them, never the reverse."""
    modules = project_modules()
    above = ("plyground.gui.play.controller", "plyground.gui.play.scene")
    breaches = [
        f"{module} imports {name}"
        for part in PLAY_PARTS
        for module in [f"plyground.gui.play.{part}"]
        for name in _imports(modules[module], module)
        if name.startswith(above)
    ]
    assert breaches == []


def test_one_move_walks_without_a_circle() -> None:
    """One human move to the AI's reply on screen (`move_walk.py`; its figures are written up
    in docs/ARCHITECTURE.md): the controller never calls back into the scene inside the click,
    and the walk goes through the parts, not through forwarders of the controller's."""
    from tests.architecture.move_walk import measure

    walk = measure()
    assert walk.hops and walk.scene_returns == []
    called = {name.rsplit(":", 1)[1] for name in walk.functions}
    assert "SearchJobs.poll_worker" in called and "PlayController.try_human_move" in called
    assert not any(name.startswith("PlayController.shown_") for name in called)
