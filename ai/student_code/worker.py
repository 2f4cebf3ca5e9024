"""Code that is not ours (a student's agent, heuristic or exercise) run in a worker process.

`Worker(host)` starts one "spawn" process that builds `host()` there (loading the user's
file) and then answers requests with `host(request)`; the parent waits at most a given
number of seconds for each answer.  Whatever the user's code does -- raise, loop forever,
return garbage, print without end, allocate without end, call `os._exit`, get killed --
the parent gets one `UserCodeError`: one line naming the file and the reason, and the
user's own traceback lines (none of ours).  The worker's memory is capped where the OS
offers a cap (`resource.setrlimit` on POSIX, imported only there).

This is isolation, not a security sandbox: the code runs with the user's own rights.
"""

from __future__ import annotations

import ast
import contextlib
import math
import multiprocessing
import os
import signal
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

from plyground.file_reader import FileProblem, read_text

MEMORY_CAP = 1 << 30
"""Bytes of address space a worker may use where the OS can cap it (POSIX)."""
LOAD_SECONDS = 20.0
"""Seconds a worker may take to start and load the user's file (imports included)."""
OUTPUT_KEPT = 2_000
"""Characters of the user's printed output kept (the last ones), to show with an error."""
FRAMES_SHOWN = 5
"""The user's innermost traceback lines shown with an error (a deep recursion has many)."""
SHOWN_REPR = 60
"""Characters of a bad return value shown in a message."""


class UserCodeError(Exception):
    """The user's code failed: `line` names the file and the reason; `details` are the
    user's own traceback lines (and the last output), for showing under the line."""

    def __init__(self, path: str, reason: str, details: tuple[str, ...] = ()) -> None:
        self.path = path
        self.reason = reason
        self.details = details
        super().__init__(self.line)

    @property
    def line(self) -> str:
        """One line: "my_agent.py: raised ZeroDivisionError: division by zero"."""
        return f"{Path(self.path).name}: {self.reason}"

    def report(self) -> list[str]:
        """The line and the user's traceback lines under it, indented."""
        return [self.line, *(f"    {detail}" for detail in self.details)]


class Refusal(Exception):
    """Raised by a host when the user's code answered, but wrongly (not a number, an
    illegal move): the message is the reason, with no traceback."""


def short_repr(value: object) -> str:
    """A bad value as a message shows it: its repr, cut to SHOWN_REPR characters."""
    try:
        text = repr(value)
    except Exception:  # a user's object whose __repr__ fails
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= SHOWN_REPR else text[: SHOWN_REPR - 3] + "..."


def check_number(value: object, what: str, bound: float | None = None) -> float:
    """`value` as a float if it is a finite real number (within +-bound), else `Refusal`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        number = getattr(value, "__float__", None)
        if number is None or isinstance(value, (str, bytes)):
            raise Refusal(f"{what} returned {short_repr(value)}, not a number")
    result = float(value)  # type: ignore[arg-type]
    if not math.isfinite(result):
        raise Refusal(f"{what} returned {result}, not a finite number")
    if bound is not None and abs(result) > bound:
        raise Refusal(
            f"{what} returned {result:g}; values must lie in [-{bound:g}, {bound:g}], like the "
            "built-in heuristics' (an estimate stays below a proven win): scale it down"
        )
    return result


_ALLOWED = [False]


def allow_user_code() -> None:
    """Mark this process as a worker where user code may run (the window's AI worker, the
    Compare worker, this module's workers); elsewhere a user file is refused."""
    _ALLOWED[0] = True


def user_code_allowed() -> bool:
    """True in a process marked by `allow_user_code`."""
    return _ALLOWED[0]


# --------------------------------------------------------------------------- the user's file

MAX_SOURCE_BYTES = 2_000_000
"""A student's agent, heuristic or exercise file is source code: 2 MB is far beyond any."""


def resolve(path: str) -> Path:
    """The user's file as an absolute path; ValueError with one line if it is not a .py file
    that exists and parses (checked without running any of it)."""
    file = Path(path).expanduser()
    if file.suffix.lower() != ".py":
        raise ValueError(f"{path}: not a Python file (.py)")
    if not file.exists():
        raise ValueError(f"{path}: no such file")
    try:
        ast.parse(source_text(file), filename=str(file))
    except SyntaxError as error:
        raise ValueError(f"{file.name}: syntax error on line {error.lineno}: {error.msg}") from None
    except FileProblem as problem:  # not a regular file, too big, not UTF-8: one line
        raise ValueError(str(problem)) from None
    return file.resolve()


def source_text(file: Path) -> str:
    """The user's file's text through the one bounded reader (regular files only, at most
    `MAX_SOURCE_BYTES`, UTF-8 with or without a byte-order mark)."""
    return read_text(file, MAX_SOURCE_BYTES, "Python file")


def top_level_functions(file: Path) -> list[str]:
    """The names of the functions the file defines at its top level, in order (not run)."""
    tree = ast.parse(source_text(file), filename=str(file))
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef)
    return [node.name for node in tree.body if isinstance(node, kinds)]


