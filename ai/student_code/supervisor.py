"""The supervisor: a small process of ours between the app and a student's worker.

The app starts it as a script (``python -P supervisor.py COMMAND MEMORY SCRATCH``: the
standard library and psutil only, no Plyground import, so it starts in a few hundredths of
a second); it makes the worker's scratch folder SCRATCH, where the worker starts, and
removes it when it leaves (also when the app was killed); it starts the worker (`COMMAND`,
a JSON list: Python running the worker, inside bubblewrap where the sandbox says so) in a
session of its own and stands between the two:

- the worker's parent is the supervisor, never the app: signalling ``os.getppid()``
  reaches this process, and the app's own waits all have deadlines;
- on Linux it is a child subreaper (``PR_SET_CHILD_SUBREAPER``), so a daemon the worker
  double-forks is reparented here and ended with everything else; it is not dumpable, so
  no process of the same user opens its pipes through /proc; on Windows the worker runs
  in a Job object that ends every process in it when the supervisor goes; on macOS its
  process group and the supervisor's own sweep of its descendants;
- a process of the worker's tree found stopped (SIGSTOP from anyone) is continued at once,
  so a stop costs nobody a timeout;
- the memory of the worker's whole tree (resident memory of every process, and the files
  of its scratch folder `SCRATCH` where it has one: on a tmpfs they are memory) is watched
  and capped: past `MEMORY` bytes the tree is ended;
- every line the worker writes is passed on prefixed ``W`` (a line over `MAX_LINE` ends
  the worker); the supervisor's own reports are prefixed ``S``, so the worker cannot forge
  them: ``S{"pid": N}`` once, then ``S{"memory": BYTES}`` if it capped the tree, and
  ``S{"ended": CODE}`` (a negative code: the signal that ended it) when the worker is gone;
- when the app closes its end (or goes), the worker's tree is ended and the supervisor
  leaves; on Linux the worker is killed when the supervisor goes, however it goes (a
  parent-death signal), so the app signals only its own child, the supervisor.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from typing import IO, Any

MAX_LINE = 1 << 20
"""The longest line a worker may write (the app refuses longer ones too)."""
WATCH_SECONDS = 0.05
"""How often the worker's tree is looked at (stopped processes, memory)."""
FOLDER_EVERY = 10
"""Every how many looks the scratch folder's files are counted too (a walk costs more)."""
FOLDER_ENTRIES = 10_000
"""Entries of the scratch folder counted one by one; each further one counts as a page."""
LINUX = sys.platform.startswith("linux")


def _prctl(option: int, value: int) -> None:
    """A Linux prctl(2) call through libc (nothing where it fails)."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)


PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36


def _die_with_supervisor() -> None:
    """In the worker, before it runs: killed when the supervisor goes, however it goes (so
    the app never has to signal a process it did not start)."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class _Output:
    """The pipe to the app, written from several threads, one whole line at a time."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.lock = threading.Lock()

    def send(self, prefix: bytes, line: bytes) -> None:
        with self.lock, contextlib.suppress(OSError, ValueError):
            self.stream.write(prefix + line)
            self.stream.flush()

    def report(self, message: dict[str, Any]) -> None:
        self.send(b"S", (json.dumps(message) + "\n").encode())


def _tree(pid: int) -> list[Any]:
    """The supervisor's descendants (psutil processes): the worker, what it started and,
    on Linux, every orphan reparented here."""
    try:
        import psutil

        return list(psutil.Process(pid).children(recursive=True))
    except Exception:  # psutil missing or the process gone: nothing to look at
        return []


def _reap(pid: int) -> None:
    """Collect an ended child's exit (POSIX: an orphan reparented here); nothing elsewhere."""
    no_hang = getattr(os, "WNOHANG", None)
    if no_hang is not None:
        with contextlib.suppress(OSError):
            os.waitpid(pid, no_hang)


def _is_zombie(process: Any) -> bool:
    """Whether a psutil process has ended and waits to be reaped (an orphan is reaped here)."""
    try:
        import psutil

        if process.status() != psutil.STATUS_ZOMBIE:
            return False
    except Exception:
        return True  # gone already
    _reap(process.pid)
    return True


