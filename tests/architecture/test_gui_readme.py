"""gui/README.md stays true: every module of gui/ is listed under its folder, every file it
lists exists, and each line is the module's own docstring."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUI = ROOT / "gui"


def _listed() -> dict[str, set[str]]:
    """{folder: file names} as the README's tables list them."""
    text = (GUI / "README.md").read_text(encoding="utf-8")
    listed: dict[str, set[str]] = {}
    folder = ""
    for line in text.splitlines():
        heading = re.match(r"### (?:`(.+)/`|the package's top level)", line)
        if heading:
            folder = heading.group(1) or "."
            listed.setdefault(folder, set())
        row = re.match(r"\| `([^`]+)` \|", line)
        if row and folder:
            listed[folder].add(row.group(1))
    return listed


def test_every_gui_module_is_listed_and_every_listed_file_exists() -> None:
    listed = _listed()
    for path in GUI.rglob("*.py"):
        if path.name == "__init__.py" or "__pycache__" in path.parts:
            continue
        folder = str(path.parent.relative_to(GUI))
        assert path.name in listed.get(folder, set()), f"gui/{folder}/{path.name} is not listed"
    for folder, names in listed.items():
        for name in names:
            assert (GUI / folder / name).is_file(), f"gui/README.md lists gui/{folder}/{name}"


def test_each_line_is_the_modules_own_docstring() -> None:
    text = (GUI / "README.md").read_text(encoding="utf-8")
    for folder, names in _listed().items():
        for name in names:
            if not name.endswith(".py"):
                continue
            doc = ast.get_docstring(ast.parse((GUI / folder / name).read_text(encoding="utf-8")))
            first = (doc or "").strip().split("\n\n")[0].replace("\n", " ").replace("|", "\\|")
            assert f"| `{name}` | {first} |" in text, f"gui/{folder}/{name}: line out of date"
