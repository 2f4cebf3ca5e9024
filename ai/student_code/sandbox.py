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
import time
from pathlib import Path
from typing import Any

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


_PROBLEMS: dict[str, str] = {}
"""Per bwrap program: '' where the real worker starts and answers inside it, else why not."""
_WARNED: list[str] = []
SELF_TEST_SECONDS = 20.0
"""Seconds the self-test's worker may take to start inside bubblewrap and answer."""


def sandbox_problem() -> str | None:
    """None where bubblewrap is installed and Plyground's real worker starts inside it and
    answers one request; else the reason, one clause.  Tried once per process."""
    found = bubblewrap()
    if found is None:
        return (
            "bubblewrap exists only on Linux"
            if not sys.platform.startswith("linux")
            else ("bubblewrap (bwrap) is not installed")
        )
    if found not in _PROBLEMS:
        _PROBLEMS[found] = _self_test()
    return _PROBLEMS[found] or None


def _self_test() -> str:
    """Start the real worker inside bubblewrap (the package imported, one request answered);
    '' when it works, else why not."""
    from plyground.ai.student_code.messages import MessageError, decode, encode, last_line

    orders: list[dict[str, Any]] = [{"kind": "inspect"}, {"call": {}, "n": 1}, {"stop": True}]
    try:
        run = subprocess.run(
            worker_command([], True),
            input=b"".join(encode(order) for order in orders),
            capture_output=True,
            timeout=SELF_TEST_SECONDS,
            check=False,
            **start_options(),  # type: ignore[call-overload]
        )
    except subprocess.TimeoutExpired:
        return f"Plyground's worker did not answer within {SELF_TEST_SECONDS:g} s inside bubblewrap"
    except OSError as error:
        return f"bubblewrap could not be started ({error.strerror or error})"
    answers = []
    for line in run.stdout.splitlines()[:4]:
        with contextlib.suppress(MessageError):
            answers.append(decode(line))
    if any(answer.get("ok") == "ready" for answer in answers):
        return ""
    why = last_line(run.stderr.decode("utf-8", "replace")) or f"exit code {run.returncode}"
    return f"Plyground's worker could not start inside bubblewrap: {why}"


def bubblewrap_works() -> bool:
    """True when bwrap is installed and Plyground's worker runs inside it here (a container
    may forbid its namespaces; a folder it hides may keep Python from starting)."""
    return sandbox_problem() is None


def uses_bubblewrap() -> bool:
    """True when a worker started now runs inside bubblewrap.

    In ``auto`` mode, where bubblewrap is installed but the worker cannot start inside it,
    one warning line goes to standard error (once per process) and workers run without it.

    :raises SandboxUnavailable: the mode is ``required`` and bubblewrap is missing or
        cannot run here.
    """
    mode = sandbox_mode()
    if mode == "off":
        return False
    problem = sandbox_problem()
    if mode == "required" and problem is not None:
        raise SandboxUnavailable(require_message())
    if problem is not None and bubblewrap() is not None and not _WARNED:
        _WARNED.append(problem)
        print(fallback_message(problem), file=sys.stderr, flush=True)
    return problem is None


def fallback_message(problem: str) -> str:
    """The warning when ``auto`` runs students' code without the bubblewrap it found."""
    return (
        f"warning: students' code runs without bubblewrap: {problem} "
        "(a set-up problem, not the students' files; --sandbox off silences this)"
    )


def require_message() -> str:
    """The one line that refuses students' code when bubblewrap is required but missing."""
    if not sys.platform.startswith("linux"):
        where = "bubblewrap exists only on Linux"
    elif bubblewrap() is None:
        where = "on Linux install bubblewrap (bwrap)"
    else:
        where = f"bwrap is installed, but {sandbox_problem() or 'it cannot run here'}"
    return f"--sandbox required: no working bubblewrap here ({where}), or use --sandbox auto/off"


PACKAGES = ("plyground", "plyground.ai", "plyground.games", "plyground.assets")
"""Plyground's packages a worker imports from (each may lie elsewhere in an editable install)."""


