"""Load a game from a file in a process of its own and say whether it works, as one JSON line.

``python -m plyground.games.from_file.check SPEC [OPTIONS]`` prints ``{"name": ..., "title":
...}`` or ``{"error": "<one line>"}`` (OPTIONS: the game's options as a Python literal, ``{"size":
(3, 3)}``).  The window and the terminal commands run it (`CheckProcess`, `check_apart`) before
they load a game into their own process, so a file that loops, crashes Python or takes minutes
to import or to be probed costs that process only, and they say so in one line.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

CHECK_SECONDS = 30.0
"""The longest a game file may take to load and be probed before it is given up."""


def check(spec: str, options: dict[str, Any] | None = None) -> dict[str, str]:
    """Load `spec` here with `options` (probe included); its name and title, or the error's
    one line."""
    from plyground import games
    from plyground.games.from_file import GameCodeError
    from plyground.games.from_file.guard import describe_error, watch

    watch()
    options = dict(options or {})
    try:
        name = games.resolve(spec, options)
        game = games.get_game(name, **options)
        state = game.initial_state()
        state.legal_moves()
        game.render(state)
    except (GameCodeError, ValueError) as error:
        return {"error": str(error)}
    except Exception as error:
        return {"error": f"{spec}: {describe_error(error)}"}
    return {"name": name, "title": str(game.title)}


class CheckProcess:
    """`check` of one game in a child process, polled without blocking (`poll`)."""

    def __init__(self, spec: str, options: dict[str, Any] | None = None) -> None:
        self.spec = spec
        self.started = time.monotonic()
        command = [sys.executable, "-m", "plyground.games.from_file.check", spec]
        if options:
            command.append(repr(dict(options)))
        # The app's own import path (its modules' folders, where a MODULE:CLASS game is
        # found), since Python started with PYTHONSAFEPATH puts no working folder first.
        path = os.pathsep.join(entry for entry in sys.path if entry)
        self.process: subprocess.Popen[str] | None = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            errors="replace",
            env={**os.environ, "PYTHONPATH": path},
        )

    def cancel(self) -> None:
        """Stop the check (if it still runs)."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            with contextlib.suppress(OSError):
                process.kill()
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                process.wait(timeout=2)

    def poll(self, seconds: float = CHECK_SECONDS) -> dict[str, str] | None:
        """The outcome once the check has ended (as `check` answers), None while it runs; a
        check running longer than `seconds` is stopped and answers that it took too long."""
        process = self.process
        if process is None:
            return {"error": f"{self._shown()}: its check was stopped"}
        if process.poll() is None:
            if time.monotonic() - self.started < seconds:
                return None
            self.cancel()
            return {
                "error": f"{self._shown()}: it took longer than {seconds:g} s to load "
                "(does it loop forever?)"
            }
        self.process = None
        output = process.stdout.read() if process.stdout is not None else ""
        lines = [line for line in output.splitlines() if line.startswith("{")]
        try:
            answer = json.loads(lines[-1])
        except (IndexError, ValueError):
            return {
                "error": f"{self._shown()}: loading it ended Python "
                f"(exit status {process.returncode})"
            }
        return {str(key): str(value) for key, value in dict(answer).items()}

    def wait(self, seconds: float = CHECK_SECONDS) -> dict[str, str]:
        """The outcome, waiting for it at most `seconds`."""
        while True:
            outcome = self.poll(seconds)
            if outcome is not None:
                return outcome
            time.sleep(0.02)

    def _shown(self) -> str:
        """The game's file (or module) as messages name it."""
        return Path(self.spec).name or self.spec


def check_apart(
    spec: str, options: dict[str, Any] | None = None, seconds: float | None = None
) -> dict[str, str]:
    """`check(spec, options)` in a process of its own, waiting at most `seconds`
    (`CHECK_SECONDS` if None)."""
    process = CheckProcess(spec, options)
    try:
        return process.wait(CHECK_SECONDS if seconds is None else seconds)
    finally:
        process.cancel()


def main() -> int:
    """The command: the spec, and the options as a Python literal (a dict) if any."""
    if len(sys.argv) not in (2, 3):
        print(json.dumps({"error": "usage: check SPEC [OPTIONS]"}))
        return 2
    try:
        options = ast.literal_eval(sys.argv[2]) if len(sys.argv) == 3 else {}
    except (ValueError, SyntaxError):
        options = None
    if not isinstance(options, dict):
        print(json.dumps({"error": f"options {sys.argv[2]!r} are not a dictionary"}))
        return 2
    answer = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):  # what the game prints is not the answer
        outcome = check(sys.argv[1], options)
    print(json.dumps(outcome), file=answer, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
