"""The package as tools see it: every folder is a listed package, no module leaks outside
`plyground`, and nothing extends a package's path at run time."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_folder_with_an_init_is_a_listed_package() -> None:
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = {"plyground"}
    for top in ("ai", "games", "gui", "cli", "assets"):
        for init in (ROOT / top).rglob("__init__.py"):
            found.add("plyground." + ".".join(init.parent.relative_to(ROOT).parts))
    assert found == listed


def test_no_module_outside_the_layout_is_importable_under_plyground() -> None:
    for leaked in ("plyground.main", "plyground.tests", "plyground.plyground", "plyground.package"):
        assert importlib.util.find_spec(leaked) is None, leaked


def test_nothing_extends_a_package_path() -> None:
    for path in ROOT.glob("*/**/*.py"):
        if path.parts[len(ROOT.parts)] in {".venv", "build", "tests", ".git"}:
            continue
        assert "__path__.append" not in path.read_text(encoding="utf-8"), path