def _end_tree(worker: subprocess.Popen[bytes]) -> None:
    """Kill the worker's group and every descendant of the supervisor, until none is left."""
    with contextlib.suppress(OSError):
        if os.name == "nt":
            worker.kill()
        else:
            os.killpg(worker.pid, signal.SIGKILL)
    for _ in range(50):
        worker.poll()  # reaps the worker once it is gone
        left = [process for process in _tree(os.getpid()) if not _is_zombie(process)]
        if not left:
            return
        for process in left:
            with contextlib.suppress(Exception):
                process.kill()
        for process in left:  # reap orphans reparented here (the worker: Popen reaps it)
            if process.pid != worker.pid:
                _reap(process.pid)
        time.sleep(0.02)


def _windows_job(worker: subprocess.Popen[bytes]) -> Any:
    """Put the worker in a Job object that kills everything in it when the supervisor's
    handle closes (Windows); None elsewhere or where it fails."""
    if os.name != "nt":
        return None
    try:
        import ctypes
        from ctypes import wintypes

        kernel = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
        job = kernel.CreateJobObjectW(None, None)
        if not job:
            return None

        class Limits(ctypes.Structure):
            _fields_ = [
                ("PerProcessUserTimeLimit", ctypes.c_int64),
                ("PerJobUserTimeLimit", ctypes.c_int64),
                ("LimitFlags", wintypes.DWORD),
                ("MinimumWorkingSetSize", ctypes.c_size_t),
                ("MaximumWorkingSetSize", ctypes.c_size_t),
                ("ActiveProcessLimit", wintypes.DWORD),
                ("Affinity", ctypes.c_size_t),
                ("PriorityClass", wintypes.DWORD),
                ("SchedulingClass", wintypes.DWORD),
            ]

        class IoCounters(ctypes.Structure):
            _fields_ = [(name, ctypes.c_uint64) for name in ("r", "w", "o", "rb", "wb", "ob")]

        class Extended(ctypes.Structure):
            _fields_ = [
                ("Basic", Limits),
                ("Io", IoCounters),
                ("ProcessMemoryLimit", ctypes.c_size_t),
                ("JobMemoryLimit", ctypes.c_size_t),
                ("PeakProcessMemoryUsed", ctypes.c_size_t),
                ("PeakJobMemoryUsed", ctypes.c_size_t),
            ]

        info = Extended()
        info.Basic.LimitFlags = 0x2000  # JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
        kernel.SetInformationJobObject(job, 9, ctypes.byref(info), ctypes.sizeof(info))
        kernel.AssignProcessToJobObject(job, int(worker._handle))  # type: ignore[attr-defined]
        return job
    except Exception:  # no Job object: the process group and the sweep remain
        return None


def _folder_bytes(folder: str, limit: int = FOLDER_ENTRIES) -> int:
    """The bytes the files below `folder` take (allocated blocks: a tmpfs's are memory); past
    `limit` entries each further one counts as a page, so a folder of a million empty files
    cannot hide what it holds behind a long walk."""
    total, seen, waiting = 0, 0, [folder]
    while waiting:
        with contextlib.suppress(OSError), os.scandir(waiting.pop()) as entries:
            for entry in entries:
                seen += 1
                if seen > limit:
                    total += 4096
                    continue
                with contextlib.suppress(OSError):
                    if entry.is_dir(follow_symlinks=False):
                        waiting.append(entry.path)
                    else:
                        info = entry.stat(follow_symlinks=False)
                        total += getattr(info, "st_blocks", 0) * 512 or info.st_size
    return total


