"""Nothing Unix-only is imported at start-up: every module of the project imports in a
process where `resource` and `fcntl` do not exist (as on Windows)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    import importlib, importlib.abc, json, pkgutil, sys

    BLOCKED = {"resource", "fcntl"}

    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name in BLOCKED:
                raise ImportError(f"no module named {name!r} (blocked: not on Windows)")
            return None

    for name in BLOCKED:
        sys.modules.pop(name, None)
    sys.meta_path.insert(0, Blocker())

    names = ["main", "plyground"]
    root = importlib.import_module("plyground")
    names += [  # every module of the package (`python -m plyground`'s entry runs the app)
        info.name
        for info in pkgutil.walk_packages(root.__path__, prefix="plyground.")
        if info.name != "plyground.__main__"
    ]
    failed = {}
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as error:
            failed[name] = f"{type(error).__name__}: {error}"
    leaked = sorted(BLOCKED & set(sys.modules))
    print(json.dumps({"imported": names, "failed": failed, "leaked": leaked}))
    """
)


@pytest.mark.slow
def test_every_module_imports_without_resource_and_fcntl() -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
    }
    completed = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout.strip().splitlines()[-1])
    assert report["failed"] == {}
    assert report["leaked"] == []
    for name in (
        "main",
        "plyground.cli",
        "plyground.cli.args",
        "plyground.cli.analyze_command",
        "plyground.cli.rating_chart",
        "plyground.gui.app",
    ):
        assert name in report["imported"]


def test_memory_figures_without_resource(monkeypatch) -> None:
    """`match --verbose` still reports memory where `resource` is missing (peak 0)."""
    import builtins

    from plyground.cli import console

    real_import = builtins.__import__

    def no_resource(name: str, *args: object, **kwargs: object) -> object:
        if name == "resource":
            raise ImportError("no resource on this system")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_resource)
    current, peak = console.rss_megabytes()
    assert peak == 0.0 and current >= 0.0
    assert console.children_peak_megabytes() == 0.0