def require_function(file: Path, name: str | None) -> None:
    """ValueError unless the file defines `name` (None: any function) at its top level."""
    names = top_level_functions(file)
    if name is None and not names:
        raise ValueError(f"{file.name}: defines no function")
    if name is not None and name not in names:
        found = f"; it defines {', '.join(names)}" if names else ""
        raise ValueError(f"{file.name}: no function {name}(){found}")


_MODULES: dict[tuple[str, float], ModuleType] = {}


def load_module(file: Path) -> ModuleType:
    """Run the user's file as a module (once per process and file version): only in a worker."""
    key = (str(file), file.stat().st_mtime)
    module = _MODULES.get(key)
    if module is None:
        folder = str(file.parent)
        if folder not in sys.path:
            sys.path.insert(0, folder)  # the file's own helper modules import
        module = ModuleType(f"user_{file.stem}")
        module.__file__ = str(file)
        code = compile(source_text(file), str(file), "exec")
        exec(code, module.__dict__)
        _MODULES[key] = module
    return module


def user_frames(error: BaseException, file: str) -> tuple[str, ...]:
    """The traceback lines inside the user's file (the last frames first shown last)."""
    lines = []
    for frame in traceback.extract_tb(error.__traceback__):
        if Path(frame.filename).name == Path(file).name:
            code = f": {frame.line.strip()}" if frame.line else ""
            lines.append(f"line {frame.lineno}, in {frame.name}{code}")
    if len(lines) > FRAMES_SHOWN:
        hidden = len(lines) - FRAMES_SHOWN
        lines = [
            f"... {hidden} more line{'s' if hidden != 1 else ''} above",
            *lines[-FRAMES_SHOWN:],
        ]
    return tuple(lines)


def describe_exception(error: BaseException) -> str:
    """What the user's code raised, in a few words."""
    if isinstance(error, SystemExit):
        return f"called sys.exit({error.code!r})"
    if isinstance(error, MemoryError):
        return "ran out of memory (MemoryError)"
    if isinstance(error, RecursionError):
        return "recursed too deeply (RecursionError)"
    text = str(error)
    return f"raised {type(error).__name__}" + (f": {text}" if text else "")


# --------------------------------------------------------------------------- the worker side


class _KeptOutput:
    """The user's sys.stdout / sys.stderr: keeps the last OUTPUT_KEPT characters only."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text = (self.text + str(text))[-OUTPUT_KEPT:]
        return len(text)

    def flush(self) -> None:
        """Nothing to flush."""

    def last_lines(self, count: int = 3) -> tuple[str, ...]:
        """The last lines printed, for showing with an error."""
        lines = [line for line in self.text.splitlines() if line.strip()]
        return tuple(f"printed: {line[:120]}" for line in lines[-count:])


def _cap_memory(limit: int) -> None:
    """Cap this process's address space where the OS offers it (POSIX only)."""
    if limit <= 0:
        return
    try:
        import resource  # POSIX only: imported here, never at import time
    except ImportError:
        return
    try:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ValueError, OSError):
        pass  # some systems refuse: the time limit still holds


def _silence_descriptors() -> None:
    """Send anything written to the process's file descriptors 1 and 2 to the null device,
    so no amount of output from C code or os.write reaches the parent's terminal."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
    except OSError:
        pass


def _serve(connection: Any, host_factory: Callable[[], Any], memory: int, games_: Any) -> None:
    """The worker process: limits, the user's output kept aside, then request after request."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to handle
    from plyground.ai.players.spawned_games import register_games

    _leave_with_parent()
    allow_user_code()
    register_games(games_)
    _cap_memory(memory)
    _silence_descriptors()
    output = _KeptOutput()
    sys.stdout = sys.stderr = output
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 3000))
    path = str(getattr(host_factory, "path", "") or "")
    try:
        host = host_factory()
        connection.send(("ok", None))
    except BaseException as error:
        connection.send(_failure(error, path, output))
        return
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        try:
            answer = host(request)
        except BaseException as error:
            connection.send(_failure(error, path, output))
            continue
        try:
            connection.send(("ok", answer))
        except Exception as error:  # an answer that does not pickle: say so, stay alive
            why = f"answered with something that cannot be sent back ({type(error).__name__})"
            connection.send(("error", why, output.last_lines()))


