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


def _environment(
    platform: str, machine: str, python: str, implementation: str = "CPython"
) -> dict[str, str]:
    """A marker environment of another machine (what pip or uv evaluates there)."""
    from packaging.markers import default_environment

    environment: dict[str, str] = dict(default_environment())
    environment.update(
        sys_platform=platform,
        platform_machine=machine,
        python_version=python,
        python_full_version=f"{python}.0",
        platform_python_implementation=implementation,
        implementation_name=implementation.lower(),
    )
    return environment


def _requirements(environment: dict[str, str]) -> dict[str, str]:
    """{name: specifier} of the default install's requirements that apply in `environment`."""
    from packaging.requirements import Requirement

    found: dict[str, str] = {}
    for line in PYPROJECT["project"]["dependencies"]:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(environment):
            assert requirement.name not in found, f"{requirement.name} required twice here"
            found[requirement.name] = str(requirement.specifier)
    return found


NUMBA_WHEELS = {
    "Linux x86_64": ("linux", "x86_64", "3.13"),
    "Linux aarch64": ("linux", "aarch64", "3.11"),
    "Windows x64": ("win32", "AMD64", "3.12"),
    "macOS Apple silicon": ("darwin", "arm64", "3.13"),
}
NO_NUMBA_WHEELS = {
    "Windows ARM64, Python 3.11": ("win32", "ARM64", "3.11"),
    "32-bit Windows": ("win32", "x86", "3.12"),
    "Intel macOS, Python 3.14": ("darwin", "x86_64", "3.14"),
    "Linux armv7": ("linux", "armv7l", "3.12"),
    "Linux ppc64le": ("linux", "ppc64le", "3.12"),
}


def test_numba_is_required_only_where_it_publishes_wheels() -> None:
    """The markers in pyproject.toml (the built wheel's Requires-Dist is made from them):
    numba where its wheels exist, Intel Macs held to numba 0.62 (its last release for them),
    no numba elsewhere or on PyPy, and the rest of the dependencies everywhere."""
    for where, machine in NUMBA_WHEELS.items():
        found = _requirements(_environment(*machine))
        assert found.get("numba") == ">=0.60", where
    intel_mac = _requirements(_environment("darwin", "x86_64", "3.12"))
    assert set(intel_mac["numba"].split(",")) == {">=0.60", "<0.63"}
    for version in ("3.12", "3.13", "3.14"):  # numba 0.68's win_arm64 wheels
        assert _requirements(_environment("win32", "ARM64", version))["numba"] == ">=0.68"
    for where, machine in NO_NUMBA_WHEELS.items():
        assert "numba" not in _requirements(_environment(*machine)), where
    assert "numba" not in _requirements(_environment("linux", "x86_64", "3.12", "PyPy"))
    everywhere = {"pygame-ce", "pygame_gui", "rich", "platformdirs", "psutil", "bitbully-databases"}
    for machine in [*NUMBA_WHEELS.values(), *NO_NUMBA_WHEELS.values()]:
        assert everywhere <= set(_requirements(_environment(*machine))), machine


def test_windows_keeps_a_psutil_with_32_bit_wheels() -> None:
    """psutil 7.2 dropped 32-bit Windows wheels; a 32-bit Python on 64-bit Windows reports
    AMD64, so every Windows install stays below 7.2 (no compiler needed)."""
    for machine in ("AMD64", "x86", "ARM64"):
        specifier = _requirements(_environment("win32", machine, "3.12"))["psutil"]
        assert "<7.2" in specifier.split(","), machine


def test_the_build_declares_its_licences_the_pep_639_way() -> None:
    """An SPDX expression with the licence files (ours and the Inter font's OFL), a setuptools
    that understands them, bounded above, and no `wheel` in the build requirements."""
    project = PYPROJECT["project"]
    assert project["license"] == "MIT AND OFL-1.1"
    for name in project["license-files"]:
        assert (ROOT / name).is_file(), name
    assert "SIL OPEN FONT LICENSE Version 1.1" in (ROOT / "assets/fonts/OFL.txt").read_text(
        encoding="utf-8"
    )
    requires = PYPROJECT["build-system"]["requires"]
    assert requires == ["setuptools>=77.0.3,<85"]
    assert not any(
        classifier.startswith("License ::") for classifier in project["classifiers"]
    )  # PEP 639: the expression replaces licence classifiers


def test_the_index_page_has_no_link_into_a_checkout() -> None:
    """The package index shows `readme` (docs/PYPI.md): no relative links or images."""
    import re

    readme = PYPROJECT["project"]["readme"]
    text = (ROOT / readme).read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)]*)\)", text):
        assert target.startswith("https://"), target
    assert "checkout" not in text.lower() and ".venv" not in text


def test_the_window_has_a_gui_script_beside_the_console_script() -> None:
    """Windows runs a gui-script without a console window; the terminal keeps `plyground`."""
    assert PYPROJECT["project"]["scripts"] == {"plyground": "plyground.launcher:main"}
    assert PYPROJECT["project"]["gui-scripts"] == {
        "plyground-window": "plyground.launcher:window_main"
    }
