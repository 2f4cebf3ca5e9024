"""Code that is not ours (a student's agent, heuristic or exercise) run in a worker process.

`StudentWorker(path, host, limits)` starts one process (`python -m plyground.ai.student_code.child`,
in its own session, inside bubblewrap where `ai.student_code.sandbox` says so) that loads
the student's file and answers requests; the two talk in JSON lines
(`ai.student_code.messages`), never pickle, and the parent checks every answer.  Whatever
the student's code does -- raise, loop forever, return garbage, print without end, allocate
without end, exit, kill, fork -- the parent gets one `UserCodeError`: one line naming the
file and the reason, and the student's own traceback lines (none of ours); the worker's
whole process group is ended with it.  The worker's memory is capped (soft and hard) where
the OS offers a cap (`resource.setrlimit` on POSIX, imported only in the worker).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import queue
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

from plyground.ai.student_code.endings import Evidence, judge
from plyground.ai.student_code.environment import worker_environment
from plyground.ai.student_code.messages import (
    MAX_LINE,
    MessageError,
    decode,
    encode,
    last_line,
    printable,
    worker_message,
)
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
        self.reason = printable(reason)  # the student's words are data: no control character
        self.details = tuple(printable(detail) for detail in details)
        self.setup = False
        """True when Plyground's own worker could not start here (a set-up problem: the
        sandbox, the Python): nothing of the file ran, and nobody is to blame for it."""
        self.void = False
        """True when something outside the student's code ended the worker (the rule:
        `ai.student_code.endings`): the game is void."""
        super().__init__(self.line)

    @property
    def line(self) -> str:
        """One line: "my_agent.py: raised ZeroDivisionError: division by zero"."""
        return f"{printable(Path(self.path).name)}: {self.reason}"

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
    try:
        result = float(value)  # type: ignore[arg-type]
    except (OverflowError, ValueError, TypeError):  # an integer of 4,000 digits, say
        raise Refusal(f"{what} returned {short_repr(value)}, not a finite number") from None
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
    """Mark this process as one whose searches may name a heuristic file (the window's AI
    worker, the Compare worker; their evaluations go to a worker of their own); elsewhere
    a search naming one is refused."""
    _ALLOWED[0] = True


def user_code_allowed() -> bool:
    """True in a process marked by `allow_user_code`."""
    return _ALLOWED[0]


# --------------------------------------------------------------------------- the user's file

MAX_SOURCE_BYTES = 2_000_000
"""A student's agent, heuristic or exercise file is source code: 2 MB is far beyond any."""


def resolve(path: str) -> Path:
    """The user's file as an absolute path; ValueError with one line unless it is a .py file
    that exists and can be read as text.  It is not parsed here: see `top_level_functions`."""
    file = Path(path).expanduser()
    if file.suffix.lower() != ".py":
        raise ValueError(f"{printable(path)}: not a Python file (.py)")
    if not file.exists():
        raise ValueError(f"{printable(path)}: no such file")
    try:
        source_text(file)
    except FileProblem as problem:  # not a regular file, too big, not UTF-8: one line
        raise ValueError(str(problem)) from None
    return file.resolve()


def source_text(file: Path) -> str:
    """The user's file's text through the one bounded reader (regular files only, at most
    `MAX_SOURCE_BYTES`, UTF-8 with or without a byte-order mark)."""
    return read_text(file, MAX_SOURCE_BYTES, "Python file")


class CheckFailed(ValueError):
    """Checking a file failed, one line; `error` says why, and whether a cause outside the
    file ended the check (`error.void`, the rule in `ai.student_code.endings`)."""

    def __init__(self, error: UserCodeError) -> None:
        super().__init__(error.line)
        self.error = error


INSPECT_SECONDS = 10.0
"""Seconds a worker may take to parse a file and list its functions."""


def top_level_functions(file: Path) -> list[str]:
    """The names of the functions the file defines at its top level, in order.

    The file is parsed in a worker of its own, never in the app, and nothing of it runs:
    a syntax error or a file too deeply nested to parse is one ValueError line
    (`CheckFailed`, which says whether a cause outside the file ended the check).
    """
    worker = StudentWorker(
        str(file), {"kind": "inspect", "path": str(file)}, Limits(INSPECT_SECONDS)
    )
    try:
        names = worker.call({}, what="to be read")
    except UserCodeError as error:
        raise CheckFailed(error) from None
    finally:
        worker.close()
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise ValueError(f"{file.name}: its reader sent something that is not a list of names")
    return names


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