def _package_folders(name: str) -> list[Path]:
    """Where package `name` is imported from: its folders as the import system finds them
    (an editable install's finder maps each to the checkout) and the real folders behind
    them (a strict editable install's links point into the checkout)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    folders = [Path(place) for place in spec.submodule_search_locations or ()]
    if spec.origin and Path(spec.origin).is_file():
        folders += [Path(spec.origin).parent, Path(spec.origin).resolve().parent]
    return folders


def runtime_folders() -> list[Path]:
    """The folders the worker's Python needs to start and import Plyground: the
    environment (`sys.prefix`, with its pyvenv.cfg), the Python it was made from
    (`sys.base_prefix`), the interpreter's own folder and Plyground's package folders
    (in an editable install, the checkout's folders the package is found in)."""
    places = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).parent}
    places.add(Path(sys.executable).resolve().parent)
    for name in PACKAGES:
        places.update(_package_folders(name))
    return sorted(place for place in places if place.is_dir())


def check_sandbox_available() -> None:
    """Raise SandboxUnavailable now (before any game) when the mode cannot be honoured."""
    uses_bubblewrap()


SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""The system's programs and libraries (read-only in the sandbox)."""
SYSTEM_FILES = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/alternatives",
    "/etc/passwd",
    "/etc/group",
    "/etc/nsswitch.conf",
)
"""What of /etc a Python needs: the loader's cache, the time zone, the user's name (never
/etc/shadow or the rest)."""
SCRATCH_BYTES = 64 << 20
"""The size of the sandbox's /tmp (a tmpfs: its pages are memory, so it is bounded)."""
SHARED_MEMORY_BYTES = 16 << 20
"""The size of the sandbox's /dev/shm (POSIX shared memory: a tmpfs, bounded the same way)."""


REFERENCE_PACKAGES = ("plyground.ai.textbook",)
REFERENCE_MODULES = (
    "plyground.ai.student_code.grader",
    "plyground.ai.student_code.mcts_grader",
)
"""Plyground's search reference, hidden from every worker (and refused to its imports:
`child.REFERENCE` is these): the textbook's package, the graders."""


def reference_paths() -> list[Path]:
    """Plyground's search reference on disk: the textbook's folder and the grader with its
    compiled forms, as imported and as the files they link to in an editable install
    (found without importing them)."""
    import importlib.util

    places: list[Path] = []
    for name in REFERENCE_PACKAGES:
        places += _package_folders(name)
    for name in REFERENCE_MODULES:
        with contextlib.suppress(ImportError, ValueError):
            spec = importlib.util.find_spec(name)
            if spec is not None and spec.origin:
                for source in (Path(spec.origin), Path(spec.origin).resolve()):
                    places.append(source)
                    places += source.parent.glob(f"__pycache__/{source.stem}.*.pyc")
    found: list[Path] = []
    for candidate in places:  # a link is hidden by hiding what it points to
        if candidate.exists() and not candidate.is_symlink() and candidate not in found:
            found.append(candidate)
    return found


def worker_command(folders: list[Path], sandboxed: bool, files: tuple[Path, ...] = ()) -> list[str]:
    """The command line of a worker: Python running CHILD_MODULE, inside bwrap if asked.

    Inside bubblewrap it sees only what it needs, read-only: the system's programs and
    libraries, a few files of /etc, its Python (`runtime_folders`), `folders` (where its
    packages and the games' modules are) and `files` (the student's own file, alone: not
    its folder, where a classmate's may lie); a scratch /tmp of `SCRATCH_BYTES`; no home,
    no network, its own PID namespace; Plyground's search reference hidden.  Python runs
    with ``-P``: no folder of the app's (where it was started) comes first on its path.
    """
    python = [sys.executable, "-P", "-m", CHILD_MODULE]
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
    ]
    for system in SYSTEM_FOLDERS:
        if Path(system).is_symlink():
            command += ["--symlink", os.readlink(system), system]
        elif Path(system).is_dir():
            command += ["--ro-bind", system, system]
    for name in SYSTEM_FILES:
        if Path(name).exists():
            command += ["--ro-bind", name, name]
    command += ["--dev", "/dev", "--size", str(SHARED_MEMORY_BYTES), "--tmpfs", "/dev/shm"]
    command += ["--remount-ro", "/dev", "--proc", "/proc"]  # its devices: no file to fill
    command += ["--size", str(SCRATCH_BYTES), "--tmpfs", "/tmp"]
    for place in outermost([*runtime_folders(), *folders]):
        command += ["--ro-bind", str(place), str(place)]
    for own in files:
        command += ["--ro-bind", str(own), str(own)]
    for hidden in reference_paths():
        command += (
            # empty and read-only: an unsized tmpfs would take memory outside every process
            ["--size", "4096", "--tmpfs", str(hidden), "--remount-ro", str(hidden)]
            if hidden.is_dir()
            else ["--ro-bind", "/dev/null", str(hidden)]
        )
    return [*command, "--chdir", "/tmp", "--setenv", "HOME", "/tmp", *python]


