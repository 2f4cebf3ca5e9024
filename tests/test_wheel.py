"""The installed distribution puts one import package, `plyground`, at the top level.

The wheel is built from this checkout, its file list is read, and it is installed into a
fresh virtual environment and run from another folder: the command, `python -m plyground`
and `from plyground import games, ai` all work there, with no checkout on the path.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from tracked_files import copy_tracked_files

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # Built from a copy of what git tracks (tests/tracked_files.py says why).
    source = tmp_path_factory.mktemp("source")
    copy_tracked_files(source)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)],
        check=True,
        timeout=600,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    (found,) = out.glob("plyground-*.whl")
    return found


def test_the_wheel_has_only_plyground_at_its_top_level(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    top = {name.split("/")[0] for name in names}
    dist_info = {name for name in top if name.endswith(".dist-info")}
    assert top - dist_info == {"plyground"}
    assert len(dist_info) == 1
    for expected in (
        "plyground/__init__.py",
        "plyground/launcher.py",
        "plyground/ai/engine/search.py",
        "plyground/games/connect4/rules.py",
        "plyground/gui/app.py",
        "plyground/gui/theme.json",
        "plyground/cli/analyze_command.py",
        "plyground/assets/fonts/Inter-Regular.otf",
        "plyground/assets/sounds/click.wav",
        "plyground/assets/pig_optimal_100.bin",
        "plyground/games/connect4/data/Test_L3_R1.txt",
        "plyground/ai/textbook/README.md",  # where the README sends learners
    ):
        assert expected in names, expected
    assert not any(name.startswith(("plyground/tests", "tests/")) for name in names)
    assert not any("rebuild" in name or "/build_" in name for name in names)  # source only


def test_the_installed_wheel_runs_from_another_folder(wheel: Path, tmp_path: Path) -> None:
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=True)
    bin_dir = environment / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / ("python.exe" if os.name == "nt" else "python")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(wheel)], check=True, env=env, timeout=900
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = (
        "import plyground, plyground.games as g, plyground.ai as a, plyground.gui.theme as t;"
        "print(plyground.__file__); print(g.get_game('tictactoe').title);"
        "print(t.FONT_DIR.is_dir())"
    )
    shown = subprocess.run(
        [str(python), "-c", probe], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert shown.returncode == 0, shown.stderr
    where, title, fonts = shown.stdout.split("\n")[:3]
    assert str(ROOT) not in where and "site-packages" in where
    assert title == "Tic-tac-toe" and fonts == "True"
    command = bin_dir / ("plyground.exe" if os.name == "nt" else "plyground")
    analyzed = subprocess.run(
        [str(command), "analyze", "--game", "tictactoe", "--moves", "15", "--depth", "2"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert analyzed.returncode == 0, analyzed.stderr
    assert "Tic-tac-toe" in analyzed.stdout
    module = subprocess.run(
        [str(python), "-m", "plyground", "--help"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert module.returncode == 0, module.stderr


def test_the_installed_package_is_never_written_to_at_run_time(wheel: Path, tmp_path: Path) -> None:
    """A solve on the compiled solver caches numba's machine code in the user's cache folder;
    nothing new appears under site-packages/plyground (a system-wide install stays read-only
    and a virtual environment stays as pip left it). Both scripts are installed and say the
    version."""
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=True)
    bin_dir = environment / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / ("python.exe" if os.name == "nt" else "python")
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "NUMBA_CACHE_DIR", "PYTHONDONTWRITEBYTECODE"}
    }
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(wheel)], check=True, env=env, timeout=900
    )
    where = subprocess.run(
        [
            str(python),
            "-c",
            "import plyground, pathlib; print(pathlib.Path(plyground.__file__).parent)",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.strip()
    package = Path(where)
    before = sorted(path.relative_to(package) for path in package.rglob("*"))
    command = bin_dir / ("plyground.exe" if os.name == "nt" else "plyground")
    version = subprocess.run(
        [str(command), "--version"], capture_output=True, text=True, env=env, timeout=120
    )
    assert version.returncode == 0 and version.stdout.startswith("plyground "), version.stderr
    assert (bin_dir / ("plyground-window.exe" if os.name == "nt" else "plyground-window")).exists()
    solved = subprocess.run(
        [
            str(command),
            "analyze",
            "--game",
            "connect4",
            "--moves",
            "2252576253462244111563365343671351441",
            "--depth",
            "solve",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert solved.returncode == 0, solved.stderr
    after = sorted(path.relative_to(package) for path in package.rglob("*"))
    assert after == before
    has_numba = subprocess.run([str(python), "-c", "import numba"], env=env).returncode == 0
    if has_numba:  # the compiled solver ran and cached its code in the user's cache folder
        assert "compiled (numba" in solved.stdout, solved.stdout
        assert any((tmp_path / "cache" / "plyground" / "numba").rglob("*.nbi"))