class KeptOutput:
    """The student's sys.stdout / sys.stderr in the worker: the last OUTPUT_KEPT characters."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        """Keep the end of what was written."""
        self.text = (self.text + str(text))[-OUTPUT_KEPT:]
        return len(text)

    def flush(self) -> None:
        """Nothing to flush."""

    def last_lines(self, count: int = 3) -> tuple[str, ...]:
        """The last lines printed, for showing with an error."""
        lines = [line for line in self.text.splitlines() if line.strip()]
        return tuple(f"printed: {line[:120]}" for line in lines[-count:])


# --------------------------------------------------------------------------- the parent side


@dataclass(frozen=True, slots=True)
class Limits:
    """How long each answer may take and how much memory the worker may use."""

    seconds: float
    load_seconds: float = LOAD_SECONDS
    memory: int | None = None
    """Bytes; None: MEMORY_CAP as it is when the worker starts."""


Asker = Callable[[list[Any]], Any]
"""Answers a worker's question during a call (raises Refusal to refuse it)."""


@dataclass(frozen=True, slots=True)
class SupervisorReport:
    """A report of the supervisor's (ours, trusted): only the reader thread makes one, from a
    line the supervisor framed as its own, so no line of the worker's ever becomes one."""

    fields: dict[str, Any]


Incoming = dict[str, Any] | SupervisorReport | str | None
"""What the reader thread hands on: a worker's message (checked to be one of the protocol's
kinds), a supervisor's report, the reason the channel was refused, or None at its end."""

SUPERVISOR_LEAVES = 2.0
"""Seconds the app waits for a supervisor whose worker is gone to leave, to read its status."""