def file_rules(folders: list[Path], files: tuple[Path, ...], scratch: str) -> dict[str, Any]:
    """What a worker outside bubblewrap may reach on Linux (Landlock, applied in the worker:
    `confinement.restrict`): read the same places bubblewrap would show it but the search
    reference (allowed file by file around it), write only in `scratch`, its own folder."""
    readable = [*SYSTEM_FOLDERS, *SYSTEM_FILES, "/proc", "/dev/urandom", "/dev/random"]
    readable += [str(place) for place in [*runtime_folders(), *folders, *files]]
    hidden = [str(place) for place in reference_paths()]
    return {
        "readable": readable,
        "writable": [scratch, "/dev/null"],
        "hidden": hidden,
        "scratch": scratch,
    }


def import_folders(game_modules: list[str]) -> list[Path]:
    """The folders a worker imports from: the environment's packages (the entries of
    sys.path inside a Python prefix or a site-packages folder) and the folders of the
    games' modules (a game registered at run time, a test's); never the app's working
    folder as such."""
    prefixes = {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()}
    found: list[Path] = []
    for entry in sys.path:
        if not entry or not Path(entry).is_dir():
            continue
        path = Path(entry).resolve()
        packages = any(part in ("site-packages", "dist-packages") for part in path.parts)
        if packages or any(prefix in path.parents or prefix == path for prefix in prefixes):
            found.append(Path(entry))
    import importlib.util

    for name in game_modules:
        with contextlib.suppress(ImportError, ValueError, AttributeError):
            spec = importlib.util.find_spec(name)
            origin = spec.origin if spec is not None else None
            if origin and Path(origin).is_file():
                root = Path(origin).parent
                for _ in name.split(".")[1:]:  # the folder the top package lies in
                    root = root.parent
                found.append(root)
    return found


def outermost(folders: list[Path]) -> list[Path]:
    """The folders, each once, leaving out those inside another (bound with it already)."""
    unique = sorted({Path(folder) for folder in folders})
    return [f for f in unique if not any(o != f and o in f.parents for o in unique)]


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


def session_members(session: int) -> list[int]:
    """The live processes of session `session` but its leader, through /proc (Linux;
    elsewhere none).  A worker's tree cannot leave its session (the signal guard refuses
    ``setsid`` and ``setpgid``), and the number of a session with members is never given to
    a new process, so those found are the worker's own; its leader, which a reused number
    could name, is left out (it is the worker, killed with its supervisor)."""
    proc = Path("/proc")
    if session <= 1 or not proc.is_dir():
        return []
    found: list[int] = []
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == session:
            continue
        try:
            fields = (entry / "stat").read_text(encoding="ascii", errors="replace")
            state, _, _, sid = fields.rsplit(")", 1)[1].split()[:4]
        except (OSError, ValueError):
            continue
        if int(sid) == session and state != "Z":
            found.append(int(entry.name))
    return found


def end_session(session: int) -> None:
    """Kill every process of session `session` but its leader (`session_members`) until
    none is left: what a worker started, when its supervisor could not end it."""
    for _ in range(50):
        members = session_members(session)
        if not members:
            return
        for pid in members:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.02)


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
            if pid <= 1:  # never "every process" or init, whatever /proc said
                continue
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(5)
