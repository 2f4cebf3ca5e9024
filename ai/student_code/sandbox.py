"""How a worker for students' code is started and ended: its own session, and bubblewrap.

The mode comes from the environment variable PLYGROUND_SANDBOX (so a match's pool processes
and the window's workers inherit what the command chose): ``auto`` (the default: bubblewrap
where it is installed on Linux, else a plain process), ``required`` (refuse to run students'
code without bubblewrap) or ``off`` (a plain process).  Inside bubblewrap the worker has its
own PID namespace (it cannot see or signal the app or another player, and everything it
starts dies with it), no network, and the file system read-only but for a scratch /tmp.

A plain process gets its own session and process group (a new process group on Windows),
so ending the worker ends everything it started that stayed in the group; on Linux the
parent also ends every descendant it can still find in /proc.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

SANDBOX_MODES = ("auto", "required", "off")
"""The values of --sandbox and PLYGROUND_SANDBOX."""
SANDBOX_VARIABLE = "PLYGROUND_SANDBOX"
"""The environment variable that carries the mode to every process of the app."""
CHILD_MODULE = "plyground.ai.student_code.child"
"""The module a worker runs (`python -m ...`)."""


class SandboxUnavailable(ValueError):
    """The mode is ``required`` and this machine has no bubblewrap: one line says so."""


def sandbox_mode() -> str:
    """The mode in force: PLYGROUND_SANDBOX, or ``auto`` when unset or unknown."""
    mode = os.environ.get(SANDBOX_VARIABLE, "auto").strip().lower()
    return mode if mode in SANDBOX_MODES else "auto"


def set_sandbox_mode(mode: str) -> None:
    """Choose the mode for this process and every process it starts (ValueError if unknown)."""
    if mode not in SANDBOX_MODES:
        raise ValueError(f"--sandbox {mode}: choose one of {', '.join(SANDBOX_MODES)}")
    os.environ[SANDBOX_VARIABLE] = mode


def bubblewrap() -> str | None:
    """The path of the bwrap program on Linux, or None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    return shutil.which("bwrap")


_WORKS: dict[str, bool] = {}


def bubblewrap_works() -> bool:
    """True when bwrap is installed and can make its namespaces here (a container may
    forbid them); tried once per process, with the options a worker gets."""
    found = bubblewrap()
    if found is None:
        return False
    if found not in _WORKS:
        quick = shutil.which("true")
        program = [quick] if quick else [sys.executable, "-c", "pass"]
        command = [*worker_command([], True)[:-3], *program]
        try:
            finished = subprocess.run(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=20,
                check=False,
            )
            _WORKS[found] = finished.returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            _WORKS[found] = False
    return _WORKS[found]


def uses_bubblewrap() -> bool:
    """True when a worker started now runs inside bubblewrap.

    :raises SandboxUnavailable: the mode is ``required`` and bubblewrap is missing or
        cannot run here.
    """
    mode = sandbox_mode()
    if mode == "off":
        return False
    works = bubblewrap_works()
    if mode == "required" and not works:
        raise SandboxUnavailable(require_message())
    return works


def require_message() -> str:
    """The one line that refuses students' code when bubblewrap is required but missing."""
    if not sys.platform.startswith("linux"):
        where = "bubblewrap exists only on Linux"
    elif bubblewrap() is None:
        where = "on Linux install bubblewrap (bwrap)"
    else:
        where = "bwrap is installed but cannot create its namespaces here"
    return f"--sandbox required: no bubblewrap here ({where}), or use --sandbox auto/off"


def check_sandbox_available() -> None:
    """Raise SandboxUnavailable now (before any game) when the mode cannot be honoured."""
    uses_bubblewrap()


def worker_command(folders: list[Path], sandboxed: bool) -> list[str]:
    """The command line of a worker: Python running CHILD_MODULE, inside bwrap if asked.

    `folders` are made readable inside the sandbox even where the scratch /tmp hides them
    (the student's file's folder may lie under /tmp).
    """
    python = [sys.executable, "-m", CHILD_MODULE]
    if not sandboxed:
        return python
    bwrap = bubblewrap() or "bwrap"
    command = [
        bwrap,
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--tmpfs",
        "/tmp",
    ]
    for folder in folders:
        text = str(folder)
        command += ["--ro-bind", text, text]
    return [*command, "--chdir", "/tmp", "--setenv", "HOME", "/tmp", *python]


def start_options() -> dict[str, object]:
    """Popen arguments that give the worker its own session (process group on Windows)."""
    if os.name == "nt":
        return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}
    return {"start_new_session": True}


def descendants(pid: int) -> list[int]:
    """The process ids below `pid`, found through /proc (Linux; elsewhere none)."""
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    children: dict[int, list[int]] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text(encoding="ascii", errors="replace")
            parent = int(text.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    waiting = [pid]
    while waiting:
        for child in children.get(waiting.pop(), []):
            found.append(child)
            waiting.append(child)
    return found


def end_process_tree(process: subprocess.Popen[bytes], known: list[int] | None = None) -> None:
    """Kill the worker, its process group, `known` descendants (found while it still ran)
    and every descendant still found; reap it."""
    if os.name == "nt":
        process.kill()
    else:
        found = [*(known or []), *descendants(process.pid)]
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        for pid in [process.pid, *found, *descendants(process.pid)]:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(5)