class StudentWorker:
    """One worker process for one student's file; `call(request)` answers or raises
    UserCodeError.

    `host` is the plain-data order the worker is built from (`ai.student_code.child`: its
    kind, the file, the function).  The process starts on the first call (so checking a
    spec starts nothing), in its own session, inside bubblewrap where the sandbox mode
    says so (`ai.student_code.sandbox`); it is ended with its whole process group by
    `close()`, after any failure but a plain refusal or exception, and when a time limit
    runs out.
    """

    def __init__(
        self, path: str, host: dict[str, Any], limits: Limits, sandboxed: bool | None = None
    ) -> None:
        self.path = path
        self.host = host
        self.limits = limits
        self.sandboxed = False
        self._sandbox_choice = sandboxed
        """None: the sandbox mode decides; True or False: the sandbox's own self-test."""
        self._started = False
        self._errors: Any = None
        self._process: subprocess.Popen[bytes] | None = None
        """The supervisor (`ai.student_code.supervisor`), which runs the student's worker."""
        self._worker_pid: int | None = None
        self._ended_code: int | None = None
        self._credit = threading.Semaphore(0)
        """Lines the worker may send now: one per answer due (`_send` grants them)."""
        self._messages: queue.Queue[Incoming] = queue.Queue()
        self._number = 0
        self._abandoned = False

    @property
    def pid(self) -> int | None:
        """The student's worker's process id while it runs (tests kill it from outside)."""
        return None if self._process is None else self._worker_pid

    @property
    def supervisor_pid(self) -> int | None:
        """The supervisor's process id while it runs."""
        return None if self._process is None else self._process.pid

    def _start(self) -> None:
        from plyground.ai.student_code.sandbox import (
            SandboxUnavailable,
            start_options,
            uses_bubblewrap,
        )

        if self._abandoned:
            raise UserCodeError(self.path, "abandoned (its run was given up)")
        try:
            choice = self._sandbox_choice
            self.sandboxed = uses_bubblewrap() if choice is None else choice
        except SandboxUnavailable as error:
            raise UserCodeError(self.path, str(error)) from None
        command, paths = self._command()
        home = "/tmp" if self.sandboxed else str(self._scratch)  # bubblewrap's own /tmp
        self._messages = queue.Queue()
        self._started = False
        self._worker_pid = self._ended_code = None
        self._credit = threading.Semaphore(0)
        # What Python itself says before the worker is up (it cannot find its library, the
        # sandbox hides a folder): kept to name a set-up problem.  Once up, the worker points
        # descriptor 2 at the null device, so the student's code never writes here.
        self._errors = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        try:
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._errors,
                cwd=tempfile.gettempdir(),
                env=worker_environment(home),  # nothing of the teacher's
                **start_options(),  # type: ignore[call-overload]
            )
        except OSError as error:  # no such program: the set-up, never the file
            self._setup = True
            self._fail(
                f"Plyground's worker could not start ({error.strerror or error}). "
                "This is a set-up problem, not this file: nothing of it ran"
            )
        if self._abandoned:  # given up from another thread while it started
            self._fail("abandoned (its run was given up)")
        reader = threading.Thread(
            target=_read_messages,
            args=(self._process.stdout, self._messages, self._credit),
            daemon=True,
            name="user-code-reader",
        )
        reader.start()
        order = {
            **self.host,
            "memory": self._memory,
            **paths,
        }
        self._send(order)
        self._wait(self.limits.load_seconds, "to load", None, None)

    def _command(self) -> tuple[list[str], dict[str, Any]]:
        """The supervisor's command line (which runs the worker in its scratch folder, with
        no folder of the app's on its path: ``-P``), and the order's paths: the folders the
        worker imports from, the games and their folders while they load, its Landlock rules."""
        from plyground.ai.student_code.sandbox import (
            file_rules,
            import_folders,
            worker_command,
        )
        from plyground.games.spawned import game_files, module_game_places, registered_games

        game_modules = [module for module, _ in registered_games()]
        files: tuple[Path, ...] = (Path(self.path),) if Path(self.path).is_file() else ()
        files += tuple(Path(path) for path in game_files())
        folders = import_folders(game_modules)
        places = module_game_places()
        files += tuple(Path(where) for _, where in places if Path(where).is_file())
        folders += [Path(where) for _, where in places if Path(where).is_dir()]
        command = worker_command(folders, self.sandboxed, files)
        # The supervisor makes it (and removes it when it leaves): an app killed at any
        # moment leaves no empty folder behind.
        self._scratch = str(
            Path(tempfile.gettempdir()) / f"plyground-worker-{secrets.token_hex(8)}"
        )
        rules: dict[str, Any] | None = None
        if not self.sandboxed and sys.platform.startswith("linux"):
            rules = file_rules(folders, files, self._scratch)
        self._memory = MEMORY_CAP if self.limits.memory is None else self.limits.memory
        supervisor = [sys.executable, "-P", str(Path(__file__).with_name("supervisor.py"))]
        paths = {
            "games": [list(pair) for pair in registered_games()],
            "sys_path": [str(folder) for folder in dict.fromkeys(import_folders(game_modules))],
            "game_roots": list(dict.fromkeys(root for root, _ in places)),
            "files": rules,
        }
        return [*supervisor, json.dumps(command), str(self._memory), self._scratch], paths

    def start(self) -> None:
        """Start the process and load the student's file now (else the first call does)."""
        if self._process is None:
            self._start()

    def call(
        self,
        request: dict[str, Any],
        seconds: float | None = None,
        asker: Asker | None = None,
        what: str = "for one move",
    ) -> Any:
        """The worker's answer to `request` within `seconds` (the limits' by default);
        `asker` answers the questions the worker asks meanwhile (the exercise's tree);
        `what` ends the message when the time runs out."""
        if self._process is None:
            self._start()
        limit = self.limits.seconds if seconds is None else seconds
        self._number += 1
        self._send({"call": request, "n": self._number})
        return self._wait(limit, what, asker, self._number)

    def _send(self, message: dict[str, Any]) -> None:
        """Write one message; each grants the worker the lines its answer takes (an order
        two: started, then ready or an error; a call or a reply one: an answer or a question)."""
        process = self._process
        assert process is not None and process.stdin is not None
        self._credit.release(2 if "kind" in message else 0 if "stop" in message else 1)
        # A write that fails means the supervisor is leaving: the reader thread then gets
        # its report of how the worker ended, and `_wait` judges by that, never by the race.
        with contextlib.suppress(OSError, ValueError):
            process.stdin.write(encode(message))
            process.stdin.flush()

    def _wait(self, seconds: float, what: str, asker: Asker | None, number: int | None) -> Any:
        deadline = time.monotonic() + seconds
        while True:
            try:
                message = self._messages.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self._fail(self._late(seconds, what))
            if message is None:
                self._fail(self._ended())
            if isinstance(message, str):
                self._fail(message)
            if isinstance(message, SupervisorReport):
                self._supervised(message.fields)
                continue
            if ("started" in message) == self._started:  # once, first, or not the protocol
                self._fail("sent a message that is not the protocol")
            if "started" in message:  # sent before any of the student's code ran: trusted
                self._started = True
                self._guarded = message.get("guarded") is True
                continue
            if number is not None and message.get("n") != number:
                continue  # an answer to an earlier call that ran out of time
            if "ask" in message and asker is not None and number is not None:
                self._reply(asker, message["ask"], number)
                continue
            if "ok" in message or "ready" in message:
                return message.get("ok")
            if "error" in message:
                details = message.get("details")
                lines = (
                    tuple(str(line)[:200] for line in details[:20])
                    if isinstance(details, list)
                    else ()
                )
                if number is None:  # the file failed to load: its worker has left; the next
                    self.close(kill=True)  # call starts a fresh one (and says the same)
                raise UserCodeError(self.path, str(message["error"])[:300], lines)
            self._fail("sent a message that is not the protocol")

    def _reply(self, asker: Asker, question: Any, number: int) -> None:
        if not isinstance(question, list):
            self._fail("sent a question that is not the protocol")
        try:
            self._send({"reply": asker(question), "n": number})
        except Refusal as refusal:
            self._send({"refuse": str(refusal), "n": number})

    def _supervised(self, report: dict[str, Any]) -> None:
        """A report of the supervisor's (ours: trusted): the worker's pid, its end, a cap."""
        if "pid" in report:
            pid = report["pid"]
            self._worker_pid = pid if isinstance(pid, int) and pid > 1 else None
        elif "memory" in report:
            megabytes = int(report["memory"]) >> 20
            self._fail(
                f"used {megabytes:,} MB of memory in all its processes and files (the cap: "
                f"{(self.limits.memory or MEMORY_CAP) >> 20:,} MB); it was stopped"
            )
        elif "too_long" in report:
            self._fail("sent a line longer than the protocol allows")
        elif "ended" in report:
            code = report["ended"]
            self._ended_code = code if isinstance(code, int) else None
            self._fail(self._ended())

    def _late(self, seconds: float, what: str) -> str:
        """Why no answer came in time: a supervisor found stopped (someone's SIGSTOP: the
        game is void, nobody to blame), else the student's code took too long."""
        process = self._process
        if process is not None and _is_stopped(process.pid):
            with contextlib.suppress(OSError):
                os.kill(process.pid, getattr(signal, "SIGCONT", signal.SIGTERM))
            return self._judged(self._evidence(supervisor_stopped=True))
        return f"took longer than {seconds:g} s{' ' + what if what else ''} (stopped)"

    def _ended(self) -> str:
        """Why the worker is gone, as a reason, judged by the one rule
        (`ai.student_code.endings`) from what Plyground itself saw: the supervisor's report
        of how the worker ended, and the app's own wait on the supervisor."""
        if self._abandoned:
            self.close(kill=True)
            return "abandoned (its run was given up)"
        status: int | None = None
        process = self._process
        if process is not None:  # it is leaving: its own status, read by the app
            with contextlib.suppress(subprocess.TimeoutExpired):
                status = process.wait(SUPERVISOR_LEAVES)
        return self._judged(self._evidence(supervisor_status=status))

    def _evidence(self, **seen: Any) -> Evidence:
        return Evidence(
            started=self._started,
            sandboxed=self.sandboxed,
            guarded=self._guarded,
            worker_code=self._ended_code,
            **seen,
        )

    def _judged(self, evidence: Evidence) -> str:
        """The rule's reason; the worker closed; the verdict kept for `_fail`."""
        verdict = judge(evidence, self._python_said())
        self.close(kill=True)
        self._void, self._setup = verdict.void, verdict.setup
        return verdict.reason

    _void = False
    _setup = False
    _guarded = False
    _memory = MEMORY_CAP
    _scratch: str | None = None
    """The worker's own folder, where it starts and, outside bubblewrap, writes (removed
    when it closes, and by the supervisor when it leaves)."""

    def _python_said(self) -> str:
        """The last line Python wrote before the worker was up (a set-up error), or ''."""
        errors = self._errors
        if errors is None:
            return ""
        try:
            errors.seek(0)
            return last_line(errors.read(8192).decode("utf-8", "replace"))
        except (OSError, ValueError):
            return ""

    def _fail(self, reason: str) -> NoReturn:
        void, setup = self._void, self._setup
        self._void = self._setup = False
        self.close(kill=True)
        error = UserCodeError(self.path, reason)
        error.void = void or setup
        error.setup = setup
        raise error

    def abandon(self) -> None:
        """Give the worker up from any thread: it is killed with its group at once, a call
        waiting on it fails with `UserCodeError`, and it never starts again."""
        self._abandoned = True
        self.close(kill=True)

    def close(self, kill: bool = False) -> None:
        """Stop the worker (asking first unless `kill`): closing the supervisor's input ends
        the worker's whole tree and the supervisor; one that does not go in time (stopped,
        say) is killed, with the worker's group.  Never blocks on the student's pipe: the
        reader thread owns the stream and closes it when it ends."""
        process, self._process = self._process, None
        if process is not None:
            self._end_supervisor(process, kill)
            if process.returncode != 0 and self._worker_pid is not None:
                # killed from outside, or by the app when it did not go: the worker went
                # with it, and what the worker started is ended here
                from plyground.ai.student_code.sandbox import end_session

                end_session(self._worker_pid)
        errors, self._errors = self._errors, None
        with contextlib.suppress(OSError, ValueError):
            if errors is not None:
                errors.close()
        scratch, self._scratch = self._scratch, None
        if scratch is not None:  # also where the supervisor never started
            import shutil

            shutil.rmtree(scratch, ignore_errors=True)

    def _end_supervisor(self, process: subprocess.Popen[bytes], kill: bool) -> None:
        """Ask the worker to stop (unless `kill`), close the supervisor's input and give it
        a moment to end the worker's tree and leave; else kill it (the app's own child: the
        app signals no process a worker could name).  A supervisor gone any other way takes
        its worker with it (`--die-with-parent`, a parent-death signal)."""
        from plyground.ai.student_code.sandbox import end_process_tree

        with contextlib.suppress(OSError, ValueError, AssertionError):
            assert process.stdin is not None
            if not kill and process.poll() is None:
                process.stdin.write(encode({"stop": True}))
                process.stdin.flush()
            process.stdin.close()  # the supervisor ends the worker's tree, then leaves
        try:
            process.wait(0.5 if not kill else 0.2)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):  # a stopped supervisor: continue it to die
                os.kill(process.pid, getattr(signal, "SIGCONT", signal.SIGTERM))
            end_process_tree(process)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter exit
            self.close(kill=True)


