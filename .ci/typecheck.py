"""Run mypy on the `plyground` package as the wheel lays it out, and report repository paths.

The repository keeps ai/, games/, gui/, cli/ and assets/ at the top and the wheel maps them
under `plyground` (pyproject's package-dir); mypy cannot follow that mapping, so this builds
the installed layout in a temporary folder (links, or copies where links are not allowed) and
checks it there. Usage: python .ci/typecheck.py   (the same settings as pyproject's [tool.mypy]).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAPPED = ("ai", "games", "gui", "cli", "assets")


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        target.symlink_to(source, target_is_directory=source.is_dir())
    except OSError:  # Windows without the right to make links
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="plyground-typecheck-") as temp:
        package = Path(temp) / "plyground"
        package.mkdir()
        for entry in (ROOT / "plyground").iterdir():
            if entry.name != "__pycache__":
                _link_or_copy(entry, package / entry.name)
        for name in MAPPED:
            _link_or_copy(ROOT / name, package / name)
        command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")]
        command += ["--cache-dir", str(ROOT / ".mypy_cache"), "-p", "plyground"]
        done = subprocess.run(command, cwd=temp, capture_output=True, text=True, check=False)
        output = done.stdout + done.stderr
        for name in MAPPED:
            output = output.replace(f"plyground{os.sep}{name}{os.sep}", f"{name}{os.sep}")
        print(output, end="")
        return done.returncode


if __name__ == "__main__":
    sys.exit(main())