def _leave_with_parent() -> None:
    """A thread that ends this process when its parent is gone (so a worker whose parent was
    killed, however busy the user's code keeps it, never lingers).  On Windows, where an
    orphan keeps its parent's id, the parent's exit handler stops its daemonic workers."""
    import threading
    import time

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.25)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def _failure(error: BaseException, path: str, output: _KeptOutput) -> tuple[Any, ...]:
    """The message a worker sends about a failure: reason and the user's lines."""
    if isinstance(error, Refusal):
        return ("error", str(error), output.last_lines())
    frames = user_frames(error, path) if path else ()
    return ("error", describe_exception(error), frames + output.last_lines())


# --------------------------------------------------------------------------- the parent side


@dataclass(frozen=True, slots=True)
class Limits:
    """How long each answer may take and how much memory the worker may use."""

    seconds: float
    load_seconds: float = LOAD_SECONDS
    memory: int | None = None
    """Bytes; None: MEMORY_CAP as it is when the worker starts."""


class Worker:
    """One worker process for one user file; `call(request)` answers or raises UserCodeError.

    The process starts on the first call (so checking a spec starts nothing) and is
    stopped by `close()`, after any failure but a plain refusal or exception, and when the
    worker's owner is collected.
    """

    def __init__(self, path: str, host_factory: Callable[[], Any], limits: Limits) -> None:
        self.path = path
        self.host_factory = host_factory
        self.limits = limits
        self._process: Any = None
        self._connection: Any = None

    @property
    def pid(self) -> int | None:
        """The worker's process id while it runs (tests kill it from outside)."""
        return None if self._process is None else int(self._process.pid)

    def _start(self) -> None:
        from plyground.ai.players.spawned_games import registered_games

        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        memory = MEMORY_CAP if self.limits.memory is None else self.limits.memory
        self._process = context.Process(
            target=_serve,
            args=(child, self.host_factory, memory, registered_games()),
            daemon=True,
            name="plyground-user-code",
        )
        # A match's pool workers and the window's AI worker are daemonic processes, which
        # multiprocessing forbids to have children because it cannot clean them up; this
        # child cleans itself up (`_leave_with_parent`), so the check is lifted while it starts.
        config: dict[str, Any] = multiprocessing.current_process()._config  # type: ignore[attr-defined]
        was_daemon = config.pop("daemon", None)
        try:
            self._process.start()
        finally:
            if was_daemon is not None:
                config["daemon"] = was_daemon
        child.close()
        self._connection = parent
        self._answer(self.limits.load_seconds, "to load")

    def start(self) -> None:
        """Start the process and load the user's file now (else the first call does)."""
        if self._process is None:
            self._start()

    def call(self, request: Any, seconds: float | None = None) -> Any:
        """The host's answer to `request` within `seconds` (the limits' by default)."""
        if self._process is None:
            self._start()
        limit = self.limits.seconds if seconds is None else seconds
        try:
            self._connection.send(request)
        except (OSError, ValueError):
            self._fail(self._ended())
        return self._answer(limit, "for one move" if seconds is None else "")

    def _answer(self, seconds: float, what: str) -> Any:
        try:
            ready = self._connection.poll(seconds)
        except (OSError, EOFError):
            ready = True
        if not ready:
            self.close(kill=True)
            self._fail(f"took longer than {seconds:g} s{' ' + what if what else ''} (stopped)")
        try:
            message = self._connection.recv()
        except (EOFError, OSError):
            self._fail(self._ended())
        except Exception as error:
            self.close(kill=True)
            self._fail(f"answered with something that cannot be read back ({error})")
        if message[0] == "ok":
            return message[1]
        raise UserCodeError(self.path, message[1], tuple(message[2]))

    def _ended(self) -> str:
        """Why the worker process is gone, as a reason."""
        process = self._process
        process.join(2)
        code = process.exitcode
        self.close(kill=True)
        if code is not None and code < 0:
            name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
            return f"its process was killed ({name})"
        return f"its process ended (exit code {code}: os._exit or a crash)"

    def _fail(self, reason: str) -> NoReturn:
        self.close(kill=True)
        raise UserCodeError(self.path, reason)

    def close(self, kill: bool = False) -> None:
        """Stop the worker (asking first unless `kill`)."""
        process, connection = self._process, self._connection
        self._process = self._connection = None
        if process is None:
            return
        if not kill:
            try:
                connection.send(None)
                process.join(0.5)
            except (OSError, ValueError):
                pass
        if process.is_alive():
            process.kill()
            process.join(2)
        connection.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter exit
            self.close(kill=True)
