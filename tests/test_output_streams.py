"""Standard output that fails or cannot encode: degrade or one line.

/dev/full, a closed stdout, a pipe closed early (`| head -c 10`), PYTHONIOENCODING=ascii and
LANG=C: ASCII stand-ins (▲ -> ^, … -> ...) or one line, never "internal error"; every
command's --help examples run with an ASCII-only stdout.
"""

from __future__ import annotations

import io
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import exercise_solutions
import pytest

import main
from plyground.cli import COMMANDS, streams

ROOT = Path(__file__).resolve().parent.parent
needs_dev_full = pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
posix_only = pytest.mark.skipif(os.name != "posix", reason="shell redirections")


def shell(command: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python main.py ...` through a POSIX shell (for >&-, > /dev/full and | head)."""
    environment = {**os.environ, "PYTHONUTF8": "0", **env}
    if "PYTHONIOENCODING" not in env:
        environment.pop("PYTHONIOENCODING", None)
    return subprocess.run(
        ["/bin/sh", "-c", f"{shlex.quote(sys.executable)} main.py {command}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
        check=False,
    )


def test_stand_ins_cover_the_reports_characters():
    assert streams.ascii_of("▲ ▼ ○ ■ … ≤ α β · é") == "^ v o # ... <= alpha beta - e"
    assert "▲…".encode("ascii", errors=streams.ERRORS) == b"^..."
    assert streams.can_encode(io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    assert not streams.can_encode(io.TextIOWrapper(io.BytesIO(), encoding="cp1252"))


@posix_only
@needs_dev_full
@pytest.mark.parametrize(
    "command", ["analyze --game connect4 --moves 44 --depth 2", "trace --lesson 1"]
)
def test_a_full_disk_is_one_line(command):
    done = shell(f"{command} > /dev/full")
    assert done.returncode == 1
    assert done.stderr.strip() == "plyground: cannot write the output: No space left on device"


@posix_only
def test_a_closed_stdout_still_writes_the_files(tmp_path):
    out = tmp_path / "rows.json"
    done = shell(f"compare --game tictactoe --moves 5394 --depth 1-2 --json {out} >&-")
    assert done.returncode == 0, done.stderr
    assert "standard output is closed" in done.stderr and "internal error" not in done.stderr
    assert json.loads(out.read_text())["rows"]


@pytest.mark.slow
@posix_only
@pytest.mark.parametrize(
    "command",
    [
        "compare --game tictactoe --moves 5394 --depth 1-4",
        "analyze --game connect4 --moves 44 --depth 2",
        "trace --lesson 1",
        "match --help",
        "trace --game tictactoe --depth 9",  # 600 KB: more than a pipe holds, so EPIPE
    ],
)
def test_a_reader_that_stops_early_ends_quietly(command):
    """What `| head -c 10` does: read ten bytes, close the pipe; the writer ends with 0."""
    writer = subprocess.Popen(
        [sys.executable, "main.py", *shlex.split(command)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert writer.stdout is not None and writer.stderr is not None
    assert len(writer.stdout.read(10)) == 10
    writer.stdout.close()
    error = writer.stderr.read()
    assert writer.wait(timeout=120) == 0 and error == b""


@pytest.mark.slow
@posix_only
@pytest.mark.parametrize(
    "env", [{"PYTHONIOENCODING": "ascii"}, {"LANG": "C", "LC_ALL": "C", "PYTHONCOERCECLOCALE": "0"}]
)
@pytest.mark.parametrize(
    "command", ["trace --lesson 1", "analyze --game connect4 --moves 44 --depth 2"]
)
def test_a_console_without_unicode_gets_stand_ins(env, command):
    done = shell(command, **env)
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr and done.stdout.isascii()


def test_every_commands_help_runs_with_an_ascii_console(monkeypatch, capsys):
    for command in COMMANDS:
        name = command.__name__.rpartition(".")[2].removesuffix("_command").replace("_", "-")
        out = ascii_stdout(monkeypatch)
        assert main.main([name, "--help"]) == 0
        assert out.buffer.getvalue().isascii() and b"examples" in out.buffer.getvalue()


def ascii_stdout(monkeypatch) -> io.TextIOWrapper:
    """A stdout that can only write ASCII (what PYTHONIOENCODING=ascii gives)."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii", write_through=True)
    monkeypatch.setattr(sys, "stdout", out)
    return out


CHEAP = {"--games": "2", "--depth": "2", "--players": "easy,random", "--limit": "1"}
"""Smaller values for the examples' costly arguments (the commands are the same)."""
SKIPPED = ("plyground bench", "GAME", "--explore", "--executor ray")
"""Benchmarks take minutes by design (`bench --help` runs above); GAME is a placeholder;
--explore opens the window and Ray is an optional extra (tests/test_ray_executor.py)."""
STUDENT_FILES = {
    "my_search.py": "ALPHABETA",
    "my_chance.py": "EXPECTIMINIMAX",
    "my_mcts.py": "MCTS",
}
"""The exercise examples' students' files: right solutions from tests/exercise_solutions.py."""


def help_examples() -> list[str]:
    """Every example line of every command's --help."""
    found = []
    for command in COMMANDS:
        name = command.__name__.rpartition(".")[2].removesuffix("_command").replace("_", "-")
        out = io.StringIO()
        saved = sys.stdout
        sys.stdout = out
        try:
            main.main([name, "--help"])
        finally:
            sys.stdout = saved
        for line in out.getvalue().splitlines():
            text = line.split("#")[0].strip()
            if text.startswith("plyground ") and not any(s in text for s in SKIPPED):
                found.append(text)
    return found


@pytest.mark.slow
@pytest.mark.parametrize("example", help_examples())
def test_each_help_example_runs_with_an_ascii_console(example, tmp_path, monkeypatch):
    argv = shlex.split(example)[1:]
    for index, word in enumerate(argv[:-1]):
        if word in CHEAP:
            argv[index + 1] = CHEAP[word]
    monkeypatch.chdir(tmp_path)
    if "--load" in argv:
        (tmp_path / argv[argv.index("--load") + 1]).write_text(
            '{"format": "plyground-save", "version": 1, "game": "connect4", "moves": "4453"}'
        )
    if ">" in argv:  # the example writes its output to a file: here it is read from stdout
        argv = argv[: argv.index(">")]
    for name, solution in STUDENT_FILES.items():
        if name in argv:
            (tmp_path / name).write_text(getattr(exercise_solutions, solution), encoding="utf-8")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    out = ascii_stdout(monkeypatch)
    assert main.main(argv) == 0, example
    assert out.buffer.getvalue().isascii()
