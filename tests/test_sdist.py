"""The source distribution is complete: unpacked and installed in a fresh virtual
environment, its own tests are collected without an error (tests/, their conftest files,
main.py, the docs and .ci/run the tests read are all in it)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
import venv
from pathlib import Path

import pytest
from tracked_files import copy_tracked_files

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist built with `python -m build --sdist` from a copy of what git tracks."""
    out = tmp_path_factory.mktemp("sdist")
    source = tmp_path_factory.mktemp("source")
    copy_tracked_files(source)
    built = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(out), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    assert "deprecat" not in (built.stdout + built.stderr).lower()
    (found,) = out.glob("plyground-*.tar.gz")
    return found


def unpack(archive_path: Path, folder: Path) -> None:
    """Unpack our own sdist: with tarfile's "data" filter where this Python has it (3.11.4
    and newer), else checking each member stays inside `folder` (3.11.0-3.11.3)."""
    with tarfile.open(archive_path) as archive:
        if hasattr(tarfile, "data_filter"):
            archive.extractall(folder, filter="data")
            return
        root = folder.resolve()
        for member in archive.getmembers():
            target = (folder / member.name).resolve()
            assert root in target.parents, member.name
            assert member.isfile() or member.isdir(), member.name
        archive.extractall(folder)  # every member checked above


def test_the_unpacked_sdist_installs_and_collects_its_tests(sdist: Path, tmp_path: Path) -> None:
    unpack(sdist, tmp_path)
    (unpacked,) = tmp_path.glob("plyground-*")
    for needed in (
        "tests/conftest.py",
        "tests/gui/conftest.py",
        "main.py",
        "README.md",
        "docs/API.md",
        ".ci/run",
        "LICENSE",
        "assets/fonts/OFL.txt",
        "assets/rebuild/pig_table.py",
        "ai/textbook/README.md",
    ):
        assert (unpacked / needed).is_file(), needed
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=True)
    bin_dir = environment / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / ("python.exe" if os.name == "nt" else "python")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", str(unpacked)],
        check=True,
        env=env,
        timeout=900,
    )
    # The dependencies and pytest come from this environment's site-packages (a path, not its
    # .pth files: this checkout's editable plyground stays out).
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout.strip()
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    collected = subprocess.run(
        [str(python), "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=unpacked,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
    assert "error" not in collected.stdout.lower().splitlines()[-1]
    where = subprocess.run(
        [str(python), "-c", "import plyground; print(plyground.__file__)"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=unpacked,
    ).stdout
    assert str(ROOT) not in where and str(site) in where