def _read_messages(
    stream: Any, messages: queue.Queue[Incoming], credit: threading.Semaphore
) -> None:
    """The reader thread: the supervisor's lines until the pipe closes; it owns the stream.

    A worker's line (``W``) is taken only while an answer is due (`credit`) and only as one
    of the protocol's kinds (`messages.worker_message`): one sent when none was asked for,
    anything else or a line too long ends the reading with the reason, so the app never
    holds more than the answers it asked for.  The supervisor's own reports (``S``) come as
    `SupervisorReport`s, a type no worker line is ever made into."""
    try:
        while True:
            line = stream.readline(MAX_LINE + 2)
            if not line:
                break
            if not line.endswith(b"\n"):
                messages.put("sent a line longer than the protocol allows")
                return
            if line.startswith(b"S"):
                with contextlib.suppress(MessageError, RecursionError):
                    messages.put(SupervisorReport(decode(line[1:])))
                continue
            if not credit.acquire(blocking=False):
                messages.put("sent messages when no answer was due (flooding its channel)")
                return
            try:
                messages.put(worker_message(line[1:]))
            except (MessageError, RecursionError) as error:
                messages.put(str(error))
                return
    except (OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(OSError, ValueError):
            stream.close()
    messages.put(None)


def _is_stopped(pid: int) -> bool:
    """Whether process `pid` is stopped (SIGSTOP); False where that cannot be told."""
    try:
        import psutil

        return bool(psutil.Process(pid).status() == psutil.STATUS_STOPPED)
    except Exception:
        return False
