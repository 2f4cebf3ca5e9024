"""The entry points as an installed user meets them: `--version`, one line instead of an
invisible window where Linux has no display, and the console-less window on Windows."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

import plyground
from plyground import launcher

ROOT = Path(__file__).resolve().parents[1]


def test_version_is_a_terminal_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert launcher.main(["--version"]) == 0
    assert capsys.readouterr().out == f"plyground {plyground.__version__}\n"


@pytest.mark.slow
@pytest.mark.parametrize("command", [["-m", "plyground"], [str(ROOT / "main.py")]])
def test_version_prints_the_packages_version(command: list[str]) -> None:
    shown = subprocess.run(
        [sys.executable, *command, "--version"], capture_output=True, text=True, timeout=60
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == f"plyground {plyground.__version__}\n"


@pytest.mark.parametrize(
    ("environ", "platform", "no_display"),
    [
        ({}, "linux", True),
        ({"DISPLAY": ":0"}, "linux", False),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
        ({"SDL_VIDEODRIVER": "dummy"}, "linux", False),  # tests and screenshots
        ({"DISPLAY": ""}, "linux", True),
        ({}, "freebsd14", True),
        ({}, "win32", False),
        ({}, "darwin", False),
    ],
)
def test_a_display_is_looked_for_only_where_x11_or_wayland_provide_it(
    environ: dict[str, str], platform: str, no_display: bool
) -> None:
    assert launcher.has_no_display(environ, platform) is no_display


def test_without_a_display_the_window_says_so_in_one_line_and_stops(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An SSH session or WSL without WSLg: one line and status 2, not an invisible window."""
    for name in launcher.DISPLAY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setitem(sys.modules, "plyground.gui.app", None)  # the window is never opened
    assert launcher.main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no display" in err and "DISPLAY" in err


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux without a display")
def test_the_installed_command_ends_at_once_without_a_display() -> None:
    env = {key: value for key, value in os.environ.items() if key not in launcher.DISPLAY_VARIABLES}
    ended = subprocess.run(
        [sys.executable, "-m", "plyground"], capture_output=True, text=True, env=env, timeout=30
    )
    assert ended.returncode == 2 and ended.stdout == ""
    assert ended.stderr.count("\n") == 1 and "no display" in ended.stderr


def test_the_window_script_writes_its_messages_to_a_log_without_a_console(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`plyground-window` on Windows has no console (sys.stderr is None): its one line goes
    to plyground-window.log in the user's log folder."""
    log = io.StringIO()
    monkeypatch.setattr(sys, "stderr", None)
    monkeypatch.setattr(launcher, "_log_file", lambda: log)
    monkeypatch.setattr(launcher, "has_no_display", lambda: True)
    assert launcher.window_main() == 2
    assert sys.stderr is log and "no display" in log.getvalue()


def test_the_window_log_lives_in_the_users_log_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import platformdirs

    monkeypatch.setattr(platformdirs, "user_log_dir", lambda *a, **k: str(tmp_path / "logs"))
    with launcher._log_file() as log:
        log.write("a line\n")
    assert (tmp_path / "logs" / "plyground-window.log").read_text(encoding="utf-8") == "a line\n"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X displays are Linux's")
def test_a_display_that_does_not_answer_is_said_in_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=":77", XDG_RUNTIME_DIR=str(tmp_path), PLYGROUND_CONFIG_DIR=str(tmp_path))
    run = subprocess.run(
        [sys.executable, str(ROOT / "main.py")], capture_output=True, text=True, env=env, timeout=60
    )
    assert run.returncode == 2
    ours = [line for line in run.stderr.splitlines() if line.startswith("plyground:")]
    assert len(ours) == 1 and "DISPLAY=:77 does not answer" in ours[0]
    assert "Traceback" not in run.stderr
