"""The README's set-up for each platform, the test command CI
runs, example commands that say they need the virtual environment, the licence, and one line
instead of a traceback when Plyground runs outside its environment."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from plyground import launcher

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    """The README's `## title` section."""
    start = README.index(f"## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end > 0 else None]


def test_ci_runs_the_readmes_linux_test_command() -> None:
    lines = [line for line in README.splitlines() if re.match(r"python3 -m venv \.venv && ", line)]
    game = [line for line in lines if "pytest" not in line]
    assert game == [
        "python3 -m venv .venv && .venv/bin/python -m pip install -q -U pip"  # pip < 22.1 has
        " && .venv/bin/pip install -e . --config-settings editable_mode=strict"  # no such option
        " && .venv/bin/plyground"
    ]
    assert all(".venv/bin/python -m pip install -q -U pip && " in line for line in lines)
    lines = [line for line in lines if "pytest" in line]
    assert len(lines) == 1
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = [
        line.replace('"$PYTHON"', "python3", 1)
        for line in ci
        if line.startswith('"$PYTHON" -m venv')
    ]
    assert commands == lines


def test_the_set_up_covers_windows_macos_and_linux() -> None:
    setup = section("Set-up")
    for needed in (
        "python3-venv",  # Debian and Ubuntu
        "python3.12 -m venv .venv",  # macOS: not the system's 3.9
        "brew install python@3.12",
        "py -3 -m venv .venv",  # Windows, PowerShell and cmd
        ".venv\\Scripts\\python -m pip install -e . --config-settings editable_mode=strict",
        ".venv\\Scripts\\Activate.ps1",
        ".venv\\Scripts\\activate.bat",
        "source .venv/bin/activate",
    ):
        assert needed in setup, needed
    windows = setup[setup.index("```bat") : setup.index("```", setup.index("```bat") + 3)]
    assert "&&" not in windows  # PowerShell 5.1 cannot parse it


def test_every_example_command_says_it_runs_in_the_virtual_environment() -> None:
    for title in re.findall(r"^## (.+)$", README, flags=re.MULTILINE):
        text = section(title)
        for block in re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL):
            commands = [
                line
                for line in block.splitlines()
                if re.match(r"(python main\.py|plyground) ", line)
            ]
            if commands:
                before = text[: text.index(block)]
                assert "virtual environment" in before + block, (title, commands[0])


def test_the_licence_is_mit_from_the_plyground_team() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Copyright (c) 2026 The Plyground team" in text


def test_outside_its_environment_it_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def missing(argv: object = None) -> int:
        raise ModuleNotFoundError("No module named 'pygame'", name="pygame")

    monkeypatch.setattr(launcher, "run", missing)
    assert launcher.main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'pygame' is not installed" in err and ".venv" in err

    def ours(argv: object = None) -> int:
        raise ModuleNotFoundError("No module named 'plyground.nothing'", name="plyground.nothing")

    monkeypatch.setattr(launcher, "run", ours)
    with pytest.raises(ModuleNotFoundError):
        launcher.main([])  # a missing module of our own is a bug: its traceback stays


def test_every_dependency_says_why_it_is_there() -> None:
    """Each package the install pulls in is named in "Dependencies: why each one"."""
    import tomllib

    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    why = section("Dependencies: why each one")
    names = {Requirement(line).name for line in project["dependencies"]}
    names |= {
        Requirement(line).name
        for extra in project["optional-dependencies"].values()
        for line in extra
    }
    for name in names:
        assert name in why, name


def test_the_readme_tells_an_installed_user_what_the_platform_needs() -> None:
    for needed in (
        "plyground-window",  # Windows: the window without a console
        "%LOCALAPPDATA%",  # where settings live on Windows
        "kaggle-environments",  # pygame-ce replaces its pygame
        '"plyground[cluster]"',  # the extra as an installed user names it
        "PLYGROUND_PURE_PYTHON=1",
        "without a display",
    ):
        assert needed in README, needed