def _watch(
    worker: subprocess.Popen[bytes],
    memory: int,
    out: _Output,
    done: threading.Event,
    scratch: str | None,
) -> None:
    """Continue a stopped process of the tree at once; end the tree past `memory` bytes
    (resident memory and, where it has one, its scratch folder's files)."""
    try:
        import psutil
    except ImportError:
        return
    tick, files = 0, 0
    while not done.wait(WATCH_SECONDS):
        if scratch is not None and tick % FOLDER_EVERY == 0:
            files = _folder_bytes(scratch)
        tick += 1
        total = files
        for process in _tree(os.getpid()):
            with contextlib.suppress(Exception):
                if process.status() == psutil.STATUS_STOPPED:
                    process.resume()
                total += process.memory_info().rss
        if memory > 0 and total > memory:
            out.report({"memory": total})
            _end_tree(worker)
            return


def _relay_in(source: IO[bytes], worker: subprocess.Popen[bytes], closed: threading.Event) -> None:
    """The app's lines to the worker; the app closing its end ends everything."""
    assert worker.stdin is not None
    try:
        for line in iter(source.readline, b""):
            worker.stdin.write(line)
            worker.stdin.flush()
    except (OSError, ValueError):
        pass
    closed.set()


def _relay_out(worker: subprocess.Popen[bytes], out: _Output, worker_gone: threading.Event) -> None:
    """The worker's lines to the app, each prefixed W; a line too long ends the worker."""
    assert worker.stdout is not None
    try:
        while True:
            line = worker.stdout.readline(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE or not line.endswith(b"\n"):
                out.report({"too_long": True})
                _end_tree(worker)
                break
            out.send(b"W", line)
    except (OSError, ValueError):
        pass
    worker_gone.set()


def _remove(scratch: str | None) -> None:
    """Remove the worker's scratch folder (this process started in it: leave it first)."""
    if not scratch:
        return
    import shutil

    with contextlib.suppress(OSError):
        os.chdir(os.path.dirname(scratch) or os.sep)
    shutil.rmtree(scratch, ignore_errors=True)


def main() -> None:
    """Start the worker, stand between it and the app, end its whole tree, leave."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the app's to handle
    command = json.loads(sys.argv[1])
    memory = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    scratch = sys.argv[3] if len(sys.argv) > 3 else None
    if LINUX:
        _prctl(PR_SET_CHILD_SUBREAPER, 1)
        _prctl(PR_SET_DUMPABLE, 0)
    out = _Output(os.fdopen(os.dup(1), "wb"))
    source = os.fdopen(os.dup(0), "rb")
    if scratch:  # made here, not by the app: an app killed before this leaves nothing behind
        try:
            os.mkdir(scratch, 0o700)
            os.chdir(scratch)
        except OSError as error:
            print(f"cannot make {scratch}: {error.strerror or error}", file=sys.stderr)
            out.report({"ended": 127})
            return
    options: dict[str, Any] = (
        {"creationflags": 0x200}  # CREATE_NEW_PROCESS_GROUP
        if os.name == "nt"
        else {"start_new_session": True}
    )
    if LINUX:  # no thread runs yet here, so a function before the worker's exec is safe
        options["preexec_fn"] = _die_with_supervisor
    try:
        worker = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True, **options
        )
    except OSError as error:
        print(f"cannot start {command[0]}: {error.strerror or error}", file=sys.stderr)
        out.report({"ended": 127})
        _remove(scratch)
        return
    job = _windows_job(worker)
    out.report({"pid": worker.pid})
    closed, worker_gone, done = threading.Event(), threading.Event(), threading.Event()
    threading.Thread(target=_relay_in, args=(source, worker, closed), daemon=True).start()
    threading.Thread(target=_relay_out, args=(worker, out, worker_gone), daemon=True).start()
    threading.Thread(target=_watch, args=(worker, memory, out, done, scratch), daemon=True).start()
    while worker.poll() is None and not closed.is_set():
        time.sleep(0.01)
    code = worker.poll()
    _end_tree(worker)  # its daemons too: then the pipe's last writer is gone
    worker_gone.wait(1.0)
    done.set()
    if code is None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            code = worker.wait(2)
    out.report({"ended": code})
    del job  # closing the Job object's handle ends whatever is left in it (Windows)
    _remove(scratch)  # also when the app was killed and cannot remove it
    os._exit(0)


if __name__ == "__main__":
    main()
